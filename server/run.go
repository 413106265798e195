package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/metrics"
	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/script"
	"github.com/hookctl/hookctl/state"
	"github.com/hookctl/hookctl/trust"
)

// Config is what Start serves, and how its lifecycle goes.
type Config struct {
	// Path is the configuration's file.
	Path string
	// Listen is the TCP address to listen on ("127.0.0.1:8765"); Start
	// does not check it is a loopback address (the CLI does).
	Listen string
	// ProjectDir is the project the configuration's hooks run for
	// (assemble.WithProjectDir).
	ProjectDir string
	// AllowUntrusted serves a configuration not trusted with hookctl
	// trust; otherwise every load, the first included, must be trusted
	// (runtime.TrustGate).
	AllowUntrusted bool
	// ReloadInterval is how often the configuration's files are checked
	// (0: assemble.DefaultWatchInterval).
	ReloadInterval time.Duration
	// ShutdownTimeout bounds the shutdown: requests in flight,
	// background hooks and the state's queued writes (0: 30s; negative:
	// no wait, what is still running is dropped).
	ShutdownTimeout time.Duration
	// DrainDelay is how long Wait keeps serving, with /readyz at 503,
	// after its context ended and before the listener closes.
	DrainDelay time.Duration
	// Bundle, when set, serves a signed policy bundle pulled from its URL
	// instead of Path (and trust records): each new bundle is verified
	// whole before it replaces the last good one; one that does not
	// verify, download or load keeps the last good policy serving and
	// fails the /readyz "bundle" check; until one has loaded, every
	// guarded event is blocked.
	Bundle *BundleSource
	// Layers, when set, gives the layers above Path (the managed and
	// user layers, checked), read again on every load: Path is then the
	// project layer of a layered configuration (assemble.WatchLayers).
	Layers func() ([]assemble.Part, error)
}

// RunOption configures Start.
type RunOption func(*runOptions)

type runOptions struct {
	stderr     io.Writer
	engineOpts []engine.Option
	traceOpts  []engine.Option
	traceHTTP  func(http.Handler) http.Handler
	store      *state.Shared
	stateFlag  string
	reg        *prometheus.Registry
	srvOpts    []ServerOption
}

// WithStderr is where the lifecycle reports reloads, draining and
// shutdown (default os.Stderr).
func WithStderr(w io.Writer) RunOption { return func(o *runOptions) { o.stderr = w } }

// WithEngineOptions are options of the engine (its logger, say).
func WithEngineOptions(opts ...engine.Option) RunOption {
	return func(o *runOptions) { o.engineOpts = append(o.engineOpts, opts...) }
}

// WithTracing traces every fire with opts (telemetry.WithTracing), and
// wraps the HTTP handler in middleware (telemetry.Handler: a request's
// traceparent header makes its fire part of the caller's trace; nil: no
// wrapping). The caller shuts its TracerProvider down after Wait returns.
// Package server does not link the OpenTelemetry SDK itself.
func WithTracing(middleware func(http.Handler) http.Handler, opts ...engine.Option) RunOption {
	return func(o *runOptions) {
		o.traceHTTP = middleware
		o.traceOpts = append(o.traceOpts, opts...)
	}
}

// WithState keeps the shared state (kv, the Stop loop guard, the audit
// log on NATS) in s, which the caller closes after Wait returns. flag
// names what chose its backend ("--nats"), already opened: the
// configuration's settings.state is then overridden; with flag "" the
// configuration chooses, and s is opened once it is loaded. Without
// WithState, the state is where the configuration says, without NATS.
func WithState(s *state.Shared, flag string) RunOption {
	return func(o *runOptions) { o.store, o.stateFlag = s, flag }
}

// WithRegistry registers the metrics on reg, which /metrics serves
// (default: a registry of their own).
func WithRegistry(reg *prometheus.Registry) RunOption { return func(o *runOptions) { o.reg = reg } }

// WithServerOptions are options of the HTTP server: WithLimits,
// WithRequestPolicy and the like.
func WithServerOptions(opts ...ServerOption) RunOption {
	return func(o *runOptions) { o.srvOpts = append(o.srvOpts, opts...) }
}

// Running is a configuration being served (Start): a watched engine
// behind the hardened HTTP server.
type Running struct {
	cfg      Config
	stderr   io.Writer
	store    *state.Shared
	ownStore bool
	eng      *engine.Engine
	w        *assemble.Watcher
	handler  *Server
	srv      *http.Server
	ln       net.Listener
	errc     chan error
	shutdown sync.Once
	shutErr  error
	// pollStop stops the bundle's poller; pollDone is closed once it
	// stopped (nil without a bundle).
	pollStop, pollDone chan struct{}
}

// Start loads the configuration at cfg.Path into a new engine and
// watches it (a reload that fails keeps the last good configuration
// serving, and /healthz says so), opens the shared state, listens on
// cfg.Listen and serves. The errors of the first load are returned as
// they are: *hcl.Diagnostics, *trust.UntrustedError.
func Start(ctx context.Context, cfg Config, opts ...RunOption) (*Running, error) {
	o := runOptions{stderr: os.Stderr}
	for _, opt := range opts {
		opt(&o)
	}
	if cfg.ShutdownTimeout == 0 {
		cfg.ShutdownTimeout = 30 * time.Second
	}
	r := &Running{cfg: cfg, stderr: o.stderr, store: o.store}
	if r.store == nil {
		r.store = state.New("hookctl serve", state.WithCheckTimeout(ReadinessTimeout))
		r.ownStore = true
	}
	fail := func(err error) (*Running, error) {
		if r.ownStore {
			r.store.Close()
		}
		return nil, err
	}
	stderr, store, fixed := r.stderr, r.store, o.stateFlag != ""
	// Metrics on a registry of their own: no global state.
	reg := o.reg
	if reg == nil {
		reg = metrics.NewRegistry()
	}
	mets, err := metrics.New(reg)
	if err != nil {
		return fail(err)
	}
	engOpts := append(append(append([]engine.Option(nil), o.engineOpts...), store.EngineOptions()...), engine.WithObserver(mets))
	eng, err := assemble.NewEngine(append(engOpts, o.traceOpts...)...)
	if err != nil {
		return fail(err)
	}
	var poller *bundlePoller
	if cfg.Bundle != nil {
		if poller, err = newBundlePoller(*cfg.Bundle); err != nil {
			eng.Close(context.Background())
			return fail(err)
		}
		if _, err := poller.fetch(ctx); err != nil {
			poller.failed(err)
			fmt.Fprintf(stderr, "hookctl: bundle %s: %v; every guarded event is blocked until a signed policy verifies\n", cfg.Bundle.URL, err)
		}
		cfg.Path = poller.local
	}
	var mu sync.Mutex
	status := map[string]any{"config": cfg.Path, "trust": "checked"}
	// hash names the configuration serving: a failed reload keeps
	// the one before.
	var hash atomic.Pointer[string]
	configHash := func(c *assemble.Config) string {
		h, err := c.Hash()
		if err != nil {
			fmt.Fprintf(stderr, "hookctl: %v\n", err)
		}
		return h
	}
	wopts := []assemble.WatchOption{assemble.WithInterval(cfg.ReloadInterval),
		assemble.WithLoadOptions(assemble.WithProjectDir(cfg.ProjectDir), assemble.WithStore(store), assemble.WithEnv(projectEnv(serveProject(cfg.Path, cfg.ProjectDir))))}
	if poller != nil {
		status["trust"] = "signed bundle"
		status["bundle"] = cfg.Bundle.URL
		wopts = append(wopts, assemble.WithResolve(poller.resolve))
	} else if cfg.AllowUntrusted {
		status["trust"] = "not checked (--allow-untrusted)"
	} else {
		// Every load, the first included, is of a trusted
		// configuration (runtime.TrustGate).
		wopts = append(wopts, runtime.TrustGate(cfg.Path)...)
	}
	if cfg.Layers != nil {
		wopts = append(wopts, assemble.WatchLayers(cfg.Layers))
	}
	started := false
	wopts = append(wopts, assemble.OnReload(func(c *assemble.Config, err error) {
		if poller != nil {
			poller.loaded(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if !started {
			return // the first load: reported below
		}
		status["reloaded_at"] = time.Now().UTC().Format(time.RFC3339)
		if err != nil {
			mets.ObserveReload("", err)
			status["last_error"] = err.Error()
			var ue *trust.UntrustedError
			if errors.As(err, &ue) {
				fmt.Fprintf(stderr, "hookctl: not reloading: %v; the previous configuration keeps serving\n", err)
				return
			}
			fmt.Fprintf(stderr, "hookctl: reload failed; the previous configuration keeps serving:\n%v\n", err)
			return
		}
		delete(status, "last_error")
		status["hooks"] = len(c.Engine.Hooks)
		h := configHash(c)
		hash.Store(&h)
		mets.ObserveReload(h, nil)
		if !fixed {
			if want, have := backendOf(c), store.BackendInUse(); !want.Same(have) {
				msg := fmt.Sprintf("the configuration now asks for the state on %s; it stays on %s until hookctl serve restarts", want, have)
				status["state_pending"] = msg
				fmt.Fprintf(stderr, "hookctl: %s\n", msg)
			} else {
				delete(status, "state_pending")
			}
		}
	}))
	w, err := assemble.Watch(eng, cfg.Path, wopts...)
	if err != nil && poller != nil {
		// The bundle verified but does not load: serve nothing, blocked,
		// until a good one comes.
		poller.loaded(err)
		fmt.Fprintf(stderr, "hookctl: bundle %s: %v; every guarded event is blocked until a signed policy loads\n", cfg.Bundle.URL, err)
		poller.mu.Lock()
		poller.useEmpty = true
		poller.mu.Unlock()
		w, err = assemble.Watch(eng, cfg.Path, wopts...)
	}
	if err != nil {
		eng.Close(context.Background())
		return fail(err)
	}
	// abort stops what started before serving could begin.
	abort := func(err error) (*Running, error) {
		w.Close()
		eng.Close(context.Background())
		w.Config().Close()
		return fail(err)
	}
	if c := w.Config(); !fixed {
		store.Configure(c)
		if _, err := store.Open(ctx); err != nil {
			return abort(err)
		}
	} else if b := backendOf(c); !b.IsDefault() {
		fmt.Fprintf(stderr, "hookctl: %s overrides the configuration's %s\n", o.stateFlag, b)
	}
	store.Attach(eng)
	mu.Lock()
	started = true
	status["reloaded_at"] = time.Now().UTC().Format(time.RFC3339)
	status["hooks"] = len(w.Config().Engine.Hooks)
	h := configHash(w.Config())
	hash.Store(&h)
	mets.SetConfig(h)
	mu.Unlock()
	scripts := func() script.PoolStats {
		// The script runtimes of the configuration serving now.
		return w.Config().ScriptStats()
	}
	if err := errors.Join(mets.WatchEngine(eng.Stats), mets.WatchScripts(func() metrics.ScriptStats {
		st := scripts()
		return metrics.ScriptStats{Size: st.Size, InUse: st.InUse, Idle: st.Idle, OldestCall: st.OldestCall}
	})); err != nil {
		return abort(err)
	}
	var bundleOpts []ServerOption
	if poller != nil {
		// Blocked until a signed policy loaded; not ready while the
		// last fetch, verification or load failed.
		bundleOpts = []ServerOption{WithReadiness("bundle", poller.check), WithGate(poller.gate)}
	}
	// The host hook routes answer through the runtime, with the
	// watched engine (the server's default).
	handler := NewServer(eng, func() map[string]any {
		mu.Lock()
		defer mu.Unlock()
		out := make(map[string]any, len(status)+1)
		for k, v := range status {
			out[k] = v
		}
		out["state"] = store.Status()
		return out
	}, append(append(o.srvOpts[:len(o.srvOpts):len(o.srvOpts)], bundleOpts...), WithPoolStats(func() PoolStats {
		st := scripts()
		return PoolStats{Size: st.Size, InUse: st.InUse, Idle: st.Idle, OldestCall: st.OldestCall}
	}), WithMetrics(mets, metrics.Handler(reg)),
		WithConfigHash(func() string { return *hash.Load() }),
		WithReadiness("config", func(context.Context) error {
			if hash.Load() == nil {
				return errors.New("no configuration loaded")
			}
			return nil
		}),
		// The shared state answering: on NATS a round trip within
		// ReadinessTimeout, so that a stalled server is noticed.
		WithReadiness("state", store.Check))...)
	srv := handler.HTTPServer()
	if o.traceHTTP != nil {
		// Fires continue the trace of the request's traceparent.
		srv.Handler = o.traceHTTP(srv.Handler)
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return abort(err)
	}
	r.eng, r.w, r.handler, r.srv, r.ln = eng, w, handler, srv, ln
	r.errc = make(chan error, 1)
	if poller != nil {
		r.pollStop, r.pollDone = make(chan struct{}), make(chan struct{})
		go func() {
			defer close(r.pollDone)
			poller.poll(w, r.pollStop, stderr)
		}()
	}
	go func() { r.errc <- srv.Serve(handler.LimitListener(ln)) }()
	return r, nil
}

// Run serves the configuration (Start) until ctx ends, then drains and
// shuts down (Wait).
func Run(ctx context.Context, cfg Config, opts ...RunOption) error {
	r, err := Start(ctx, cfg, opts...)
	if err != nil {
		return err
	}
	r.Wait(ctx)
	return nil
}

// Addr is the address the server listens on.
func (r *Running) Addr() net.Addr { return r.ln.Addr() }

// Server is the HTTP handler serving.
func (r *Running) Server() *Server { return r.handler }

// Engine is the engine the configuration is loaded into.
func (r *Running) Engine() *engine.Engine { return r.eng }

// Wait serves until ctx ends or the server fails, then drains: /readyz
// answers 503 at once while requests are still served for
// Config.DrainDelay (after ctx ended), so that a load balancer stops
// sending requests before the listener closes; then Shutdown. It returns
// the engine's statistics at the end.
func (r *Running) Wait(ctx context.Context) engine.Stats {
	select {
	case <-ctx.Done():
	case err := <-r.errc:
		r.reportServeError(err)
	}
	// Not ready from now on; still serving for the drain delay.
	r.handler.Drain()
	if d := r.cfg.DrainDelay; d > 0 && ctx.Err() != nil {
		fmt.Fprintf(r.stderr, "hookctl: draining: /readyz answers 503; serving for %s more\n", d)
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case err := <-r.errc:
			r.reportServeError(err)
		}
		t.Stop()
	}
	fmt.Fprintln(r.stderr, "hookctl: shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), r.cfg.ShutdownTimeout)
	defer cancel()
	r.Shutdown(sctx)
	st := r.eng.Stats()
	fmt.Fprintf(r.stderr, "hookctl: stopped after %d fires; background hooks: %d done, %d dropped\n", st.Fires, st.BackgroundDone, st.BackgroundDropped)
	return st
}

func (r *Running) reportServeError(err error) {
	if !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(r.stderr, "hookctl: %v\n", err)
	}
}

// Shutdown stops serving, in this order, within ctx: the HTTP server
// (requests in flight finish), the watcher, the engine (background hooks
// drain, so that their audit records are written), the state (the audit
// records still queued for NATS, then the connection closes, so that
// every record lost is logged) and the configuration. Errors are
// reported on the lifecycle's stderr and returned joined. Calls after the
// first return the first's result.
func (r *Running) Shutdown(ctx context.Context) error {
	r.shutdown.Do(func() {
		r.handler.Drain()
		var errs []error
		_ = r.srv.Shutdown(ctx)
		if r.pollStop != nil {
			close(r.pollStop)
			<-r.pollDone
		}
		r.w.Close()
		if err := r.eng.Close(ctx); err != nil {
			fmt.Fprintf(r.stderr, "hookctl: %v\n", err)
			errs = append(errs, err)
		}
		if err := r.store.Shutdown(ctx); err != nil {
			fmt.Fprintf(r.stderr, "hookctl: %v\n", err)
			errs = append(errs, err)
		}
		r.w.Config().Close()
		if r.ownStore {
			r.store.Close()
		}
		r.shutErr = errors.Join(errs...)
	})
	return r.shutErr
}

// backendOf is the state a loaded configuration asks for
// (state.BackendOf), for messages: the loader refused a settings.state
// that does not parse.
func backendOf(c *assemble.Config) state.Backend {
	b, _ := state.BackendOf(c)
	return b
}

// serveProject is the project serve's built-ins protect when serve's
// environment names none: the project a configuration is the project
// layer of by where it is (the directory holding .claude/hooks.hcl or
// .hookctl/), else the directory serve runs in (dir) when it is a
// project's (it holds the configuration, a .git or a .claude) and not the
// file system's root or the home directory; "" leaves each call's cwd
// the project, as before (a shared serve started elsewhere).
func serveProject(path, dir string) string {
	if abs, err := filepath.Abs(path); err == nil && path != "" {
		parent, base := filepath.Dir(abs), filepath.Base(abs)
		switch {
		case base == "hooks.hcl" && filepath.Base(parent) == ".claude":
			return filepath.Dir(parent)
		case base == ".hookctl":
			return parent
		case filepath.Base(parent) == ".hookctl":
			return filepath.Dir(parent)
		}
	}
	if dir == "" {
		return ""
	}
	clean := filepath.Clean(dir)
	if home, err := os.UserHomeDir(); clean == filepath.Dir(clean) || err == nil && clean == filepath.Clean(home) {
		return ""
	}
	abs, _ := filepath.Abs(path)
	if rel, err := filepath.Rel(clean, abs); err == nil && path != "" && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return clean // the configuration is in it
	}
	for _, mark := range []string{".git", ".claude"} {
		if _, err := os.Stat(filepath.Join(clean, mark)); err == nil {
			return clean
		}
	}
	return ""
}

// projectEnv is the environment the configuration reads under serve: the
// process's, with CLAUDE_PROJECT_DIR the project of serve's configuration
// (serveProject) when the process has none. Claude Code sets that variable for its command
// hooks but gives an http hook no environment, and the payload's cwd
// follows the agent's cd: without it, dangerous-commands took the cwd
// for the project, and `cd .. && rm -rf project` passed its rm-project
// rule under serve while `hookctl claude` denied it.
func projectEnv(project string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := os.LookupEnv(k)
		if k == "CLAUDE_PROJECT_DIR" && v == "" && project != "" {
			return project, true
		}
		return v, ok
	}
}
