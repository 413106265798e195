package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/claude"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/stdlib/kv"
	"github.com/hookctl/hookctl/trust"
)

// onUntrustedEnv chooses what hookctl claude answers when the
// configuration is not trusted: "block" (the default) or "warn".
const onUntrustedEnv = "HOOKCTL_ON_UNTRUSTED"

// untrustedReply is hookctl claude's answer when the configuration is not
// trusted (or changed since): no hook runs. A guard that cannot run must
// not let the action through silently, so on an event that can block
// (PreToolUse, PermissionRequest, UserPromptSubmit, Stop, ...) the answer
// is that event's block, with a reason telling the user to run hookctl
// trust; on other events, and with on-untrusted "warn", a systemMessage
// says the same. A Stop that Claude Code already continued because of a
// hook (stop_hook_active) is not blocked again.
func untrustedReply(event string, payload map[string]any, why error, warnOnly bool) claude.Reply {
	return guardReply(event, payload, fmt.Sprintf("hookctl: %v; its hooks did not run", why), warnOnly)
}

// onConfigErrorEnv chooses what hookctl claude answers when the
// configuration cannot be found or loaded: "block" (the default) or "warn".
const onConfigErrorEnv = "HOOKCTL_ON_CONFIG_ERROR"

// configErrorReply is hookctl claude's answer when the configuration
// cannot be found or does not load: as for an untrusted one, no hook ran,
// so the events that can block are blocked (or, with warnOnly, a
// systemMessage says so), and the reason carries the diagnostics.
func configErrorReply(event string, payload map[string]any, diag string, warnOnly bool) claude.Reply {
	lines := strings.Split(strings.TrimSpace(diag), "\n")
	if len(lines) > 20 {
		lines = append(lines[:20], "...")
	}
	return guardReply(event, payload, "hookctl: the hook configuration could not be loaded; its hooks did not run:\n"+strings.Join(lines, "\n"), warnOnly)
}

// guardReply answers for hooks that did not run: the event's block where
// the event can block (unless warnOnly), else a systemMessage.
func guardReply(event string, payload map[string]any, msg string, warnOnly bool) claude.Reply {
	out := engine.Outcome{Event: event, Continue: true}
	spec, ok := catalogEvent(event)
	if ok {
		out.Event = spec.Name
	}
	block := ""
	if ok && !warnOnly {
		for _, d := range spec.Decisions {
			if engine.Decision(d).Blocks() {
				block = d
				break
			}
		}
		if active, _ := payload["stop_hook_active"].(bool); active && spec.StopGuard {
			block = ""
		}
	}
	if block != "" {
		out.Decision, out.Reason, out.Blocked = engine.Decision(block), msg, true
		out.Output = map[string]any{"decision": block, "reason": msg}
	} else {
		out.SystemMessage = msg
	}
	return claude.Format(out)
}

// catalogEvent finds an event of the built-in catalog by name or alias.
func catalogEvent(name string) (engine.EventSpec, bool) {
	for _, s := range engine.BuiltinEvents() {
		if s.Name == name || slices.Contains(s.Aliases, name) {
			return s, true
		}
	}
	return engine.EventSpec{}, false
}

func newClaudeCmd(a *app) *cobra.Command {
	var allow bool
	var onUntrusted, onConfigError string
	cmd := &cobra.Command{
		Use:   "claude [--config PATH]",
		Short: "Run as a Claude Code command hook (hook JSON on stdin, Claude-format JSON on stdout)",
		Long: `claude is a drop-in Claude Code command hook. Point Claude Code's hooks at it
("command": "hookctl claude"); it reads the hook JSON on stdin, fires its
hook_event_name through the configured hooks and writes the answer in the shape
Claude Code expects for that event, with exit status 0 (2 only where Claude
Code reads nothing but the exit status: TaskCompleted, TeammateIdle).

The Stop loop guard and hookctl/kv keep their state in a file
(settings.state_file, else $HOOKCTL_STATE_DIR/kv.json, else
~/.local/state/hookctl/kv.json), so they work across invocations.

It runs only a configuration trusted with "hookctl trust" and unchanged since.
Otherwise it runs no hook and, because a guard that cannot run must not let the
action through unseen, blocks the events that can block (PreToolUse,
PermissionRequest, UserPromptSubmit, Stop, ...) with a reason that says to run
hookctl trust, and on other events shows that in a systemMessage.
--on-untrusted=warn (or HOOKCTL_ON_UNTRUSTED=warn) only warns;
--allow-untrusted or HOOKCTL_ALLOW_UNTRUSTED=1 runs the configuration anyway.

A configuration that cannot be found or does not load is answered the same
way, with its diagnostics as the reason; --on-config-error=warn (or
HOOKCTL_ON_CONFIG_ERROR=warn) only warns.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			payload, event, err := claude.DecodeInput(a.stdin)
			if err != nil {
				// Input that cannot be read cannot be guarded. Exit status 2
				// is the block of whatever event it was, with the reason on
				// stderr, where Claude Code (and crush, and Codex) read it.
				fmt.Fprintf(a.stderr, "hookctl: %v; no hook could run, so the action is blocked\n", err)
				return silent(2)
			}
			configMode := onConfigError
			if v := os.Getenv(onConfigErrorEnv); v != "" && !cmd.Flags().Changed("on-config-error") {
				configMode = v
			}
			if configMode != "block" && configMode != "warn" {
				return usageError("--on-config-error %q: want block or warn", configMode)
			}
			path, err := a.discover()
			if err != nil {
				fmt.Fprintf(a.stderr, "hookctl: %v\n", err)
				return a.writeReply(configErrorReply(event, payload, err.Error(), configMode == "warn"))
			}
			if !trust.AllowUntrusted(allow) {
				if err := trust.Check(path); err != nil {
					mode := onUntrusted
					if v := os.Getenv(onUntrustedEnv); v != "" && !cmd.Flags().Changed("on-untrusted") {
						mode = v
					}
					if mode != "block" && mode != "warn" {
						return usageError("--on-untrusted %q: want block or warn", mode)
					}
					fmt.Fprintf(a.stderr, "hookctl: %v; its hooks did not run\n", err)
					fmt.Fprintf(a.stderr, "hookctl: to run it without trust, use hookctl claude --allow-untrusted or set %s=1\n", trust.AllowUntrustedEnv)
					return a.writeReply(untrustedReply(event, payload, err, mode == "warn"))
				}
			}
			store := &lazyFileStore{}
			aopts := []assemble.Option{assemble.WithStore(store)}
			if !trust.AllowUntrusted(allow) {
				// Every file the configuration loads, as it loads it,
				// must be one the trust record pins.
				tf, err := trust.File()
				if err != nil {
					return a.writeReply(untrustedReply(event, payload, err, false))
				}
				v, err := trust.NewVerifier(tf, path)
				if err != nil {
					return a.writeReply(untrustedReply(event, payload, err, false))
				}
				aopts = append(aopts, assemble.WithFileCheck(v.Check))
			}
			// The diagnostics go to stderr as for every command, and into
			// the reply, because Claude Code shows a hook's stderr only in
			// its debug log.
			var diag bytes.Buffer
			stderr := a.stderr
			a.stderr = io.MultiWriter(stderr, &diag)
			eng, cfg, err := a.loadPath(path, true, []engine.Option{engine.WithLoopStore(kv.LoopStore(store))}, aopts...)
			a.stderr = stderr
			if err != nil {
				var ee *exitError
				if errors.As(err, &ee) && ee.err != nil {
					fmt.Fprintf(a.stderr, "hookctl: %v\n", ee.err)
					diag.WriteString(ee.err.Error())
				}
				return a.writeReply(configErrorReply(event, payload, diag.String(), configMode == "warn"))
			}
			defer cfg.Close()
			store.path = cfg.Settings.StateFile
			reply, ferr := claude.Handle(cmd.Context(), eng, payload, event)
			closeCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if err := eng.Close(closeCtx); err != nil {
				fmt.Fprintf(a.stderr, "hookctl: %v\n", err)
			}
			if ferr != nil {
				return &exitError{code: exitFailure, err: ferr}
			}
			return a.writeReply(reply)
		},
	}
	cmd.Flags().BoolVar(&allow, "allow-untrusted", false, "run the configuration even if it is not trusted (see hookctl trust)")
	cmd.Flags().StringVar(&onConfigError, "on-config-error", "block", "what a configuration that cannot be found or loaded answers: block (events that can block are blocked, the reason has the diagnostics) or warn (a systemMessage only)")
	cmd.Flags().StringVar(&onUntrusted, "on-untrusted", "block", "what an untrusted configuration answers: block (events that can block are blocked) or warn (a systemMessage only)")
	return cmd
}

// writeReply writes a Claude Code reply: stdout, stderr, exit status.
func (a *app) writeReply(reply claude.Reply) error {
	if len(reply.Stdout) > 0 {
		if _, err := a.stdout.Write(reply.Stdout); err != nil {
			return &exitError{code: exitFailure, err: err}
		}
	}
	if reply.Stderr != "" {
		fmt.Fprintln(a.stderr, reply.Stderr)
	}
	if reply.ExitCode != 0 {
		return silent(reply.ExitCode)
	}
	return nil
}

// lazyFileStore is the file-backed kv store of one-shot processes, opened
// on first use (most events never touch it) at the configured path.
type lazyFileStore struct {
	path string
	once sync.Once
	s    kv.Store
	err  error
}

func (l *lazyFileStore) store() (kv.Store, error) {
	l.once.Do(func() {
		p := l.path
		if p == "" {
			p, l.err = kv.DefaultPath()
			if l.err != nil {
				return
			}
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			l.err = err
			return
		}
		l.s, l.err = kv.OpenFile(p)
	})
	if l.err != nil {
		return nil, fmt.Errorf("state store: %w", l.err)
	}
	return l.s, nil
}

func (l *lazyFileStore) Get(ctx context.Context, key string) (any, bool, error) {
	s, err := l.store()
	if err != nil {
		return nil, false, err
	}
	return s.Get(ctx, key)
}

func (l *lazyFileStore) Set(ctx context.Context, key string, v any, ttl time.Duration) error {
	s, err := l.store()
	if err != nil {
		return err
	}
	return s.Set(ctx, key, v, ttl)
}

func (l *lazyFileStore) Delete(ctx context.Context, key string) error {
	s, err := l.store()
	if err != nil {
		return err
	}
	return s.Delete(ctx, key)
}

func (l *lazyFileStore) Incr(ctx context.Context, key string, d int64, ttl time.Duration) (int64, error) {
	s, err := l.store()
	if err != nil {
		return 0, err
	}
	return s.Incr(ctx, key, d, ttl)
}

func (l *lazyFileStore) CompareAndSwap(ctx context.Context, key string, old, new any, ttl time.Duration) (bool, error) {
	s, err := l.store()
	if err != nil {
		return false, err
	}
	return s.CompareAndSwap(ctx, key, old, new, ttl)
}

func (l *lazyFileStore) Keys(ctx context.Context, prefix string) ([]string, error) {
	s, err := l.store()
	if err != nil {
		return nil, err
	}
	return s.Keys(ctx, prefix)
}

var _ kv.Store = (*lazyFileStore)(nil)

// engineLoopStore keeps the Stop loop guard in a kv store.
func engineLoopStore(s kv.Store) engine.Option { return engine.WithLoopStore(kv.LoopStore(s)) }
