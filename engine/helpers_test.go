package engine_test

import (
	"context"
	"testing"

	"github.com/hookctl/hookctl/engine"
)

// newEngine returns an engine that traces skipped hooks too, as the tests
// look at them (newLeanEngine does not).
func newEngine(t testing.TB, opts ...engine.Option) *engine.Engine {
	t.Helper()
	return newLeanEngine(t, append([]engine.Option{engine.WithSkippedTraces()}, opts...)...)
}

// newLeanEngine returns an engine with opts alone: skipped hooks are
// counted, not traced.
func newLeanEngine(t testing.TB, opts ...engine.Option) *engine.Engine {
	t.Helper()
	e, err := engine.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.Close(context.Background()); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return e
}

func register(t testing.TB, e *engine.Engine, hooks ...engine.Hook) {
	t.Helper()
	for _, h := range hooks {
		if err := e.Register(h); err != nil {
			t.Fatalf("register %s: %v", h.ID, err)
		}
	}
}

func fire(t testing.TB, e *engine.Engine, event string, payload map[string]any) engine.Outcome {
	t.Helper()
	out, err := e.Fire(context.Background(), engine.Event{Name: event, Payload: payload})
	if err != nil {
		t.Fatalf("fire %s: %v", event, err)
	}
	return out
}

func static(id, event string, r engine.Result) engine.Hook {
	return engine.Hook{ID: id, Event: event, Handler: engine.Static(r)}
}

func fn(f func(ctx context.Context, c *engine.Call) (engine.Result, error)) engine.Handler {
	return engine.HandlerFunc(f)
}

func bash(cmd string) map[string]any {
	return map[string]any{"session_id": "s1", "tool_name": "Bash", "tool_input": map[string]any{"command": cmd}}
}

func traceOf(t testing.TB, out engine.Outcome, id string) engine.HookTrace {
	t.Helper()
	tr, ok := out.Hook(id)
	if !ok {
		t.Fatalf("no trace for hook %q in %+v", id, out.Hooks)
	}
	return tr
}

func ids(out engine.Outcome) []string {
	var s []string
	for _, h := range out.Hooks {
		s = append(s, h.ID)
	}
	return s
}
