package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/claude"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/termsafe"
	"github.com/hookctl/hookctl/natsstate"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/hosts"
	"github.com/hookctl/hookctl/stdlib/proc"
	"github.com/hookctl/hookctl/trust"
)

// onConfigErrorEnv chooses what a host hook answers when the configuration
// cannot be found or loaded: "block" (the default) or "warn".
const onConfigErrorEnv = "HOOKCTL_ON_CONFIG_ERROR"

// onAskEnv chooses what an ask becomes on a host that cannot ask.
const onAskEnv = "HOOKCTL_ON_ASK"

// hookFlags are the flags of hookctl hook and hookctl claude.
type hookFlags struct {
	host, event                     string
	allow                           bool
	onUntrusted, onConfigError, ask string
}

func (f *hookFlags) add(cmd *cobra.Command, hostFlags bool) {
	if hostFlags {
		cmd.Flags().StringVar(&f.host, "host", "", "the agent host: "+strings.Join(hosts.New().Names(), ", ")+" (default: detected from the payload)")
		cmd.Flags().StringVar(&f.event, "event", "", "the host's event name, for hosts whose payload does not name it")
	}
	cmd.Flags().BoolVar(&f.allow, "allow-untrusted", false, "run the configuration even if it is not trusted (see hookctl trust)")
	cmd.Flags().StringVar(&f.onConfigError, "on-config-error", "block", "what a configuration that cannot be found or loaded answers: block (events that can block are blocked, the reason has the diagnostics) or warn (a message only)")
	cmd.Flags().StringVar(&f.onUntrusted, "on-untrusted", "block", "what an untrusted configuration answers: block (events that can block are blocked) or warn (a message only)")
	cmd.Flags().StringVar(&f.ask, "on-ask", "deny", "what an ask becomes on a host that cannot ask (crush, Codex): deny or allow")
}

// mode is a flag's value, else its environment variable's, checked
// against the allowed values.
func mode(cmd *cobra.Command, flag, value, env string, allowed ...string) (string, error) {
	if v := os.Getenv(env); v != "" && !cmd.Flags().Changed(flag) {
		value = v
	}
	for _, a := range allowed {
		if value == a {
			return value, nil
		}
	}
	return "", usageError("--%s %q: want %s", flag, value, strings.Join(allowed, " or "))
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
Without --host the host is detected from the payload, and stderr says which.

A decision the host cannot express is mapped and said on stderr: an ask on
crush or Codex is a deny (--on-ask=allow, or HOOKCTL_ON_ASK=allow, lets it
run). Input that cannot be read exits with the host's blocking status (2; for
Copilot CLI a deny reply). Trust and configuration errors are answered as by
hookctl claude: the events that can block are blocked with the reason.
"hookctl claude" is "hookctl hook --host claude".`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runHook(cmd, f, f.host)
		},
	}
	f.add(cmd, true)
	return cmd
}

// runHook answers one host hook call: decode, check trust, load, fire,
// reply. No path ends in an unseen allow: input that cannot be read, a
// configuration that cannot be found, loaded or trusted all answer with
// the host's block (or, where asked, a warning).
func (a *app) runHook(cmd *cobra.Command, f *hookFlags, hostName string) error {
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
	reg := hosts.New()
	var h protocol.Protocol
	if hostName != "" {
		var ok bool
		if h, ok = reg.Lookup(hostName); !ok {
			return usageError("--host %q: want one of %s", hostName, strings.Join(reg.Names(), ", "))
		}
	}
	configMode, err := mode(cmd, "on-config-error", f.onConfigError, onConfigErrorEnv, "block", "warn")
	if err != nil {
		return err
	}
	untrustedMode, err := mode(cmd, "on-untrusted", f.onUntrusted, onUntrustedEnv, "block", "warn")
	if err != nil {
		return err
	}
	askMode, err := mode(cmd, "on-ask", f.ask, onAskEnv, "deny", "allow")
	if err != nil {
		return err
	}
	cannotRead := func(h protocol.Protocol, err error) error {
		return a.writeReply(h.Block(nil, fmt.Sprintf("hookctl: %v; no hook could run, so the action is blocked", err)))
	}
	// Nothing but the reply may reach stdout: the host parses it whole.
	// Failing that (descriptors exhausted), hooks still run: the files
	// hookctl writes refuse links anyway, and an exit status of 1 would
	// let the action through.
	if release, err := a.reserveStdout(); err != nil {
		fmt.Fprintf(a.stderr, "hookctl: warning: %v\n", err)
	} else {
		defer release()
	}
	a.timings = newTimings(cmd.Context())
	defer a.timings.write(a.stderr)
	a.timings.mark("command")
	raw, err := claude.DecodeObject(a.stdin)
	if err != nil {
		if h == nil {
			h = reg.Default()
		}
		return cannotRead(h, err)
	}
	if h == nil {
		var why string
		h, why = reg.Detect(raw, os.Getenv)
		fmt.Fprintf(a.stderr, "hookctl: host %s (%s)\n", h.Name(), why)
	}
	ev, err := h.Decode(raw, f.event)
	if err != nil {
		return cannotRead(h, err)
	}
	if err := notNested(); err != nil {
		fmt.Fprintf(a.stderr, "hookctl: %v\n", err)
		return a.writeReply(h.Block(ev, "hookctl: "+err.Error()))
	}
	a.timings.mark("decode")
	path, err := a.discover()
	if err != nil {
		fmt.Fprintf(a.stderr, "hookctl: %v\n", err)
		return a.writeReply(guardAnswer(h, ev, configErrorText(err.Error()), configMode == "warn"))
	}
	if !trust.AllowUntrusted(f.allow) {
		if err := trust.Check(path); err != nil {
			fmt.Fprintf(a.stderr, "hookctl: %v; its hooks did not run\n", err)
			fmt.Fprintf(a.stderr, "hookctl: to run it without trust, use %s --allow-untrusted or set %s=1\n", cmd.CommandPath(), trust.AllowUntrustedEnv)
			return a.writeReply(guardAnswer(h, ev, fmt.Sprintf("hookctl: %v; its hooks did not run", err), untrustedMode == "warn"))
		}
	}
	a.timings.mark("trust")
	// The state (settings.state or state_file) is known once the
	// configuration is loaded; it opens on first use.
	store := newSharedState("hookctl "+cmd.Name(), oneShotNATSTimeout, natsstate.DefaultTimeout)
	aopts := []assemble.Option{assemble.WithStore(store)}
	if a.engines == nil {
		// One event fires: no script runtime is made for events that
		// have no script hooks (a daemon fires them all).
		aopts = append(aopts, assemble.WithEvents(ev.Name))
	}
	if !trust.AllowUntrusted(f.allow) {
		// Every file the configuration loads, as it loads it, must be
		// one the trust record pins.
		tf, err := trust.File()
		if err == nil {
			var v *trust.Verifier
			if v, err = trust.NewVerifier(tf, path); err == nil {
				aopts = append(aopts, assemble.WithFileCheck(v.Check))
			}
		}
		if err != nil {
			return a.writeReply(guardAnswer(h, ev, fmt.Sprintf("hookctl: %v; its hooks did not run", err), false))
		}
	}
	// The diagnostics go to stderr as for every command, and into the
	// reply, because hosts show a hook's stderr in their debug logs only.
	engOpts := []engine.Option{store.loops()}
	ctx := cmd.Context()
	if a.engines == nil {
		// A daemon's engines outlive the call: only a process of its own
		// traces its fire.
		var traced []engine.Option
		var flush func()
		ctx, traced, flush = a.oneShotTracing(ctx)
		engOpts = append(engOpts, traced...)
		defer flush() // after the reply is written
	}
	var diag bytes.Buffer
	stderr := a.stderr
	a.stderr = io.MultiWriter(stderr, &diag)
	eng, release, err := a.hookEngine(path, engOpts, store, aopts)
	a.stderr = stderr
	if err != nil {
		var ee *exitError
		if errors.As(err, &ee) && ee.err != nil {
			fmt.Fprintf(a.stderr, "hookctl: %v\n", ee.err)
			diag.WriteString(ee.err.Error())
		}
		return a.writeReply(guardAnswer(h, ev, configErrorText(diag.String()), configMode == "warn"))
	}
	reply, ferr := protocol.Handle(ctx, eng, ev, protocol.Options{Ask: protocol.AskPolicy(askMode)})
	a.timings.mark("fire")
	release()
	a.timings.mark("close")
	if se, ok := stoppedBySignal(ctx); ok {
		return a.writeReply(h.Block(ev, "hookctl: "+se.Error()+"; the action is blocked"))
	}
	if ferr != nil {
		return a.writeReply(h.Block(ev, fmt.Sprintf("hookctl: %v; the hooks did not finish, so the action is blocked", ferr)))
	}
	return a.writeReply(reply)
}

// guardAnswer is the answer for hooks that did not run: the event's block
// in the host's format, or with warnOnly a message only.
func guardAnswer(h protocol.Protocol, ev *protocol.Event, msg string, warnOnly bool) protocol.Reply {
	if warnOnly {
		return h.Warn(ev, msg)
	}
	return h.Block(ev, msg)
}

// configErrorText is the message for a configuration that could not be
// found or loaded: the diagnostics, at most 20 lines of them.
func configErrorText(diag string) string {
	lines := strings.Split(strings.TrimSpace(diag), "\n")
	if len(lines) > 20 {
		lines = append(lines[:20], "...")
	}
	return "hookctl: the hook configuration could not be loaded; its hooks did not run:\n" + strings.Join(lines, "\n")
}

// notNested refuses a hook call made from within one of hookctl's own
// hooks (proc.DepthEnv is set for every program a hook runs): hookctl
// registered as its own hook would call itself without end, each call
// waiting for the next until the host's timeout, which fails open.
func notNested() error {
	if d := proc.Depth(os.Getenv); d > 0 {
		return fmt.Errorf("this call comes from one of hookctl's own hooks (%s=%d): a hook that runs hookctl claude, hook or fire would make hookctl call itself without end, so no hook ran and the action is blocked; remove that hook (see hookctl list)", proc.DepthEnv, d)
	}
	return nil
}
