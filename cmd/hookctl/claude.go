package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/claude"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/stdlib/kv"
)

// onUntrustedEnv chooses what hookctl claude answers when the
// configuration is not trusted: "block" (the default) or "warn".
const onUntrustedEnv = "HOOKCTL_ON_UNTRUSTED"

func newClaudeCmd(a *app) *cobra.Command {
	f := &hookFlags{}
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
			return a.runHook(cmd, f, "claude")
		},
	}
	f.add(cmd, false)
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
