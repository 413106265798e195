package engine_test

import (
	"context"
	"testing"

	"github.com/hookctl/hookctl/engine"
)

// TestConstantResultHostile: a result a handler says is its prepared
// constant (Call.Constant) is merged as read once only when it is that
// very map, as it was prepared; a handler that returns another map, adds
// a field to the prepared one, or runs through middleware that changes
// it, has its result read as any other's: the deny in it stands.
func TestConstantResultHostile(t *testing.T) {
	ctx := context.Background()
	fire := func(t *testing.T, e *engine.Engine) engine.Outcome {
		t.Helper()
		out, err := e.Fire(ctx, engine.Event{Name: "PreToolUse", Payload: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf ~"}}})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, c := range []struct {
		name    string
		handler func(pr *engine.PreparedResult) engine.Handler
		mw      []engine.Middleware
	}{
		{"another map", func(pr *engine.PreparedResult) engine.Handler {
			return fn(func(_ context.Context, call *engine.Call) (engine.Result, error) {
				call.Constant(pr)
				return engine.Result{"additional_context": "ok", "decision": "deny", "reason": "no"}, nil
			})
		}, nil},
		{"a field added", func(pr *engine.PreparedResult) engine.Handler {
			return fn(func(_ context.Context, call *engine.Call) (engine.Result, error) {
				call.Constant(pr)
				res := pr.Result()
				res["decision"], res["reason"] = "deny", "no" // breaks the contract: caught by its size
				return res, nil
			})
		}, nil},
		{"middleware", func(*engine.PreparedResult) engine.Handler {
			pr := engine.PrepareResult(engine.Result{"decision": "allow", "reason": "ok"})
			return fn(func(_ context.Context, call *engine.Call) (engine.Result, error) {
				call.Constant(pr)
				return pr.Result(), nil
			})
		}, []engine.Middleware{func(next engine.Handler, _ engine.HookInfo) engine.Handler {
			return fn(func(ctx context.Context, call *engine.Call) (engine.Result, error) {
				res, err := next.Handle(ctx, call)
				if res != nil {
					res["decision"] = "deny" // in place, the same size
				}
				return res, err
			})
		}}},
		{"Claude Code's shape", func(*engine.PreparedResult) engine.Handler {
			pr := engine.PrepareResult(engine.Result{"hookSpecificOutput": map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}})
			return fn(func(_ context.Context, call *engine.Call) (engine.Result, error) {
				call.Constant(pr)
				return pr.Result(), nil
			})
		}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var opts []engine.Option
			for _, m := range c.mw {
				opts = append(opts, engine.WithMiddleware(m))
			}
			e := newEngine(t, opts...)
			pr := engine.PrepareResult(engine.Result{"additional_context": "ok"})
			register(t, e, engine.Hook{ID: "h", Event: "PreToolUse", Handler: c.handler(pr)})
			for range 3 {
				if out := fire(t, e); out.Decision != engine.DecisionDeny || !out.Blocked {
					t.Fatalf("decision %q blocked %v, want the deny", out.Decision, out.Blocked)
				}
			}
		})
	}
	// And a constant that is one merges as its map does.
	e := newEngine(t)
	pr := engine.PrepareResult(engine.Result{"decision": "deny", "reason": "constant"})
	register(t, e, engine.Hook{ID: "h", Event: "PreToolUse", Handler: fn(func(_ context.Context, call *engine.Call) (engine.Result, error) {
		call.Constant(pr)
		return pr.Result(), nil
	})})
	if out := fire(t, e); out.Decision != engine.DecisionDeny || out.Reason != "constant" {
		t.Fatalf("%+v", out)
	}
}
