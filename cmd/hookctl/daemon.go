package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/internal/daemon"
	"github.com/hookctl/hookctl/internal/filelock"
	"github.com/hookctl/hookctl/runtime"
)

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
	cache := runtime.NewCache()
	defer cache.Close()
	rt := newHookRuntime(cache, nil)
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
			if serveCall(ctx, conn, self, rt) {
				last.Store(time.Now().UnixNano())
			}
		}()
	}
}

// runCall runs one call, as hookctl claude or hookctl hook with the
// call's flags, working directory and environment would, through rt. A
// panic ends the call, not the daemon, and the call blocks (exit 2) with
// the reason on stderr.
func runCall(ctx context.Context, req *daemon.Request, rt *runtime.Runtime) (resp daemon.Response) {
	hostName := req.Host
	if req.Command == "claude" {
		hostName = "claude"
	}
	defer func() {
		if r := recover(); r != nil {
			// The host's block: for Copilot CLI, where no exit status
			// blocks, a deny reply.
			p, ok := runtime.Lookup(hostName)
			if !ok {
				p = runtime.Hosts().Default()
			}
			b := p.Block(nil, fmt.Sprintf("hookctl daemon: the call failed (%v); no hook could decide, so the action is blocked", r))
			resp = daemon.Response{Code: b.ExitCode, Stdout: b.Stdout, Stderr: []byte(b.Stderr + "\n")}
		}
	}()
	var out, errb bytes.Buffer
	a := &app{stdin: bytes.NewReader(req.Stdin), stdout: &out, stderr: &errb, configPath: req.Config, logLevel: cmp.Or(req.LogLevel, "warn")}
	f := &hookFlags{event: req.Event, allow: req.AllowUntrusted, onUntrusted: cmp.Or(req.OnUntrusted, "block"),
		onConfigError: cmp.Or(req.OnConfigError, "block"), ask: cmp.Or(req.OnAsk, "deny")}
	given := map[string]bool{"on-untrusted": req.OnUntrusted != "", "on-config-error": req.OnConfigError != "", "on-ask": req.OnAsk != ""}
	err := a.answerHook(ctx, rt, f, hostName, hookCall{
		command: "hookctl " + req.Command, changed: func(flag string) bool { return given[flag] },
		getenv: runtime.Getenv(req.Env), cwd: req.Cwd, env: req.Env,
	})
	code := exitStatus(err, &errb)
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
	case req.Command != "claude" && req.Command != "hook":
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
func serveCall(ctx context.Context, conn net.Conn, me self, rt *runtime.Runtime) bool {
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
		callCtx, done := watchClient(ctx, conn)
		resp = runCall(callCtx, req, rt)
		done()
	}
	daemon.WriteResponse(conn, &resp)
	return true
}

// clientGone is why a call's context ended when its client gave up.
type clientGone struct{}

func (clientGone) String() string { return "its client hung up: the host gave up on the hook" }

// watchClient returns ctx ended, with a *runtime.StopError cause, when the
// client closes or half-closes the connection while its call runs (the
// host stopped hookctl-client, which shuts down its writing side): the
// call's hooks are killed as under a stop signal, and the reply is the
// host's block, which the client still reads. done ends the watch; call
// it before writing the response.
func watchClient(ctx context.Context, conn net.Conn) (_ context.Context, done func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	finished := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		var b [1]byte
		// The client sends nothing after its request: any return is
		// the client going away (or the watch ending).
		_, _ = conn.Read(b[:])
		select {
		case <-finished:
		default:
			cancel(&runtime.StopError{Signal: clientGone{}})
		}
	}()
	return ctx, func() {
		close(finished)
		conn.SetReadDeadline(time.Now())
		<-watched
		conn.SetReadDeadline(time.Time{})
		cancel(nil)
	}
}
