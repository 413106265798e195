package server_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"aead.dev/minisign"

	"github.com/hookctl/hookctl/bundle"
	"github.com/hookctl/hookctl/server"
)

func bundleOf(t *testing.T, sk minisign.PrivateKey, reason string) []byte {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "hooks.hcl"), []byte(`hook "guard" {
  event    = "PreToolUse"
  on_error = "block"
  js       = "if (event.tool_input.command.includes('rm')) return { decision: 'deny', reason: '`+reason+`' }"
}
`), 0o644)
	var buf bytes.Buffer
	if err := bundle.Build(context.Background(), dir, sk, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func keyPair(t *testing.T) (minisign.PublicKey, minisign.PrivateKey) {
	t.Helper()
	pub, priv, err := bundle.GenerateKey("")
	if err != nil {
		t.Fatal(err)
	}
	var pk minisign.PublicKey
	var sk minisign.PrivateKey
	if err := bundle.ParsePublicKey(pub, &pk); err != nil {
		t.Fatal(err)
	}
	if err := sk.UnmarshalText(priv); err != nil {
		t.Fatal(err)
	}
	return pk, sk
}

// TestRunBundleHTTPS: serve pulls a signed bundle over HTTPS (a TLS test
// server on 127.0.0.1 whose certificate only the client given trusts),
// asks again with If-None-Match and is answered 304 without a download,
// swaps in a new bundle, and keeps the last good one (not ready, naming
// why) when the server fails or serves a bundle past the size limit.
func TestRunBundleHTTPS(t *testing.T) {
	pk, sk := keyPair(t)
	var mu sync.Mutex
	body, etag, status := bundleOf(t, sk, "v1"), `"v1"`, 200
	var notModified, downloads int
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if status != 200 {
			http.Error(w, "down", status)
			return
		}
		if r.Header.Get("If-None-Match") == etag {
			notModified++
			w.WriteHeader(http.StatusNotModified)
			return
		}
		downloads++
		w.Header().Set("ETag", etag)
		w.Write(body)
	}))
	defer ts.Close()
	set := func(b []byte, e string, st int) {
		mu.Lock()
		body, etag, status = b, e, st
		mu.Unlock()
	}
	t.Setenv("HOOKCTL_STATE_DIR", t.TempDir())
	var stderr syncBuffer
	r, err := server.Start(t.Context(), server.Config{Listen: "127.0.0.1:0", ProjectDir: t.TempDir(),
		Bundle: &server.BundleSource{URL: ts.URL + "/policy.bundle", Keys: []minisign.PublicKey{pk}, Poll: 20 * time.Millisecond,
			Client: ts.Client(), CacheDir: t.TempDir(), MaxBytes: 1 << 20}}, server.WithStderr(&stderr))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Shutdown(context.Background()) })
	fire := func() string {
		_, out := getJSON(t, r, "POST", "/v1/fire/PreToolUse", `{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`)
		reason, _ := out["reason"].(string)
		return reason
	}
	ready := func(ok func(int, map[string]any) bool) map[string]any {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			code, out := getJSON(t, r, "GET", "/readyz", "")
			if ok(code, out) {
				return out
			}
			if time.Now().After(deadline) {
				t.Fatalf("/readyz never got there: %d %v\n%s", code, out, stderr.String())
			}
		}
	}
	if got := fire(); got != "v1" {
		t.Fatalf("v1: %q\n%s", got, stderr.String())
	}
	// Polls now ask with If-None-Match and get 304s.
	ready(func(code int, _ map[string]any) bool {
		mu.Lock()
		defer mu.Unlock()
		return code == 200 && notModified >= 2
	})
	mu.Lock()
	if downloads != 1 {
		t.Errorf("%d downloads of an unchanged bundle", downloads)
	}
	mu.Unlock()

	set(bundleOf(t, sk, "v2"), `"v2"`, 200)
	ready(func(code int, _ map[string]any) bool {
		return code == 200 && strings.Contains(stderr.String(), "a new signed policy is serving")
	})
	if got := fire(); got != "v2" {
		t.Fatalf("v2: %q", got)
	}

	// The server fails: v2 keeps serving, /readyz names the download.
	set(nil, "", 500)
	out := ready(func(code int, _ map[string]any) bool { return code == 503 })
	if c, _ := out["checks"].(map[string]any); !strings.Contains(c["bundle"].(string), "500") {
		t.Fatalf("/readyz: %v", out)
	}
	if got := fire(); got != "v2" {
		t.Fatalf("after a failed download: %q", got)
	}

	// Past the size limit: refused, v2 keeps serving.
	set(bytes.Repeat([]byte("x"), 2<<20), `"big"`, 200)
	ready(func(code int, out map[string]any) bool {
		c, _ := out["checks"].(map[string]any)
		s, _ := c["bundle"].(string)
		return code == 503 && strings.Contains(s, "larger than")
	})
	if got := fire(); got != "v2" {
		t.Fatalf("after an oversize bundle: %q", got)
	}
}

// TestRunBundleHTTPSRedirectToHTTP: an https:// bundle URL that redirects
// to plain http:// (a server on 127.0.0.1 serving a good signed bundle) is
// refused: no policy is served from it and /readyz names the redirect.
func TestRunBundleHTTPSRedirectToHTTP(t *testing.T) {
	pk, sk := keyPair(t)
	good := bundleOf(t, sk, "plain")
	var mu sync.Mutex
	plainGets := 0
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		plainGets++
		mu.Unlock()
		w.Write(good)
	}))
	defer plain.Close()
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, plain.URL+"/good", http.StatusFound)
	}))
	defer ts.Close()
	t.Setenv("HOOKCTL_STATE_DIR", t.TempDir())
	var stderr syncBuffer
	r, err := server.Start(t.Context(), server.Config{Listen: "127.0.0.1:0", ProjectDir: t.TempDir(),
		Bundle: &server.BundleSource{URL: ts.URL + "/tohttp", Keys: []minisign.PublicKey{pk}, Poll: 20 * time.Millisecond,
			Client: ts.Client(), CacheDir: t.TempDir(), MaxBytes: 1 << 20}}, server.WithStderr(&stderr))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Shutdown(context.Background()) })
	code, out := getJSON(t, r, "GET", "/readyz", "")
	c, _ := out["checks"].(map[string]any)
	if code != 503 || !strings.Contains(fmt.Sprint(c["bundle"]), "redirected away from https") {
		t.Fatalf("/readyz: %d %v\n%s", code, out, stderr.String())
	}
	_, fired := getJSON(t, r, "POST", "/v1/fire/PreToolUse", `{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`)
	if reason, _ := fired["reason"].(string); reason == "plain" {
		t.Fatalf("the plaintext bundle is serving: %v", fired)
	}
	mu.Lock()
	defer mu.Unlock()
	if plainGets != 0 {
		t.Fatalf("the plain http server was asked %d times", plainGets)
	}
}

// TestRunBundleRollback: a bundle signed before the one in force (an
// older signed policy put back on the share) is refused, the newer one
// keeps serving and /readyz names why; also after a restart, which reads
// the created time of the bundle it kept.
func TestRunBundleRollback(t *testing.T) {
	pk, sk := keyPair(t)
	old := bundleOf(t, sk, "old")
	cur := bundleOf(t, sk, "new")
	share := filepath.Join(t.TempDir(), "policy.bundle")
	if err := os.WriteFile(share, cur, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOOKCTL_STATE_DIR", t.TempDir())
	cache := t.TempDir()
	start := func() (*server.Running, *syncBuffer) {
		var stderr syncBuffer
		r, err := server.Start(t.Context(), server.Config{Listen: "127.0.0.1:0", ProjectDir: t.TempDir(),
			Bundle: &server.BundleSource{URL: "file://" + share, Keys: []minisign.PublicKey{pk}, Poll: 20 * time.Millisecond,
				CacheDir: cache}}, server.WithStderr(&stderr))
		if err != nil {
			t.Fatal(err)
		}
		return r, &stderr
	}
	fire := func(r *server.Running) string {
		_, out := getJSON(t, r, "POST", "/v1/fire/PreToolUse", `{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`)
		reason, _ := out["reason"].(string)
		return reason
	}
	refused := func(r *server.Running, stderr *syncBuffer) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			code, out := getJSON(t, r, "GET", "/readyz", "")
			c, _ := out["checks"].(map[string]any)
			if code == 503 && strings.Contains(fmt.Sprint(c["bundle"]), "older than the policy in force") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("/readyz: %d %v\n%s", code, out, stderr.String())
			}
		}
		if got := fire(r); got != "new" {
			t.Fatalf("after the rollback: %q\n%s", got, stderr.String())
		}
	}
	r, stderr := start()
	if got := fire(r); got != "new" {
		t.Fatalf("new: %q\n%s", got, stderr.String())
	}
	if err := os.WriteFile(share, old, 0o644); err != nil {
		t.Fatal(err)
	}
	refused(r, stderr)
	r.Shutdown(context.Background())

	r, stderr = start()
	t.Cleanup(func() { r.Shutdown(context.Background()) })
	refused(r, stderr)
}
