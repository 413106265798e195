package script_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/script"
)

// runtimeID is a native module that tells a script which runtime it runs
// on (id), panics with a Go value, as a buggy native module would (panic),
// and says when a call has started (started), for a test to act on.
type runtimeID struct {
	started chan struct{}
	mu      sync.Mutex
	ids     map[*script.VM]int // holds each runtime: no address is reused
}

func (r *runtimeID) module(vm *script.VM, module *goja.Object) {
	exports := module.Get("exports").(*goja.Object)
	_ = exports.Set("id", func(goja.FunctionCall) goja.Value {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.ids == nil {
			r.ids = map[*script.VM]int{}
		}
		if _, ok := r.ids[vm]; !ok {
			r.ids[vm] = len(r.ids) + 1
		}
		return vm.Runtime().ToValue(fmt.Sprintf("runtime %d", r.ids[vm]))
	})
	_ = exports.Set("panic", func(goja.FunctionCall) goja.Value { panic("a native module's bug") })
	_ = exports.Set("started", func(goja.FunctionCall) goja.Value {
		r.started <- struct{}{}
		return goja.Undefined()
	})
}

// TestBrokenRuntimesAreDiscarded: a runtime whose call panicked or was
// interrupted (its deadline, its context, an endless promise job) is
// dropped and never runs another hook: the next call runs on a new
// runtime, and the pool counts the discard. A runtime whose script merely
// threw is kept. On a pool of one runtime, so that "the next call" has
// only the runtime it must not get. With and without a fire's entry.
func TestBrokenRuntimesAreDiscarded(t *testing.T) {
	const id = `return { additional_context: require("rt").id() };`
	for name, c := range map[string]struct {
		body    string
		cancel  bool // cancel the call's context once the script started
		discard bool
	}{
		"panic":           {body: `require("rt").panic();`, discard: true},
		"deadline":        {body: `for (;;) {}`, discard: true},
		"context":         {body: `require("rt").started(); for (;;) {}`, cancel: true, discard: true},
		"endless job":     {body: `globalThis["Pro" + "mise"].resolve()["th" + "en"](() => { for (;;) {} });`, discard: true},
		"stack overflow":  {body: `const f = () => f(); f();`, discard: false}, // a RangeError the script could catch
		"plain throw":     {body: `throw new Error("no");`, discard: false},
		"thrown toString": {body: `throw { toString() { for (;;) {} } };`, discard: true},
	} {
		t.Run(name, func(t *testing.T) {
			rid := &runtimeID{started: make(chan struct{}, 1)}
			p := newPool(t, script.WithSize(1), script.WithModule("rt", rid.module))
			who := inline(t, p, id)
			bad := inline(t, p, c.body)
			before, err := run(t, who, longCall())
			if err != nil {
				t.Fatal(err)
			}
			st0 := p.Stats()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if c.cancel {
				go func() {
					<-rid.started
					cancel()
				}()
			}
			bc := call(nil)
			bc.Timeout = 200 * time.Millisecond
			if c.cancel {
				bc.Timeout = time.Minute // only the context ends it
			}
			bc.Deadline = time.Now().Add(bc.Timeout)
			if _, err := bad.Handle(ctx, bc); err == nil {
				t.Fatal("the call did not fail")
			}
			after, err := run(t, who, longCall())
			if err != nil {
				t.Fatal(err)
			}
			st := p.Stats()
			same := after["additional_context"] == before["additional_context"]
			if c.discard {
				if same || st.Discarded != st0.Discarded+1 || st.Created != st0.Created+1 {
					t.Fatalf("the runtime was kept: same runtime %v, discarded %d→%d, created %d→%d", same, st0.Discarded, st.Discarded, st0.Created, st.Created)
				}
			} else if !same || st.Discarded != st0.Discarded {
				t.Fatalf("a runtime whose script only threw was dropped: same runtime %v, discarded %d→%d", same, st0.Discarded, st.Discarded)
			}
		})
	}
}

// TestBrokenEnteredRuntimeIsDiscarded: the same through the engine, where
// the hooks of a fire run nested in one entered runtime: the runtime a hook
// broke runs none of the fire's later hooks, nor any of the next fire's.
func TestBrokenEnteredRuntimeIsDiscarded(t *testing.T) {
	for name, body := range map[string]string{
		"panic":       `require("rt").panic();`,
		"deadline":    `for (;;) {}`,
		"endless job": `globalThis["Pro" + "mise"].resolve()["th" + "en"](() => { for (;;) {} });`,
	} {
		t.Run(name, func(t *testing.T) {
			rid := &runtimeID{started: make(chan struct{}, 1)}
			p := newPool(t, script.WithSize(2), script.WithModule("rt", rid.module))
			e, err := engine.New()
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close(context.Background())
			hooks := []struct {
				id, body string
			}{
				{"before", `require("rt"); ctx.state.before = require("rt").id();`},
				{"bad", `if (event.session_id === "b") { ` + body + ` }`},
				{"after", `return { additional_context: require("rt").id() };`},
			}
			for i, h := range hooks {
				timeout := time.Minute // only the bad hook may break a runtime
				if h.id == "bad" {
					timeout = 200 * time.Millisecond
				}
				if err := e.Register(engine.Hook{ID: h.id, Event: "PreToolUse", Priority: -i, Timeout: timeout,
					Handler: inline(t, p, h.body)}); err != nil {
					t.Fatal(err)
				}
			}
			fire := func(session string) engine.Outcome {
				out, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{"session_id": session, "tool_name": "Bash"}})
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			first := fire("a")
			st0 := p.Stats()
			broke := fire("b")
			if tr, _ := broke.Hook("bad"); tr.Status == engine.StatusRan {
				t.Fatalf("the bad hook ran clean: %+v", tr)
			}
			st := p.Stats()
			if st.Discarded != st0.Discarded+1 {
				t.Fatalf("discarded %d→%d, want one more", st0.Discarded, st.Discarded)
			}
			next := fire("c")
			// The runtime the first fire entered is the one the bad hook
			// broke (the pool hands out the runtime used last): no hook
			// after the break runs on it.
			for _, out := range []engine.Outcome{broke, next} {
				if out.AdditionalContext == first.AdditionalContext {
					t.Fatalf("a hook ran on the broken runtime %s", out.AdditionalContext)
				}
			}
		})
	}
}

// longCall is a call whose deadline no healthy hook reaches, however slow
// the machine: only the hooks meant to break a runtime do.
func longCall() *engine.Call {
	c := call(nil)
	c.Timeout = time.Minute
	c.Deadline = time.Now().Add(c.Timeout)
	return c
}
