package assemble

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/filestamp"
	"github.com/hookctl/hookctl/internal/safefile"
	"github.com/hookctl/hookctl/script"
)

// DefaultWatchInterval is how often a Watcher looks at the files.
const DefaultWatchInterval = time.Second

// Watcher keeps an engine loaded with a configuration and reloads it when
// the configuration's files (its *.hcl files and the scripts it uses)
// change. A reload is atomic: a configuration with errors is reported and
// the last good one keeps serving. A Watcher is safe for concurrent use.
type Watcher struct {
	eng  *engine.Engine
	path string
	opts []Option
	// projectOpts are the watched configuration's own (WithProjectLoadOptions).
	projectOpts []Option
	interval    time.Duration
	settle      time.Duration
	onReload    func(*Config, error)
	gate        func(path string) error
	extra       func() []string
	resolve     func(path string) (string, []Option, error)
	// upper, when set, gives the layers above the watched configuration
	// (WatchLayers), read again on every load.
	upper func() ([]Part, error)
	// upperPaths are the paths of the layers of the last load.
	upperPaths []string

	mu      sync.Mutex
	current *Config
	stamps  filestamp.Set
	// pending holds stamps seen changed once: a reload waits until they
	// hold still for one more interval, so a file caught half-written (an
	// editor truncating before writing) is not loaded.
	pending filestamp.Set
	// unsettled is when the files of the last load settle, if they had
	// not when it began (zero: they had): a change within the tick of the
	// file system's clock may leave a stamp as it was, so the watcher
	// loads once more when the tick has passed.
	unsettled time.Time
	// settleTick is filestamp.SettleTick (tests shorten it).
	settleTick time.Duration

	stop chan struct{}
	done chan struct{}
}

// WatchOption configures a Watcher.
type WatchOption func(*Watcher)

// WithSettle sets how long a reload that lost every hook waits before it
// reads the files again to make sure they hold still (default 250ms).
func WithSettle(d time.Duration) WatchOption {
	return func(w *Watcher) {
		if d > 0 {
			w.settle = d
		}
	}
}

// WithInterval sets how often the files are checked.
func WithInterval(d time.Duration) WatchOption {
	return func(w *Watcher) {
		if d > 0 {
			w.interval = d
		}
	}
}

// OnReload is called after every reload attempt: with the new
// configuration, or with the error (a *Diagnostics for a bad one) while
// the old configuration keeps serving.
func OnReload(f func(*Config, error)) WatchOption {
	return func(w *Watcher) { w.onReload = f }
}

// WithGate makes every load, the first included, ask check(path) first:
// an error refuses the load before any file is parsed, as a broken
// configuration is refused (the first load fails; a reload keeps the last
// good configuration serving and OnReload gets the error). hookctl serve
// uses it to refuse a configuration that is not trusted. A nil check is
// no gate.
func WithGate(check func(path string) error) WatchOption {
	return func(w *Watcher) { w.gate = check }
}

// WatchFiles adds files whose changes trigger a reload, besides the
// configuration's own: files the gate reads, say. files is called at
// every check and must not call the Watcher.
func WatchFiles(files func() []string) WatchOption {
	return func(w *Watcher) { w.extra = files }
}

// WithResolve makes every load, the first included, load what resolve
// makes of the watched path, with its options added: hookctl serve
// watches a signed bundle file and loads the directory of its verified
// files, each file checked against the signed manifest. An error refuses
// the load (as WithGate's does). The watched files are the path itself
// and those of the configuration loaded.
func WithResolve(resolve func(path string) (string, []Option, error)) WatchOption {
	return func(w *Watcher) { w.resolve = resolve }
}

// WatchLayers merges the watched configuration, as the project layer,
// with the layers upper returns (the managed and user layers) on every
// load (LoadLayers): hookctl serve's layered configuration. upper is
// called again for each load, so that a layer that appears, goes or may
// no longer be trusted is seen; its error fails the load (the last good
// configuration keeps serving). Their directories are watched too.
func WatchLayers(upper func() ([]Part, error)) WatchOption {
	return func(w *Watcher) { w.upper = upper }
}

// WithLoadOptions passes options to every load.
func WithLoadOptions(opts ...Option) WatchOption {
	return func(w *Watcher) { w.opts = append(w.opts, opts...) }
}

// WithProjectLoadOptions passes options to the load of the watched
// configuration alone, not to the layers above it (WatchLayers): the
// project's trust record checks the project's files, while a managed or
// user layer is trusted by who can write it.
func WithProjectLoadOptions(opts ...Option) WatchOption {
	return func(w *Watcher) { w.projectOpts = append(w.projectOpts, opts...) }
}

// Watch loads path into eng and starts watching it. The first load must
// succeed. Stop the watcher with Close.
func Watch(eng *engine.Engine, path string, opts ...WatchOption) (*Watcher, error) {
	w := &Watcher{eng: eng, path: path, interval: DefaultWatchInterval, settle: 250 * time.Millisecond, settleTick: filestamp.SettleTick, stop: make(chan struct{}), done: make(chan struct{})}
	for _, o := range opts {
		o(w)
	}
	// Every reload shares one TransformCache: a TypeScript or ES module
	// file that did not change is not transformed again. A cache given
	// with WithLoadOptions comes after, and wins.
	w.opts = append([]Option{WithScriptOptions(script.WithTransformCache(script.NewTransformCache(0, 0)))}, w.opts...)
	if err := w.Reload(); err != nil {
		return nil, err
	}
	go w.loop()
	return w, nil
}

// Config returns the configuration serving now.
func (w *Watcher) Config() *Config {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.current
}

// Reload loads the configuration now. On error the engine keeps the
// previous configuration.
func (w *Watcher) Reload() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	start := time.Now()
	defer func() {
		w.unsettled = time.Time{}
		if !w.stamps.Settled(start, w.settleTick) {
			w.unsettled = start.Add(w.settleTick)
		}
	}()
	var cfg *Config
	var err error
	if w.gate != nil {
		err = w.gate(w.path)
	}
	if err == nil {
		cfg, err = w.load()
	}
	if err == nil && w.current != nil && len(w.current.Engine.Hooks) > 0 && len(cfg.Engine.Hooks) == 0 {
		// Every hook is gone: an editor caught between truncating and
		// writing looks just like that. Swap it in only after a complete,
		// stable read.
		cfg, err = w.stableEmpty(cfg)
	}
	if err == nil {
		if lerr := w.eng.Load(cfg.Engine); lerr != nil {
			cfg.Close()
			err = lerr
		}
	}
	if err != nil {
		// Still note the stamps, so a broken file is not reloaded in a
		// loop; the next change is tried again.
		w.stamps = w.scan(w.current)
		if w.onReload != nil {
			w.onReload(nil, err)
		}
		return err
	}
	old := w.current
	w.current = cfg
	w.stamps = w.scan(cfg)
	if old != nil {
		old.Close()
	}
	if w.onReload != nil {
		w.onReload(cfg, nil)
	}
	return nil
}

// ErrUnstable is a reload refused because the configuration lost every
// hook and its files did not hold still: the last good configuration
// keeps serving, and the next change is tried again.
var ErrUnstable = errors.New("the configuration lost every hook while its files were changing; keeping the last good configuration")

// stableEmpty accepts a configuration that has no hooks (where the one
// serving had some) only if, after the settle time, its files are the same
// as when it was read and still load without hooks.
func (w *Watcher) stableEmpty(cfg *Config) (*Config, error) {
	before := w.digest(cfg)
	time.Sleep(w.settle)
	again, err := w.load()
	if err != nil {
		cfg.Close()
		return nil, err
	}
	if w.digest(again) != before || len(again.Engine.Hooks) != 0 {
		cfg.Close()
		again.Close()
		return nil, ErrUnstable
	}
	cfg.Close()
	return again, nil
}

// digest hashes the contents of the configuration's files.
func (w *Watcher) digest(cfg *Config) string {
	h := sha256.New()
	for _, f := range w.files(cfg) {
		b, err := safefile.ReadRegular(f)
		fmt.Fprintf(h, "%s\x00%d\x00%v\x00", f, len(b), err != nil)
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// files lists what a configuration depends on.
// load loads the watched configuration (through the WithResolve
// function, when given), with the layers above it when WatchLayers gives
// them.
func (w *Watcher) load() (*Config, error) {
	path, opts := w.path, append([]Option{WithEngine(w.eng)}, w.opts...)
	var more []Option
	if w.resolve != nil {
		p, m, err := w.resolve(w.path)
		if err != nil {
			return nil, err
		}
		path, more = p, m
	}
	more = append(slices.Clone(w.projectOpts), more...)
	if w.upper == nil {
		return Load(path, append(opts, more...)...)
	}
	parts, err := w.upper()
	if err != nil {
		return nil, err
	}
	w.upperPaths = w.upperPaths[:0]
	for _, p := range parts {
		w.upperPaths = append(w.upperPaths, p.Path)
		if p.Layer == LayerManaged && strings.HasSuffix(p.Path, ".d") {
			// The managed directory: a drop-in added changes it.
			w.upperPaths = append(w.upperPaths, filepath.Dir(p.Path))
		}
	}
	return LoadLayers(append(parts, Part{Layer: LayerProject, Path: path, Options: more}), opts...)
}

func (w *Watcher) files(cfg *Config) []string {
	files := slices.Clone(w.upperPaths) // directories: a file added changes them
	if fi, err := os.Stat(w.path); err == nil && fi.IsDir() {
		matches, _ := hcl.ConfigFiles(w.path)
		files = append(files, matches...)
	} else {
		files = append(files, w.path)
	}
	if w.extra != nil {
		files = append(files, w.extra()...)
	}
	if cfg != nil {
		files = append(files, cfg.Files...)
		files = append(files, cfg.Refs()...)
	}
	slices.Sort(files)
	return slices.Compact(files)
}

func (w *Watcher) scan(cfg *Config) filestamp.Set {
	return filestamp.Take(w.files(cfg))
}

// changed reports whether the watched files changed since the last load
// and have held still since the previous check.
func (w *Watcher) changed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.unsettled.IsZero() && !time.Now().Before(w.unsettled) {
		// The last load read files written within a tick of it: load
		// again, now that a change in that tick has a stamp of its own.
		w.unsettled, w.pending = time.Time{}, nil
		return true
	}
	now := w.scan(w.current)
	if now.Equal(w.stamps) {
		w.pending = nil
		return false
	}
	if w.pending != nil && now.Equal(w.pending) {
		w.pending = nil
		return true
	}
	w.pending = now
	return false
}

func (w *Watcher) loop() {
	defer close(w.done)
	t := time.NewTicker(w.interval)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
			if w.changed() {
				_ = w.Reload()
			}
		}
	}
}

// Close stops watching. It leaves the engine loaded.
func (w *Watcher) Close() error {
	select {
	case <-w.stop:
		return errors.New("watcher already closed")
	default:
	}
	close(w.stop)
	<-w.done
	return nil
}
