package natsstate_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/script"
	"github.com/hookctl/hookctl/stdlib"
)

// TestNoSessionIsNotSessionNoneOnNATS: on NATS KV, hookctl/kv's scope of
// no session (no session_id, or "") is not session "none"'s, nor
// "%none"'s; the Stop loop guard counts no session_id and "" as one
// streak, and session "none" apart.
func TestNoSessionIsNotSessionNoneOnNATS(t *testing.T) {
	st := openShared(t)
	mods, err := stdlib.Modules(stdlib.Options{Store: st.KV()})
	if err != nil {
		t.Fatal(err)
	}
	p, err := script.NewPool(t.TempDir(), mods...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	prog, err := p.CompileInline("test.hcl", `return { additional_context: String(require("hookctl/kv").incr("n")) };`, 1)
	if err != nil {
		t.Fatal(err)
	}
	count := func(payload map[string]any) string {
		t.Helper()
		r, err := p.Handler(prog).Handle(context.Background(), &engine.Call{
			Event: "PreToolUse", Hook: "t", Payload: payload, State: engine.NewState(nil),
			Timeout: 5 * time.Second, Deadline: time.Now().Add(5 * time.Second),
		})
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(r["additional_context"])
	}
	if n := count(map[string]any{}); n != "1" {
		t.Fatalf("no session_id: count %s, want 1", n)
	}
	if n := count(map[string]any{"session_id": ""}); n != "2" {
		t.Errorf("session_id \"\": count %s, want 2 (no session, as without one)", n)
	}
	for _, sid := range []string{"none", "%none"} {
		if n := count(map[string]any{"session_id": sid}); n != "1" {
			t.Errorf("session %q: count %s, want 1: it shares the scope of no session", sid, n)
		}
	}

	eng, err := engine.New(engine.WithStopBlockCap(5), engine.WithLoopStore(st.Loops()))
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
		t.Errorf("session_id \"\" after a block without one: loop count %d, want 1 (one streak)", n)
	}
	for _, sid := range []string{"none", "%none"} {
		if n := fire(map[string]any{"session_id": sid}); n != 0 {
			t.Errorf("session %q starts with no session's loop count %d", sid, n)
		}
	}
}
