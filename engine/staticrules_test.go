package engine_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/fastpath"
)

// TestStaticRulesPerEvent: a declarative result's merge rules are looked
// up at registration, once for each of its hook's events: a field merged
// by one rule on one event and by another on the next (message: chained
// on tool_result_persist, the first on PermissionRequest, the last on an
// event of the embedder's), merge as the plain path merges them (the handler
// called and each rule looked up per fire).
func TestStaticRulesPerEvent(t *testing.T) {
	res := engine.Result{"message": "m", "additional_context": "c", "interrupt": true, "unknown_field": 1}
	events := []string{"PermissionRequest", "tool_result_persist", "Custom"}
	build := func(off fastpath.Set) *engine.Engine {
		e, err := engine.New(engine.WithoutFastPaths(off))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close(context.Background()) })
		if _, err := e.RegisterEvent(engine.EventSpec{Name: "Custom", Strategy: engine.Modifying,
			Merge: map[string]engine.FieldRule{"message": {Rule: engine.MergeLast}}}); err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			if err := e.Register(engine.Hook{ID: "static" + string(rune('a'+i)), Events: events, Priority: -i, Handler: engine.Static(res)}); err != nil {
				t.Fatal(err)
			}
		}
		return e
	}
	{
		fast, plain := build(0), build(fastpath.EngineStatic)
		for _, ev := range events {
			payload := map[string]any{"message": "original", "tool_name": "Bash"}
			a, errA := fast.Fire(context.Background(), engine.Event{Name: ev, Payload: payload})
			b, errB := plain.Fire(context.Background(), engine.Event{Name: ev, Payload: payload})
			if (errA == nil) != (errB == nil) {
				t.Fatalf("%s: %v, %v", ev, errA, errB)
			}
			for i := range a.Hooks {
				a.Hooks[i].Duration, b.Hooks[i].Duration = 0, 0
				a.Hooks[i].Handler, b.Hooks[i].Handler = "", ""
			}
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s:\nstatic rules %+v\nplain        %+v", ev, a, b)
			}
		}
	}
}
