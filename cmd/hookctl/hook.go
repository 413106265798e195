package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/hosttime"
	"github.com/hookctl/hookctl/internal/termsafe"
	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/state/natsstate"
)

// onConfigErrorEnv chooses what a host hook answers when the configuration
// cannot be found or loaded: "block" (the default) or "warn".
const onConfigErrorEnv = "HOOKCTL_ON_CONFIG_ERROR"

// onAskEnv chooses what an ask becomes on a host that cannot ask.
const onAskEnv = "HOOKCTL_ON_ASK"

// hostTimeoutEnv is how long the host waits for a hook's reply, when
// --host-timeout is not given.
const hostTimeoutEnv = hosttime.Env

// hookFlags are the flags of hookctl hook and hookctl claude.
type hookFlags struct {
	host, event                     string
	allow                           bool
	onUntrusted, onConfigError, ask string
	verbose                         bool
	hostTimeout                     string
}

func (f *hookFlags) add(cmd *cobra.Command, hostFlags bool, reg runtime.Registry) {
	if hostFlags {
		names := reg.Names()
		cmd.Flags().StringVar(&f.host, "host", "", "the agent host: "+strings.Join(names, ", ")+" (default: detected from the payload)")
		_ = cmd.RegisterFlagCompletionFunc("host", fixed(names...))
		cmd.Flags().StringVar(&f.event, "event", "", "the host's event name, for hosts whose payload does not name it")
	}
	cmd.Flags().BoolVar(&f.allow, "allow-untrusted", false, "run the configuration even if it is not trusted (see hookctl trust)")
	cmd.Flags().StringVar(&f.onConfigError, "on-config-error", "block", "what a configuration that cannot be found or loaded answers: block (events that can block are blocked, the reason has the diagnostics) or warn (a message only)")
	cmd.Flags().StringVar(&f.onUntrusted, "on-untrusted", "block", "what an untrusted configuration answers: block (events that can block are blocked) or warn (a message only)")
	cmd.Flags().StringVar(&f.ask, "on-ask", "deny", "what an ask becomes on a host that cannot ask (crush, Codex): deny or allow")
	cmd.Flags().BoolVar(&f.verbose, "verbose", false, "say on stderr which host was detected and the notes of events that need no words (Gemini CLI shows a hook's stderr to its user on every event)")
	cmd.Flags().StringVar(&f.hostTimeout, "host-timeout", "", "how long the host waits for the reply (its hook entry's timeout; default: the host's default for the event, e.g. 60s for Gemini CLI); hookctl answers with the host's block a tenth of it (at most 5s) sooner if hooks are still running")
}

// parseHostTimeout reads --host-timeout (or $HOOKCTL_HOST_TIMEOUT): a
// positive duration; "" is the host's default (0).
func parseHostTimeout(changed func(string) bool, getenv func(string) string, value string) (time.Duration, error) {
	if v := getenv(hostTimeoutEnv); v != "" && !changed("host-timeout") {
		value = v
	}
	if value == "" && !changed("host-timeout") {
		return 0, nil
	}
	d, err := hosttime.Parse(value)
	if err != nil {
		return 0, usageError("--host-timeout %q: %v", value, err)
	}
	return d, nil
}

// mode is a flag's value, else (when the flag was not given) its
// environment variable's, checked against the allowed values.
func mode(changed func(string) bool, getenv func(string) string, flag, value, env string, allowed ...string) (string, error) {
	from := "--" + flag
	if v := getenv(env); v != "" && !changed(flag) {
		value, from = v, env
	}
	for _, a := range allowed {
		if value == a {
			return value, nil
		}
	}
	return "", usageError("%s %q: want %s", from, value, strings.Join(allowed, " or "))
}

// request is the runtime request of the flags: the host (hostName, ""
// to detect it) and the modes, from the flags given (changed) else the
// environment (getenv). A host or mode that is not one is a usage error.
func (f *hookFlags) request(reg runtime.Registry, hostName string, changed func(string) bool, getenv func(string) string) (runtime.Request, error) {
	req := runtime.Request{Event: f.event}
	if hostName != "" {
		p, ok := reg.Lookup(hostName)
		if !ok {
			return req, usageError("--host %q: want one of %s", hostName, strings.Join(reg.Names(), ", "))
		}
		req.Protocol = p
	}
	configMode, err := mode(changed, getenv, "on-config-error", f.onConfigError, onConfigErrorEnv, "block", "warn")
	if err != nil {
		return req, err
	}
	untrustedMode, err := mode(changed, getenv, "on-untrusted", f.onUntrusted, onUntrustedEnv, "block", "warn")
	if err != nil {
		return req, err
	}
	askMode, err := mode(changed, getenv, "on-ask", f.ask, onAskEnv, "deny", "allow")
	if err != nil {
		return req, err
	}
	req.Modes = runtime.Modes{AllowUntrusted: f.allow, OnConfigError: runtime.Mode(configMode),
		OnUntrusted: runtime.Mode(untrustedMode), OnAsk: runtime.AskPolicy(askMode), Verbose: f.verbose}
	if req.HostTimeout, err = parseHostTimeout(changed, getenv, f.hostTimeout); err != nil {
		return req, err
	}
	return req, nil
}

func newHookCmd(a *app) *cobra.Command {
	f := &hookFlags{}
	cmd := &cobra.Command{
		Use:   "hook [--host NAME] [--config PATH]",
		Short: "Run as an agent host's command hook: the host's JSON on stdin, the host's reply out",
		Long: `hook is the command hook of every host hookctl serves: claude (Claude Code),
codex, gemini (Gemini CLI), cursor, copilot (Copilot CLI) and crush. It reads
the host's hook JSON on stdin, fires it as the catalog event it is (Gemini's
BeforeTool and Cursor's beforeShellExecution are PreToolUse; crush's bash is
the tool Bash) and answers in the host's own reply format and exit protocol.
Without --host the host is detected from the payload (--verbose: stderr says
which; without it stderr stays empty for events that need no words, since
Gemini CLI shows a hook's stderr to its user on every event).

A decision the host cannot express is mapped and said on stderr: an ask on
crush or Codex is a deny (--on-ask=allow, or HOOKCTL_ON_ASK=allow, lets it
run). Input that cannot be read exits with the host's blocking status (2; for
Copilot CLI a deny reply). Trust and configuration errors are answered as by
hookctl claude: the events that can block are blocked with the reason, and so
are a flag, an argument, a --host or a mode (flag or HOOKCTL_ON_* variable)
that is not one.
"hookctl claude" is "hookctl hook --host claude".`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return a.refuseHook(cmd, f, f.host, usageError("unexpected argument %q", args[0]))
			}
			return a.runHook(cmd, f, f.host)
		},
	}
	f.add(cmd, true, a.registry())
	cmd.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		// The flags parsed before the bad one (--host among them) stand.
		return a.refuseHook(cmd, f, f.host, err)
	})
	return cmd
}

// runHook answers one host hook call of this process.
func (a *app) runHook(cmd *cobra.Command, f *hookFlags, hostName string) error {
	start := time.Now()
	cwd, _ := os.Getwd()
	return a.answerHook(cmd.Context(), newHookRuntime(a.registry(), runtime.OneShot(), a.oneShotTracing), f, hostName, hookCall{
		command: cmd.CommandPath(), changed: cmd.Flags().Changed, getenv: os.Getenv, cwd: cwd, env: os.Environ(), start: start,
	})
}

// hookCall is where a hook call comes from: the command that names it in
// messages, which flags were given, and the caller's working directory
// and environment (this process's, or a daemon client's).
type hookCall struct {
	command string
	changed func(string) bool
	getenv  func(string) string
	cwd     string
	env     []string
	// start is when the call came in (the host's timeout counts from
	// it).
	start time.Time
	// payload, when not nil, is the hook input already read (the
	// daemon's request): it is checked and decoded where it is, not read
	// again from stdin.
	payload []byte
}

// newHookRuntime is the runtime of hook calls served from source, for
// the hosts of reg: each
// call's state a sharedState, one-shot calls traced by trace (nil: not
// traced).
func newHookRuntime(reg runtime.Registry, source runtime.Source, trace func(context.Context) (context.Context, []engine.Option, func())) *runtime.Runtime {
	// The reply is all that is written (writeReply): no Outcome is kept.
	opts := []runtime.Option{runtime.WithSource(source), runtime.WithProtocols(reg), runtime.WithReplyOnly(),
		runtime.WithState(func(name string) runtime.State {
			return newSharedState(name, oneShotNATSTimeout, natsstate.DefaultTimeout)
		})}
	if trace != nil {
		opts = append(opts, runtime.WithTracer(func(ctx context.Context, _ io.Writer) (context.Context, []engine.Option, func()) {
			return trace(ctx)
		}))
	}
	return runtime.New(opts...)
}

// answerHook answers one host hook call through rt: the flags as a
// request, the reply written. No path ends in an unseen allow (see
// runtime.Runtime.Answer).
func (a *app) answerHook(ctx context.Context, rt *runtime.Runtime, f *hookFlags, hostName string, call hookCall) error {
	req, err := f.request(rt.Protocols(), hostName, call.changed, call.getenv)
	if err != nil {
		// A flag or mode that is not one must not end in exit 1, which
		// hosts read as a go-ahead: no hook runs, and the call gets the
		// host's block with the reason (the host detected when --host is
		// not one).
		req = runtime.Request{Event: f.event, Invalid: err}
		if p, ok := rt.Protocols().Lookup(hostName); ok {
			req.Protocol = p
		}
	}
	return a.answerRequest(ctx, rt, req, call)
}

// refuseHook answers a hook call whose arguments could not be parsed
// (err, a flag cobra refused or an argument) with the host's block, as
// answerHook does for a mode that is not one.
func (a *app) refuseHook(cmd *cobra.Command, f *hookFlags, hostName string, err error) error {
	cwd, _ := os.Getwd()
	rt := newHookRuntime(a.registry(), runtime.OneShot(), nil)
	req := runtime.Request{Event: f.event, Invalid: err}
	if p, ok := rt.Protocols().Lookup(hostName); ok {
		req.Protocol = p
	}
	return a.answerRequest(cmd.Context(), rt, req, hookCall{command: cmd.CommandPath(), cwd: cwd, env: os.Environ()})
}

// answerRequest answers req through rt and writes the reply.
func (a *app) answerRequest(ctx context.Context, rt *runtime.Runtime, req runtime.Request, call hookCall) error {
	// What reaches stderr here is read by a person (in a terminal, or in
	// the host's transcript view): a path, a diagnostic or a hook's text
	// holding ESC, BEL, CR or a bidi control is escaped (newlines and
	// tabs stay).
	tw := termsafe.NewWriter(a.stderr)
	defer func(w io.Writer) {
		_ = tw.Flush()
		a.stderr = w
	}(a.stderr)
	a.stderr = tw
	// Nothing but the reply may reach stdout: the host parses it whole.
	// Failing that (descriptors exhausted), hooks still run: the files
	// hookctl writes refuse links anyway, and an exit status of 1 would
	// let the action through.
	if release, err := a.reserveStdout(); err != nil {
		fmt.Fprintf(a.stderr, "hookctl: warning: %v\n", err)
	} else {
		defer release()
	}
	a.timings = newTimings(ctx)
	defer a.timings.write(a.stderr)
	a.timings.Mark("command")
	req.Stdin, req.Payload, req.Config, req.Cwd, req.Env = a.stdin, call.payload, a.configPath, call.cwd, call.env
	req.Command, req.Stderr, req.LogLevel, req.Start = call.command, a.stderr, a.logLevel, call.start
	if a.timings != nil {
		req.Timer = a.timings
	}
	return a.writeReply(rt.Answer(ctx, req))
}
