package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
)

// TestDefaultTimeoutAppliesToHooksWithoutOne: WithDefaultTimeout bounds a
// hook that sets no timeout of its own, ahead of the event's default; a
// hook's own timeout still wins; a negative value is refused.
func TestDefaultTimeoutAppliesToHooksWithoutOne(t *testing.T) {
	if _, err := engine.New(engine.WithDefaultTimeout(-time.Second)); err == nil {
		t.Fatal("a negative default timeout was accepted")
	}
	e := newEngine(t, engine.WithDefaultTimeout(30*time.Millisecond))
	hang := fn(func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Second):
			return engine.Allow("too late"), nil
		}
	})
	register(t, e,
		engine.Hook{ID: "hangs", Event: "PreToolUse", Priority: 2, Handler: hang},
		engine.Hook{ID: "own", Event: "Stop", Timeout: 200 * time.Millisecond, Handler: fn(func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(60 * time.Millisecond):
				return engine.Context("done"), nil
			}
		})},
	)
	if tr := traceOf(t, fire(t, e, "PreToolUse", bash("ls")), "hangs"); tr.Status != engine.StatusTimeout {
		t.Fatalf("hook without a timeout: %+v", tr)
	}
	if tr := traceOf(t, fire(t, e, "Stop", map[string]any{"session_id": "s"}), "own"); tr.Status == engine.StatusTimeout {
		t.Fatalf("the hook's own 200ms timeout lost to the 30ms default: %+v", tr)
	}
}

// TestWithEventsAddsCustomEvents: events given at construction can be
// fired and hooked like catalog events.
func TestWithEventsAddsCustomEvents(t *testing.T) {
	e := newEngine(t, engine.WithEvents(engine.EventSpec{Name: "deploy_requested", Strategy: engine.Modifying, Decisions: []string{"deny", "allow"}}))
	register(t, e, static("no-deploys", "deploy_requested", engine.Deny("frozen")))
	out := fire(t, e, "deploy_requested", map[string]any{"env": "prod"})
	if out.Decision != "deny" || !out.Blocked || out.Reason != "frozen" {
		t.Fatalf("%+v", out)
	}
	if _, err := newEngine(t).Fire(context.Background(), engine.Event{Name: "deploy_requested"}); err == nil {
		t.Fatal("an engine without the event fired it")
	}
}
