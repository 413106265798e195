package script

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
)

// entryEngine registers the bodies as PreToolUse chain hooks h0, h1, ...
// (in that order) on one pool.
func entryEngine(t *testing.T, p *Pool, bodies ...string) *engine.Engine {
	t.Helper()
	e, err := engine.New(engine.WithSkippedTraces()) // the tests read the skipped traces
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	for i, body := range bodies {
		prog, err := p.CompileInline("hooks.hcl", body, 1)
		if err != nil {
			t.Fatal(err)
		}
		h := engine.Hook{ID: fmt.Sprintf("h%d", i), Event: "PreToolUse", Priority: -i, Handler: p.Handler(prog), Timeout: 2 * time.Second}
		if err := e.Register(h); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func entryPool(t *testing.T) *Pool {
	t.Helper()
	p, err := NewPool(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

func firePre(t *testing.T, e *engine.Engine, command string) engine.Outcome {
	t.Helper()
	out, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{
		"tool_name": "Bash", "tool_input": map[string]any{"command": command},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestEntryChainsOnOneRuntime: the hooks of a fire run nested in one
// entered runtime, and the chain still chains updated_input and stops at
// a terminal decision.
func TestEntryChainsOnOneRuntime(t *testing.T) {
	p := entryPool(t)
	e := entryEngine(t, p,
		`return { updated_input: { command: event.tool_input.command + "a" } };`,
		`return { updated_input: { command: event.tool_input.command + "b" } };`,
		`if (event.tool_input.command === "xab") return { decision: "deny", reason: "saw " + event.tool_input.command };`,
		`return { additional_context: "never" };`,
	)
	out := firePre(t, e, "x")
	if out.Decision != "deny" || out.Reason != "saw xab" {
		t.Fatalf("decision %q reason %q, want deny \"saw xab\"; %+v", out.Decision, out.Reason, out.Hooks)
	}
	if st := out.Hooks[3].Status; st != engine.StatusSkipped {
		t.Fatalf("h3 after the deny: %s, want skipped", st)
	}
	if n := p.nested.Load(); n != 3 {
		t.Fatalf("%d calls ran in the entry, want 3", n)
	}
	if out := firePre(t, e, "y"); out.Decision != "" || out.UpdatedInput["command"] != "yab" {
		t.Fatalf("second fire: %+v", out)
	}
}

// TestEntryAfterTimeout: a hook that times out breaks the entered runtime;
// the hooks after it run on runtimes of their own, and the pool recovers.
func TestEntryAfterTimeout(t *testing.T) {
	p := entryPool(t)
	e, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	for i, body := range []string{
		`for (;;) {}`,
		`throw new Error("boom")`,
		`return { additional_context: "after " + event.tool_input.command };`,
	} {
		prog, err := p.CompileInline("hooks.hcl", body, 1)
		if err != nil {
			t.Fatal(err)
		}
		timeout := 2 * time.Second
		if i == 0 {
			timeout = 50 * time.Millisecond
		}
		if err := e.Register(engine.Hook{ID: fmt.Sprintf("h%d", i), Event: "PreToolUse", Priority: -i, Handler: p.Handler(prog), Timeout: timeout}); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		out := firePre(t, e, "x")
		if got := []engine.Status{out.Hooks[0].Status, out.Hooks[1].Status, out.Hooks[2].Status}; got[0] != engine.StatusTimeout || got[1] != engine.StatusError || got[2] != engine.StatusDecided {
			t.Fatalf("statuses %v, want timeout, error, decided", got)
		}
		if out.AdditionalContext != "after x" {
			t.Fatalf("context %q", out.AdditionalContext)
		}
	}
	if st := p.Stats(); st.InUse != 0 {
		t.Fatalf("%d runtimes still checked out", st.InUse)
	}
}

// TestEntryForAsync: a handler that queues promise jobs nests like any
// other: its jobs run before its call ends (drain), so its await works.
func TestEntryForAsync(t *testing.T) {
	p := entryPool(t)
	e := entryEngine(t, p,
		`return { updated_input: { command: event.tool_input.command + "a" } };`,
		`const v = await Promise.resolve(event.tool_input.command); return { additional_context: "awaited " + v };`,
	)
	out := firePre(t, e, "x")
	if out.AdditionalContext != "awaited xa" {
		t.Fatalf("context %q, want \"awaited xa\"", out.AdditionalContext)
	}
	if n := p.nested.Load(); n != 2 {
		t.Fatalf("%d calls nested, want 2", n)
	}
}

// TestEntryOnlyForItsFire: a context that kept the entry (a background
// hook's, a nested fire's) does not reach the entered runtime: calls of
// another fire, or after the fire, check out their own.
func TestEntryOnlyForItsFire(t *testing.T) {
	p := entryPool(t)
	prog, err := p.CompileInline("hooks.hcl", `return { additional_context: "ran " + ctx.hook };`, 1)
	if err != nil {
		t.Fatal(err)
	}
	js := p.Handler(prog)
	var kept context.Context
	var keptFire uint64
	e, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	for i := range 2 {
		if err := e.Register(engine.Hook{ID: fmt.Sprintf("js%d", i), Event: "PreToolUse", Priority: -i, Handler: js}); err != nil {
			t.Fatal(err)
		}
	}
	spy := engine.Inline(engine.HandlerFunc(func(ctx context.Context, c *engine.Call) (engine.Result, error) {
		kept, keptFire = ctx, c.Fire
		// Another fire's call, made while the entry is open.
		res, err := js.Handle(ctx, &engine.Call{Event: "PreToolUse", Fire: c.Fire + 1000, Hook: "other", Payload: c.Payload, Timeout: time.Second})
		if err != nil || res["additional_context"] != "ran other" {
			return nil, fmt.Errorf("other fire's call: %v %v", res, err)
		}
		return nil, nil
	}))
	if err := e.Register(engine.Hook{ID: "spy", Event: "PreToolUse", Priority: -5, Handler: spy}); err != nil {
		t.Fatal(err)
	}
	out := firePre(t, e, "x")
	if out.Hooks[2].Status != engine.StatusRan {
		t.Fatalf("spy: %+v", out.Hooks[2])
	}
	if n := p.nested.Load(); n != 2 {
		t.Fatalf("%d calls nested, want the fire's 2", n)
	}
	// After the fire, from another goroutine, with the kept context and
	// the fire's own id: the entry is closed.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		res, err := js.Handle(context.WithoutCancel(kept), &engine.Call{Event: "PreToolUse", Fire: keptFire, Hook: "late", Payload: map[string]any{}, Timeout: time.Second})
		if err != nil || res["additional_context"] != "ran late" {
			t.Errorf("late call: %v %v", res, err)
		}
	}()
	wg.Wait()
	if n := p.nested.Load(); n != 2 {
		t.Fatalf("%d calls nested after the fire ended, want 2", n)
	}
}

// TestEntryConcurrentFires: fires on many goroutines each enter their own
// runtime (run with -race).
func TestEntryConcurrentFires(t *testing.T) {
	p := entryPool(t)
	e := entryEngine(t, p,
		`return { updated_input: { command: event.tool_input.command + "a" } };`,
		`if (event.tool_input.command.endsWith("9a")) return { decision: "deny", reason: "nine" };`,
		`return { additional_context: event.tool_input.command };`,
	)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				cmd := fmt.Sprintf("g%d-%d", g, i)
				out, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}}})
				if err != nil {
					t.Error(err)
					return
				}
				want := cmd + "a"
				if i%10 == 9 {
					if out.Decision != "deny" {
						t.Errorf("%s: decision %q", cmd, out.Decision)
					}
				} else if out.AdditionalContext != want {
					t.Errorf("%s: context %q, want %q", cmd, out.AdditionalContext, want)
				}
			}
		}()
	}
	wg.Wait()
	if p.nested.Load() == 0 {
		t.Fatal("no call ran in an entry")
	}
}
