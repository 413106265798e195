package engine_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/hookctl/hookctl/engine"
)

// fireIntoHooks is every kind of trace: a chain that rewrites and decides,
// a skipped hook, void and observe hooks, and a background one.
func fireIntoHooks(t *testing.T, e *engine.Engine) {
	register(t, e,
		engine.Hook{ID: "rewrite", Event: "PreToolUse", Priority: 10, Handler: fn(func(ctx context.Context, c *engine.Call) (engine.Result, error) {
			return engine.Result{"updated_input": map[string]any{"command": "ls -l"}}, nil
		})},
		engine.Hook{ID: "deny", Event: "PreToolUse", When: `tool_input.command contains "sudo"`, Handler: engine.Static(engine.Deny("sudo"))},
		engine.Hook{ID: "skipped", Event: "PreToolUse", Matcher: "Read", Handler: engine.Static(engine.Deny("read"))},
		engine.Hook{ID: "observe", Event: "PreToolUse", Observe: true, Handler: engine.Static(engine.Context("seen"))},
		engine.Hook{ID: "note", Event: "PostToolUse", Handler: engine.Static(engine.Context("noted"))},
		engine.Hook{ID: "later", Event: "PostToolUse", Background: true, Handler: engine.Static(nil)},
	)
}

// withoutDurations zeroes what differs from fire to fire.
func withoutDurations(o engine.Outcome) engine.Outcome {
	o.Hooks = append([]engine.HookTrace(nil), o.Hooks...)
	for i := range o.Hooks {
		o.Hooks[i].Duration = 0
	}
	return o
}

// TestFireIntoIsFire: FireInto gives the outcome Fire gives, event after
// event, into one reused Outcome, and writes its traces where the first
// fire put them.
func TestFireIntoIsFire(t *testing.T) {
	e := newEngine(t)
	fireIntoHooks(t, e)
	ctx := context.Background()
	var out engine.Outcome
	events := []engine.Event{
		{Name: "PreToolUse", Payload: bash("sudo ls")},
		{Name: "PreToolUse", Payload: bash("ls")},
		{Name: "PostToolUse", Payload: bash("ls")},
		{Name: "Notification"}, // no hooks
		{Name: "PreToolUse", Payload: bash("sudo rm")},
	}
	var first *engine.HookTrace
	var firstOut uintptr
	for i, ev := range events {
		want, werr := e.Fire(ctx, ev)
		err := e.FireInto(ctx, ev, &out)
		if !errors.Is(err, werr) {
			t.Fatalf("%s: error %v, want %v", ev.Name, err, werr)
		}
		if got, want := withoutDurations(out), withoutDurations(want); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s %v:\n got  %+v\n want %+v", ev.Name, ev.Payload, got, want)
		}
		if i < 3 { // each merges an output; the next has no hooks
			p := uintptr(reflect.ValueOf(out.Output).UnsafePointer())
			if firstOut == 0 {
				firstOut = p
			} else if p != firstOut {
				t.Errorf("%s: the merged output was not written into the reused map", ev.Name)
			}
		}
		if len(out.Hooks) == 0 {
			continue
		}
		if first == nil {
			first = &out.Hooks[0]
		} else if &out.Hooks[0] != first {
			t.Errorf("%s: the traces were not written into the reused memory", ev.Name)
		}
	}
	if err := e.FireInto(ctx, engine.Event{Name: "NoSuchEvent"}, &out); err == nil {
		t.Fatal("an unknown event fired")
	}
	if out.Event != "" || len(out.Hooks) != 0 || cap(out.Hooks) == 0 {
		t.Errorf("after an unknown event: %+v (cap %d), want an empty outcome that keeps its memory", out, cap(out.Hooks))
	}
}

// TestFireIntoClearsWhatItDoesNotUse: traces of an earlier, longer outcome
// past the new one's end are cleared, so the memory holds nothing of it.
func TestFireIntoClearsWhatItDoesNotUse(t *testing.T) {
	e := newEngine(t)
	fireIntoHooks(t, e)
	ctx := context.Background()
	var out engine.Outcome
	if err := e.FireInto(ctx, engine.Event{Name: "PreToolUse", Payload: bash("sudo ls")}, &out); err != nil || len(out.Hooks) != 4 {
		t.Fatalf("%v %+v", err, out.Hooks)
	}
	if err := e.FireInto(ctx, engine.Event{Name: "PostToolUse", Payload: bash("ls")}, &out); err != nil || len(out.Hooks) != 2 {
		t.Fatalf("%v %+v", err, out.Hooks)
	}
	for i, tr := range out.Hooks[len(out.Hooks):cap(out.Hooks)] {
		if !reflect.DeepEqual(tr, engine.HookTrace{}) {
			t.Errorf("trace %d past the end still holds %+v", len(out.Hooks)+i, tr)
		}
	}
}

// TestFireIntoAllocatesLess: with the outcome reused, a fire of
// declarative hooks allocates neither the traces nor the merged output's
// map (its header and its table) that Fire allocates.
func TestFireIntoAllocatesLess(t *testing.T) {
	e := newEngine(t)
	for i := range 10 {
		register(t, e, static(fmt.Sprint("h", i), "PreToolUse", engine.Deny("no")))
	}
	ctx := context.Background()
	ev := engine.Event{Name: "PreToolUse", Payload: bash("ls")}
	var out engine.Outcome
	_ = e.FireInto(ctx, ev, &out)
	fire := testing.AllocsPerRun(100, func() { _, _ = e.Fire(ctx, ev) })
	into := testing.AllocsPerRun(100, func() { _ = e.FireInto(ctx, ev, &out) })
	if into > fire-3 {
		t.Errorf("FireInto: %v allocations per fire, Fire %v: the traces or the output map were allocated", into, fire)
	}
}
