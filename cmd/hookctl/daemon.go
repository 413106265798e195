package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/daemon"
	"github.com/hookctl/hookctl/internal/filelock"
	"github.com/hookctl/hookctl/script"
)

// engineCache keeps the engines a daemon loaded, by configuration path,
// for as long as none of the files they were loaded from changed. It is
// safe for concurrent use.
type engineCache struct {
	mu sync.Mutex
	m  map[string]*cachedEngine
	// transforms keeps TypeScript and ES module transforms across the
	// reloads of a changed configuration.
	transforms *script.TransformCache
}

// transformCache returns the transform cache every load shares.
func (c *engineCache) transformCache() *script.TransformCache {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.transforms == nil {
		c.transforms = script.NewTransformCache(0, 0)
	}
	return c.transforms
}

type cachedEngine struct {
	eng    *engine.Engine
	cfg    *assemble.Config
	state  *sharedState // the engine's kv store, loop guard and audit
	stamps map[string]fileStamp
	refs   int
	stale  bool
}

type fileStamp struct {
	mod  time.Time
	size int64
	ok   bool
}

func stampsOf(files []string) map[string]fileStamp {
	out := make(map[string]fileStamp, len(files))
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			out[f] = fileStamp{}
			continue
		}
		out[f] = fileStamp{mod: fi.ModTime(), size: fi.Size(), ok: true}
	}
	return out
}

// get returns the engine loaded from path if its files are unchanged,
// holding it until release.
func (c *engineCache) get(path string) *cachedEngine {
	c.mu.Lock()
	defer c.mu.Unlock()
	ce := c.m[path]
	if ce == nil {
		return nil
	}
	files := make([]string, 0, len(ce.stamps))
	for f := range ce.stamps {
		files = append(files, f)
	}
	now := stampsOf(files)
	for f, s := range ce.stamps {
		if now[f] != s {
			c.retire(path, ce)
			return nil
		}
	}
	ce.refs++
	return ce
}

// put stores a freshly loaded engine (held once, for its first caller).
func (c *engineCache) put(path string, eng *engine.Engine, cfg *assemble.Config, state *sharedState) *cachedEngine {
	files := append([]string{path}, cfg.Files...)
	files = append(files, cfg.Refs()...)
	ce := &cachedEngine{eng: eng, cfg: cfg, state: state, stamps: stampsOf(files), refs: 1}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*cachedEngine{}
	}
	if old := c.m[path]; old != nil {
		c.retire(path, old)
	}
	c.m[path] = ce
	return ce
}

// retire drops ce from the cache; it is closed once no call holds it.
func (c *engineCache) retire(path string, ce *cachedEngine) {
	if c.m[path] == ce {
		delete(c.m, path)
	}
	ce.stale = true
	if ce.refs == 0 {
		go closeEngine(ce)
	}
}

func (c *engineCache) release(ce *cachedEngine) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ce.refs--
	if ce.stale && ce.refs == 0 {
		go closeEngine(ce)
	}
}

// closeAll retires every engine.
func (c *engineCache) closeAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for p, ce := range c.m {
		c.retire(p, ce)
	}
}

func closeEngine(ce *cachedEngine) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ce.eng.Close(ctx)
	ce.cfg.Close()
	ce.state.Close()
}

// hookEngine loads the engine of one hook call: a fresh one, closed by
// release, or in a daemon the cached one for path while its files are
// unchanged. store, which the engine and aopts were given, is configured
// from the loaded configuration (settings.state, else state_file); on
// NATS it takes the audit log too. A cached engine keeps its own store,
// and its NATS connection, for the calls it serves.
func (a *app) hookEngine(path string, engOpts []engine.Option, store *sharedState, aopts []assemble.Option) (*engine.Engine, func(), error) {
	if a.engines != nil {
		if abs, err := filepath.Abs(path); err == nil {
			if ce := a.engines.get(abs); ce != nil {
				return ce.eng, func() { a.engines.release(ce) }, nil
			}
			aopts = append(aopts[:len(aopts):len(aopts)], assemble.WithScriptOptions(script.WithTransformCache(a.engines.transformCache())))
			eng, cfg, err := a.loadPath(path, true, engOpts, aopts...)
			if err != nil {
				return nil, nil, err
			}
			useState(eng, cfg, store)
			ce := a.engines.put(abs, eng, cfg, store)
			return eng, func() { a.engines.release(ce) }, nil
		}
	}
	eng, cfg, err := a.loadPath(path, true, engOpts, aopts...)
	if err != nil {
		return nil, nil, err
	}
	useState(eng, cfg, store)
	return eng, func() {
		closeCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := eng.Close(closeCtx); err != nil {
			fmt.Fprintf(a.stderr, "hookctl: %v\n", err)
		}
		if st := cfg.ScriptStats(); st.Created > 0 {
			a.timings.add("runtime", st.CreateTime)
		}
		cfg.Close()
		store.Close()
	}, nil
}

// useState points store at the state cfg asks for and, on NATS, sends
// the engine's audit records to its audit stream.
func useState(eng *engine.Engine, cfg *assemble.Config, store *sharedState) {
	store.Configure(cfg)
	if store.onNATS() {
		eng.SetAuditLog(store.auditLog(eng.Logger()))
	}
}

func newDaemonCmd(a *app) *cobra.Command {
	var socket, identity string
	var idle time.Duration
	cmd := &cobra.Command{
		Use:   "daemon --socket PATH --identity ID",
		Short: "Serve hookctl-client's hook calls from one process (started by the client)",
		Long: `daemon answers the hook calls of hookctl-client over a unix socket, so that a
host's hook command costs a small process instead of loading the engine every
time. The client starts it on first use, with its own working directory and
environment; it runs each call exactly as "hookctl claude" or "hookctl hook"
would (trust checked on every call), keeps the engine while the configuration's
files are unchanged, refuses other users' clients and clients of another
hookctl binary, and exits after --idle without calls.`,
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if socket == "" || identity == "" {
				return usageError("daemon needs --socket and --identity")
			}
			return runDaemon(cmd.Context(), socket, identity, idle)
		},
	}
	cmd.Flags().StringVar(&socket, "socket", "", "the unix socket to listen on")
	cmd.Flags().StringVar(&identity, "identity", "", "the binary identity clients must present")
	cmd.Flags().DurationVar(&idle, "idle", 10*time.Minute, "exit after this long without a call")
	return cmd
}

// runDaemon listens on socket until ctx ends or no call came for idle.
func runDaemon(ctx context.Context, socket, identity string, idle time.Duration) error {
	ln, err := listenOnce(ctx, socket)
	if err != nil || ln == nil {
		return err
	}
	defer os.Remove(socket)
	self, err := daemonSelf(identity)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	cache := &engineCache{}
	defer cache.closeAll()
	var active atomic.Int64
	var last atomic.Int64
	last.Store(time.Now().UnixNano())
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	go func() {
		tick := time.NewTicker(max(idle/4, 10*time.Millisecond))
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if active.Load() == 0 && time.Since(time.Unix(0, last.Load())) > idle {
					stop()
					return
				}
			}
		}
	}()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			continue
		}
		active.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer active.Add(-1)
			// Only a call keeps the daemon: a connection that sends no
			// request (a client counting live daemons) does not.
			if serveCall(ctx, conn, self, cache) {
				last.Store(time.Now().UnixNano())
			}
		}()
	}
}

// runCall runs one call. A panic ends the call, not the daemon, and the
// call blocks (exit 2) with the reason on stderr.
func runCall(ctx context.Context, req *daemon.Request, cache *engineCache) (resp daemon.Response) {
	defer func() {
		if r := recover(); r != nil {
			resp = daemon.Response{Code: 2, Stderr: fmt.Appendf(nil, "hookctl daemon: the call failed (%v); no hook could decide, so the action is blocked\n", r)}
		}
	}()
	var out, errb bytes.Buffer
	code := runWith(ctx, req.Args, bytes.NewReader(req.Stdin), &out, &errb, cache)
	return daemon.Response{Code: code, Stdout: out.Bytes(), Stderr: errb.Bytes()}
}

// listenOnce listens on socket unless another daemon already does (then
// it returns nil, nil). Starters racing for one socket take a lock around
// the check, the removal of a stale socket and the listen, and only there.
func listenOnce(ctx context.Context, socket string) (net.Listener, error) {
	lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	unlock, err := filelock.Lock(lctx, socket+".lock", true)
	if err != nil {
		return nil, &exitError{code: exitFailure, err: err}
	}
	defer unlock()
	if c, err := net.DialTimeout("unix", socket, 200*time.Millisecond); err == nil {
		c.Close()
		return nil, nil // another daemon serves this socket
	}
	os.Remove(socket)
	ln, err := net.Listen("unix", socket)
	if err != nil {
		return nil, &exitError{code: exitFailure, err: err}
	}
	if err := os.Chmod(socket, 0o600); err != nil {
		ln.Close()
		os.Remove(socket)
		return nil, &exitError{code: exitFailure, err: err}
	}
	return ln, nil
}

// self is what a daemon serves: the clients of one binary identity, in
// one working directory, with one environment (its own).
type self struct {
	identity string
	cwd      string
	env      []string // daemon.EnvKey of the daemon's environment
	attrs    string   // daemon.ProcessAttrs of the daemon
}

// daemonSelf is the daemon's own identity, working directory and
// environment: those of the client that started it.
func daemonSelf(identity string) (self, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return self{}, err
	}
	return self{identity: identity, cwd: cwd, env: daemon.EnvKey(os.Environ()), attrs: daemon.ProcessAttrs()}, nil
}

// refusal says why the daemon will not run req ("" when it will). A call
// whose working directory or environment is not the daemon's own would
// run its hooks with another caller's: the client runs hookctl itself.
func (s self) refusal(req *daemon.Request) string {
	switch {
	case req.Protocol != daemon.Protocol || req.Identity != s.identity:
		return "the client and the daemon are different hookctl builds"
	case len(req.Args) == 0 || (req.Args[0] != "claude" && req.Args[0] != "hook"):
		return "the daemon runs hook calls only (claude, hook)"
	case req.Cwd != s.cwd:
		return "the call comes from another working directory than the daemon's"
	case !slices.Equal(daemon.EnvKey(req.Env), s.env):
		return "the call has another environment than the daemon's"
	case req.Attrs != s.attrs:
		return "the call has another umask or other resource limits than the daemon's"
	}
	return ""
}

// serveCall answers one client connection; it reports whether the client
// sent a request.
func serveCall(ctx context.Context, conn net.Conn, me self, cache *engineCache) bool {
	defer conn.Close()
	if mine, err := peerIsMe(conn); err != nil || !mine {
		return false // another user's process: not a word
	}
	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	req, err := daemon.ReadRequest(conn)
	if err != nil {
		return false
	}
	conn.SetReadDeadline(time.Time{})
	var resp daemon.Response
	if resp.Refused = me.refusal(req); resp.Refused == "" {
		resp = runCall(ctx, req, cache)
	}
	daemon.WriteResponse(conn, &resp)
	return true
}
