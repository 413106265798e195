package guard_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/guard"
)

const policy = `
hook "no-rm" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "tool_input.command contains \"rm -rf\""
  decision = "deny"
  reason   = "rm -rf is not allowed"
}
hook "pip-to-uv" {
  event   = "PreToolUse"
  matcher = "Bash"
  when    = "tool_input.command startsWith \"pip install\""
  js      = "return { updated_input: { command: 'uv ' + event.tool_input.command } }"
}
hook "ask-push" {
  event    = "PreToolUse"
  when     = "tool == \"Bash\" && tool_input.command contains \"git push\""
  decision = "ask"
  reason   = "pushing needs a human"
}
hook "defer-deploy" {
  event    = "PreToolUse"
  when     = "tool == \"Bash\" && tool_input.command contains \"deploy\""
  decision = "defer"
  reason   = "deploys are decided later"
}
hook "lint-after-write" {
  event              = "PostToolUse"
  matcher            = "Write"
  additional_context = "run the linter"
}
`

func newGuard(t *testing.T, opts ...guard.Option) *guard.Guard {
	t.Helper()
	cfg, err := assemble.LoadSource("hooks.hcl", []byte(policy), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cfg.Close() })
	eng, err := assemble.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close(context.Background()) })
	if err := eng.Load(cfg.Engine); err != nil {
		t.Fatal(err)
	}
	return guard.New(eng, opts...)
}

func TestBefore(t *testing.T) {
	g := newGuard(t)
	ctx := context.Background()
	var d *guard.Denied
	if _, err := g.Before(ctx, "bash", map[string]any{"command": "rm -rf /"}); !errors.As(err, &d) || d.Reason != "rm -rf is not allowed" {
		t.Fatalf("rm -rf: %v", err)
	}
	args, err := g.Before(ctx, "shell", map[string]any{"command": "pip install x"})
	if err != nil || args["command"] != "uv pip install x" {
		t.Fatalf("pip: %v %v", args, err)
	}
	args, err = g.Before(ctx, "bash", map[string]any{"command": "ls"})
	if err != nil || args["command"] != "ls" {
		t.Fatalf("ls: %v %v", args, err)
	}
	// Nobody to ask: an ask is a deny.
	if _, err := g.Before(ctx, "bash", map[string]any{"command": "git push"}); !errors.As(err, &d) || d.Decision != engine.DecisionAsk {
		t.Fatalf("push: %v", err)
	}
	// A defer cannot be put off by a guard: with nobody to ask, the
	// call does not run.
	if _, err := g.Before(ctx, "bash", map[string]any{"command": "deploy prod"}); !errors.As(err, &d) || d.Decision != engine.DecisionDefer {
		t.Fatalf("defer ran the call: %v", err)
	}
	// A context that ended: no decision, and the tool must not run.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := g.Before(cctx, "bash", map[string]any{"command": "ls"}); !errors.Is(err, guard.ErrNoDecision) {
		t.Fatalf("cancelled: %v", err)
	}
}

func TestAskAndAfter(t *testing.T) {
	var asked string
	g := newGuard(t, guard.WithSession(func(context.Context) string { return "s1" }), guard.WithCwd("/p"),
		guard.WithAsk(func(_ context.Context, tool string, _ map[string]any, reason string) (bool, error) {
			asked = tool + ": " + reason
			return true, nil
		}))
	ctx := context.Background()
	if _, err := g.Before(ctx, "bash", map[string]any{"command": "git push"}); err != nil || asked != "bash: pushing needs a human" {
		t.Fatalf("ask granted: %v %q", err, asked)
	}
	// A defer is asked about as an ask is; refused, the call does not run.
	refuse := newGuard(t, guard.WithAsk(func(_ context.Context, tool string, _ map[string]any, reason string) (bool, error) {
		asked = tool + ": " + reason
		return false, nil
	}))
	var d *guard.Denied
	if _, err := refuse.Before(ctx, "bash", map[string]any{"command": "deploy prod"}); !errors.As(err, &d) || asked != "bash: deploys are decided later" {
		t.Fatalf("defer refused: %v %q", err, asked)
	}
	fb, err := g.After(ctx, "write_file", map[string]any{"file_path": "a.go"}, "ok", nil)
	if err != nil || !strings.Contains(fb, "run the linter") {
		t.Fatalf("after: %q %v", fb, err)
	}
}
