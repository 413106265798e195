package engine_test

import (
	"context"
	"testing"

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
