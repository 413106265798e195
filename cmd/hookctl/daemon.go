package main

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/internal/daemon"
	"github.com/hookctl/hookctl/internal/daemon/daemonserver"
	"github.com/hookctl/hookctl/protocol/hosts"
	"github.com/hookctl/hookctl/runtime"
)

func newDaemonCmd(a *app) *cobra.Command {
	var socket, identity string
	var idle time.Duration
	cmd := &cobra.Command{
		Use:   "daemon --socket PATH --identity ID",
		Short: "Serve hookctl-client's hook calls from one process (started by the client)",
		Long: `daemon answers the hook calls of hookctl-client over a unix socket (a named
pipe on Windows), so that a host's hook command costs a small process instead
of loading the engine every time. The client starts it on first use, with its own working directory and
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
	cmd.Flags().StringVar(&socket, "socket", "", "the unix socket (Windows: the named pipe) to listen on")
	cmd.Flags().StringVar(&identity, "identity", "", "the binary identity clients must present")
	cmd.Flags().DurationVar(&idle, "idle", 10*time.Minute, "exit after this long without a call")
	return cmd
}

// runDaemon listens on socket and answers its calls through the runtime
// (daemonserver) until ctx ends or no call came for idle.
func runDaemon(ctx context.Context, socket, identity string, idle time.Duration) error {
	ln, err := daemonserver.Listen(ctx, socket)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	if ln == nil {
		return nil // another daemon serves this socket
	}
	if !daemon.IsPipe(socket) {
		// A pipe is no file: removing it would open it (a connection
		// to whichever daemon holds the name now).
		defer os.Remove(socket)
	}
	cache := runtime.NewCache()
	defer cache.Close()
	rt := newHookRuntime(hosts.New(), cache, nil)
	h := daemonserver.HandlerFunc(func(ctx context.Context, req *daemon.Request) daemon.Response { return runCall(ctx, req, rt) })
	if err := daemonserver.Serve(ctx, ln, h, daemonserver.WithIdentity(identity), daemonserver.WithIdle(idle),
		daemonserver.WithHangup(&runtime.StopError{Signal: clientGone{}})); err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	return nil
}

// runCall runs one call, as hookctl claude or hookctl hook with the
// call's flags, working directory and environment would, through rt. A
// panic ends the call, not the daemon, and the call blocks with the host's
// block (for Copilot CLI, where no exit status blocks, a deny reply).
func runCall(ctx context.Context, req *daemon.Request, rt *runtime.Runtime) (resp daemon.Response) {
	start := time.Now()
	hostName := req.Host
	if req.Command == "claude" {
		hostName = "claude"
	}
	defer func() {
		if r := recover(); r != nil {
			// The registry is made afresh: the runtime may be what failed.
			reg := runtime.Hosts()
			p, ok := reg.Lookup(hostName)
			if !ok {
				p = reg.Default()
			}
			b := p.Block(nil, fmt.Sprintf("hookctl daemon: the call failed (%v); no hook could decide, so the action is blocked", r))
			resp = daemon.Response{Code: b.ExitCode, Stdout: b.Stdout, Stderr: []byte(b.Stderr + "\n")}
		}
	}()
	var out, errb bytes.Buffer
	a := &app{stdin: bytes.NewReader(req.Stdin), stdout: &out, stderr: &errb, configPath: req.Config, logLevel: cmp.Or(req.LogLevel, "warn")}
	f := &hookFlags{event: req.Event, allow: req.AllowUntrusted, onUntrusted: cmp.Or(req.OnUntrusted, "block"),
		onConfigError: cmp.Or(req.OnConfigError, "block"), ask: cmp.Or(req.OnAsk, "deny"), verbose: req.Verbose, hostTimeout: req.HostTimeout}
	given := map[string]bool{"on-untrusted": req.OnUntrusted != "", "on-config-error": req.OnConfigError != "", "on-ask": req.OnAsk != "",
		"host-timeout": req.HostTimeout != ""}
	err := a.answerHook(ctx, rt, f, hostName, hookCall{
		command: "hookctl " + req.Command, changed: func(flag string) bool { return given[flag] },
		getenv: runtime.Getenv(req.Env), cwd: req.Cwd, env: req.Env, start: start,
		payload: nonNil(req.Stdin),
	})
	code := exitStatus(err, &errb)
	return daemon.Response{Code: code, Stdout: out.Bytes(), Stderr: errb.Bytes()}
}

// clientGone is why a call's context ended when its client gave up.
type clientGone struct{}

func (clientGone) String() string { return "its client hung up: the host gave up on the hook" }

// nonNil is b, or an empty input when b is nil (a call with no input):
// the payload is the request's, never the daemon's own stdin.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
