package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/claude"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/stdlib/kv"
	"github.com/hookctl/hookctl/trust"
)

// exitUntrusted is the exit status of hookctl claude refusing an
// untrusted configuration: Claude Code's non-blocking error (the action
// proceeds; the transcript shows the first line of stderr), never a
// decision.
const exitUntrusted = exitFailure

func newClaudeCmd(a *app) *cobra.Command {
	var allow bool
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
Otherwise it runs no hook, writes nothing on stdout and exits 1, a non-blocking
error for Claude Code (the action proceeds; the transcript shows the first line
of stderr, which says why). --allow-untrusted or HOOKCTL_ALLOW_UNTRUSTED=1 runs
it anyway.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			payload, event, err := claude.DecodeInput(a.stdin)
			if err != nil {
				// A non-blocking error for Claude Code: the action proceeds.
				return &exitError{code: exitFailure, err: err}
			}
			path, err := a.discover(true)
			if err != nil {
				return err
			}
			if !trust.AllowUntrusted(allow) {
				if err := trust.Check(path); err != nil {
					// The first line is what Claude Code shows.
					fmt.Fprintf(a.stderr, "hookctl: %v; its hooks did not run\n", err)
					fmt.Fprintf(a.stderr, "hookctl: to run it without trust, use hookctl claude --allow-untrusted or set %s=1\n", trust.AllowUntrustedEnv)
					return silent(exitUntrusted)
				}
			}
			store := &lazyFileStore{}
			eng, cfg, err := a.loadPath(path, true, []engine.Option{engine.WithLoopStore(kv.LoopStore(store))}, assemble.WithStore(store))
			if err != nil {
				return err
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
		},
	}
	cmd.Flags().BoolVar(&allow, "allow-untrusted", false, "run the configuration even if it is not trusted (see hookctl trust)")
	return cmd
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
