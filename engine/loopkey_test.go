package engine_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
)

// TestLoopKeysDoNotCollide: the Stop loop guard counts per event, session
// and subagent; session "a" of agent "b" and session "a/b" are two
// streaks, as are sessions "a/b" and "a%2Fb".
func TestLoopKeysDoNotCollide(t *testing.T) {
	eng, err := engine.New(engine.WithStopBlockCap(5))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close(context.Background()) })
	if err := eng.Register(engine.Hook{ID: "keep-going", Event: "SubagentStop", Handler: engine.Static(engine.Block("keep going"))}); err != nil {
		t.Fatal(err)
	}
	fire := func(payload map[string]any) int {
		t.Helper()
		out, err := eng.Fire(context.Background(), engine.Event{Name: "SubagentStop", Payload: payload})
		if err != nil || out.StopGuard == nil || out.StopGuard.Error != "" {
			t.Fatalf("fire %v: %v %+v", payload, err, out.StopGuard)
		}
		return out.StopGuard.LoopCount
	}
	for range 3 {
		fire(map[string]any{"session_id": "a", "agent_id": "b"})
	}
	for _, p := range []map[string]any{
		{"session_id": "a/b"},
		{"session_id": "a%2Fb"},
		{"session_id": "a", "agent_id": "b/c"},
	} {
		if n := fire(p); n != 0 {
			t.Errorf("%v starts with a loop count of %d: it shares another streak's key", p, n)
		}
	}
	if n := fire(map[string]any{"session_id": "a", "agent_id": "b"}); n != 3 {
		t.Errorf("session a agent b: loop count %d, want 3", n)
	}
}

// stalledLoops is a LoopStore that answers nothing until the caller's
// context ends, as a stalled NATS server does.
type stalledLoops struct{ calls chan struct{} }

func (s stalledLoops) LoopCount(ctx context.Context, key string) (int, error) {
	s.calls <- struct{}{}
	<-ctx.Done()
	return 0, ctx.Err()
}

func (s stalledLoops) SetLoopCount(ctx context.Context, key string, n int) error {
	s.calls <- struct{}{}
	<-ctx.Done()
	return ctx.Err()
}

// TestLoopGuardBoundedByHookBudget: a loop store that never answers holds
// a Stop fire for the hooks' budget (the default timeout), not forever;
// the block stands and the outcome says why it was not counted.
func TestLoopGuardBoundedByHookBudget(t *testing.T) {
	loops := stalledLoops{calls: make(chan struct{}, 8)}
	eng, err := engine.New(engine.WithLoopStore(loops), engine.WithDefaultTimeout(20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// A fire the store still holds (the bound broken) is not waited for.
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		eng.Close(ctx)
	})
	if err := eng.Register(engine.Hook{ID: "keep-going", Event: "Stop", Handler: engine.Static(engine.Block("keep going"))}); err != nil {
		t.Fatal(err)
	}
	done := make(chan engine.Outcome, 1)
	go func() {
		// The request's context never ends: only the budget can.
		out, _ := eng.Fire(context.Background(), engine.Event{Name: "Stop", Payload: map[string]any{"session_id": "s"}})
		done <- out
	}()
	select {
	case out := <-done:
		if out.Decision != "block" || out.StopGuard == nil || !strings.Contains(out.StopGuard.Error, "deadline exceeded") {
			t.Fatalf("decision %q guard %+v", out.Decision, out.StopGuard)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a stalled loop store held the Stop fire past its hooks' budget")
	}
	if len(loops.calls) == 0 {
		t.Fatal("the loop store was not asked")
	}
}

// TestLoopKeyOfNoSession: a Stop without a session_id and one with ""
// are one streak (no session); sessions "none" and "%none" are not it.
func TestLoopKeyOfNoSession(t *testing.T) {
	eng, err := engine.New(engine.WithStopBlockCap(5))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close(context.Background()) })
	if err := eng.Register(engine.Hook{ID: "keep-going", Event: "Stop", Handler: engine.Static(engine.Block("keep going"))}); err != nil {
		t.Fatal(err)
	}
	fire := func(payload map[string]any) int {
		t.Helper()
		out, err := eng.Fire(context.Background(), engine.Event{Name: "Stop", Payload: payload})
		if err != nil || out.StopGuard == nil || out.StopGuard.Error != "" {
			t.Fatalf("fire %v: %v %+v", payload, err, out.StopGuard)
		}
		return out.StopGuard.LoopCount
	}
	fire(map[string]any{})
	if n := fire(map[string]any{"session_id": ""}); n != 1 {
		t.Errorf("session_id \"\" after a block without one: loop count %d, want 1", n)
	}
	for _, sid := range []string{"none", "%none", "%25none"} {
		if n := fire(map[string]any{"session_id": sid}); n != 0 {
			t.Errorf("session %q starts with no session's loop count %d", sid, n)
		}
	}
}
