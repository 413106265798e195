package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"aead.dev/minisign"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/bundle"
	"github.com/hookctl/hookctl/internal/safefile"
)

// BundleSource is a signed policy bundle that Start pulls, verifies and
// swaps in (Config.Bundle): hookctl serve --bundle URL --bundle-pub KEY.
type BundleSource struct {
	// URL is the bundle's file:// or https:// URL.
	URL string
	// Keys verify its manifest's signature.
	Keys []minisign.PublicKey
	// Poll is how often it is fetched again (0: 30s).
	Poll time.Duration
	// Client fetches https:// URLs (nil: one with a 30s timeout).
	Client *http.Client
	// CacheDir keeps the last good bundle and its opened files.
	CacheDir string
	// MaxBytes bounds a download (0: 32 MiB).
	MaxBytes int64
}

// bundlePoller fetches a bundle and keeps the last good one in local:
// a download is verified whole before it replaces it, so a bad one never
// does; the watcher loads local through resolve.
type bundlePoller struct {
	src   BundleSource
	local string // the last good bundle
	empty string // the configuration without hooks loaded before any is good
	mu    sync.Mutex
	etag  string // of the last download (https), or its SHA-256 (file)
	// lastErr is why the last fetch, verification or load failed (nil:
	// it did not); good is set once a bundle verified and loaded.
	lastErr error
	good    bool
	// useEmpty makes resolve load the empty configuration (the bundle
	// on disk did not load at start).
	useEmpty bool
	// opened is set by resolve when it opened the bundle.
	opened bool
	// created and manifest are the signed creation time and manifest of
	// the bundle in local (read back at start, so a restart keeps them):
	// a bundle created before it is refused (rollback).
	created  string
	manifest *bundle.Manifest
}

func newBundlePoller(src BundleSource) (*bundlePoller, error) {
	if src.Poll <= 0 {
		src.Poll = 30 * time.Second
	}
	if src.MaxBytes <= 0 {
		src.MaxBytes = 32 << 20
	}
	if src.Client == nil {
		src.Client = &http.Client{Timeout: 30 * time.Second}
	}
	src.Client = httpsOnly(src.Client)
	u, err := url.Parse(src.URL)
	if err != nil || (u.Scheme != "file" && u.Scheme != "https") {
		return nil, fmt.Errorf("bundle URL %q: want file:// or https://", src.URL)
	}
	if err := os.MkdirAll(src.CacheDir, 0o700); err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(src.URL))
	name := hex.EncodeToString(sum[:8])
	p := &bundlePoller{src: src, local: filepath.Join(src.CacheDir, "serve-"+name+".bundle"), empty: filepath.Join(src.CacheDir, "empty-"+name)}
	if err := os.MkdirAll(p.empty, 0o700); err != nil {
		return nil, err
	}
	if m, err := bundle.Verify(p.local, src.Keys); err == nil {
		p.manifest, p.created = m, m.Created
	}
	if err := os.WriteFile(filepath.Join(p.empty, "hooks.hcl"), []byte("# no signed policy has verified yet: hookctl serve blocks every guarded event\n"), 0o600); err != nil {
		return nil, err
	}
	return p, nil
}

// fetch downloads the bundle; a new one that verifies replaces local and
// changed is true. Unchanged content (304, or the same bytes) is not read
// again.
func (p *bundlePoller) fetch(ctx context.Context) (changed bool, err error) {
	u, _ := url.Parse(p.src.URL)
	var data []byte
	var etag string
	if u.Scheme == "file" {
		if data, err = safefile.ReadFile(ctx, u.Path, p.src.MaxBytes+1); err != nil {
			return false, fmt.Errorf("reading the bundle: %w", err)
		}
		sum := sha256.Sum256(data)
		etag = hex.EncodeToString(sum[:])
	} else {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.src.URL, nil)
		if err != nil {
			return false, err
		}
		p.mu.Lock()
		if p.etag != "" && p.good {
			req.Header.Set("If-None-Match", p.etag)
		}
		p.mu.Unlock()
		resp, err := p.src.Client.Do(req)
		if err != nil {
			return false, fmt.Errorf("downloading the bundle: %w", err)
		}
		defer resp.Body.Close()
		if resp.StatusCode == http.StatusNotModified {
			return false, nil
		}
		if resp.StatusCode != http.StatusOK {
			return false, fmt.Errorf("downloading the bundle: %s", resp.Status)
		}
		if data, err = io.ReadAll(io.LimitReader(resp.Body, p.src.MaxBytes+1)); err != nil {
			return false, fmt.Errorf("downloading the bundle: %w", err)
		}
		etag = resp.Header.Get("ETag")
	}
	if int64(len(data)) > p.src.MaxBytes {
		return false, fmt.Errorf("the bundle is larger than %d bytes", p.src.MaxBytes)
	}
	p.mu.Lock()
	same := u.Scheme == "file" && etag == p.etag && p.good
	p.mu.Unlock()
	if same {
		return false, nil
	}
	tmp, err := os.CreateTemp(p.src.CacheDir, ".fetch-*.bundle")
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(data)
	if err := errors.Join(werr, tmp.Close()); err != nil {
		return false, err
	}
	m, err := bundle.Verify(tmp.Name(), p.src.Keys)
	if err != nil {
		return false, err
	}
	if err := p.newer(m); err != nil {
		return false, err
	}
	if err := os.Rename(tmp.Name(), p.local); err != nil {
		return false, err
	}
	p.mu.Lock()
	p.etag, p.useEmpty = etag, false
	p.manifest, p.created = m, m.Created
	p.mu.Unlock()
	return true, nil
}

// ErrRollback is why a bundle that verifies is refused: it was signed
// before the policy in force (or has no signed creation time while the
// one in force has), so it could be an older policy put back.
var ErrRollback = errors.New("refused as a rollback")

// newer checks that m is not older than the manifest in force.
func (p *bundlePoller) newer(m *bundle.Manifest) error {
	p.mu.Lock()
	cur, created := p.manifest, p.created
	p.mu.Unlock()
	if cur == nil || created == "" {
		return nil // nothing dated in force yet
	}
	in, _ := cur.CreatedAt()
	got, ok := m.CreatedAt()
	switch {
	case !ok:
		return fmt.Errorf("%w: the bundle has no signed creation time, the policy in force was created %s", ErrRollback, created)
	case got.Before(in):
		return fmt.Errorf("%w: older than the policy in force (created %s < %s)", ErrRollback, m.Created, created)
	case got.Equal(in) && !slices.Equal(m.Files, cur.Files):
		return fmt.Errorf("%w: other files than the policy in force with the same created time %s", ErrRollback, created)
	}
	return nil
}

// resolve is the watcher's load of local: the directory of its verified
// files and the check of every file loaded against the signed manifest;
// the empty configuration while no bundle is there.
func (p *bundlePoller) resolve(string) (string, []assemble.Option, error) {
	p.mu.Lock()
	useEmpty := p.useEmpty
	p.opened = false
	p.mu.Unlock()
	if _, err := os.Stat(p.local); err != nil || useEmpty {
		return p.empty, nil, nil
	}
	o, err := bundle.OpenVerified(context.Background(), p.local, p.src.Keys, filepath.Join(p.src.CacheDir, "files"))
	if err != nil {
		return "", nil, err
	}
	p.mu.Lock()
	p.opened = true
	p.mu.Unlock()
	return o.Dir, []assemble.Option{assemble.WithFileCheck(o.Check)}, nil
}

// loaded records the result of a load of the watcher.
func (p *bundlePoller) loaded(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		if !errors.Is(err, errLoad) {
			err = fmt.Errorf("%w: %v", errLoad, err)
		}
		p.lastErr = err
		return
	}
	if p.opened {
		// A load clears a load's error, not a download's: a bundle kept
		// from before a restart serves while the URL fails, not ready.
		p.good = true
		if errors.Is(p.lastErr, errLoad) {
			p.lastErr = nil
		}
	}
}

func (p *bundlePoller) failed(err error) {
	p.mu.Lock()
	p.lastErr = err
	p.mu.Unlock()
}

// check is the /readyz "bundle" check: the last fetch, verification and
// load succeeded, and a policy is serving.
func (p *bundlePoller) check(context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.lastErr != nil && !p.good:
		return fmt.Errorf("no signed policy has verified yet: %v", p.lastErr)
	case p.lastErr != nil:
		return fmt.Errorf("%v (the last good policy keeps serving)", p.lastErr)
	case !p.good:
		return errors.New("no signed policy has verified yet")
	}
	return nil
}

// gate refuses every fire until a signed policy has loaded.
func (p *bundlePoller) gate() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.good {
		return nil
	}
	why := "none fetched yet"
	if p.lastErr != nil {
		why = p.lastErr.Error()
	}
	return fmt.Errorf("no signed policy from %s has verified (%s), so the guarded events are blocked", p.src.URL, why)
}

// poll fetches and reloads every Poll until stop is closed.
func (p *bundlePoller) poll(w *assemble.Watcher, stop <-chan struct{}, stderr io.Writer) {
	t := time.NewTicker(p.src.Poll)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		p.update(w, stderr)
	}
}

// update fetches once and swaps a new good bundle in.
func (p *bundlePoller) update(w *assemble.Watcher, stderr io.Writer) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*p.src.Client.Timeout+time.Minute)
	defer cancel()
	changed, err := p.fetch(ctx)
	if err != nil {
		p.failed(err)
		fmt.Fprintf(stderr, "hookctl: bundle %s: %v; the last good policy keeps serving\n", p.src.URL, err)
		return
	}
	if !changed {
		p.mu.Lock()
		// A fetch that worked clears a download error, not a load error
		// of the bundle still there.
		if p.good && p.lastErr != nil && !errors.Is(p.lastErr, errLoad) {
			p.lastErr = nil
		}
		p.mu.Unlock()
		return
	}
	err = w.Reload() // OnReload reports it to loaded
	if err == nil {
		p.mu.Lock()
		p.lastErr = nil // fetched, verified and loaded
		p.mu.Unlock()
	}
	if err != nil {
		fmt.Fprintf(stderr, "hookctl: bundle %s: %v; the last good policy keeps serving\n", p.src.URL, err)
		return
	}
	fmt.Fprintf(stderr, "hookctl: bundle %s: a new signed policy is serving\n", p.src.URL)
}

// ErrInsecureRedirect is why a download whose https:// URL redirected
// to another scheme (plain http://) is refused: the signature protects
// the content, but a plaintext leg lets an on-path attacker replay or
// withhold bundles.
var ErrInsecureRedirect = errors.New("the bundle URL redirected away from https://")

// httpsOnly is a copy of c that refuses a redirect leaving https://,
// after c's own redirect policy (if any) accepts it.
func httpsOnly(c *http.Client) *http.Client {
	cc := *c
	inner := c.CheckRedirect
	cc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != "https" {
			return fmt.Errorf("%w: to %s", ErrInsecureRedirect, req.URL.Redacted())
		}
		if inner != nil {
			return inner(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &cc
}

// errLoad marks a bundle that verified but did not load.
var errLoad = errors.New("the new bundle does not load")
