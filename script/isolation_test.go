package script_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/script"
)

// probe is a native module that records, each time a script calls
// probe.who(), the identity of the call in progress as native modules see
// it: the hook, whether it may run programs, and its state.
type probe struct {
	mu   sync.Mutex
	seen []probeCall
}

type probeCall struct {
	hook  string
	exec  bool
	state *engine.State
}

func (p *probe) module(vm *script.VM, module *goja.Object) {
	exports := module.Get("exports").(*goja.Object)
	_ = exports.Set("who", func(goja.FunctionCall) goja.Value {
		c := probeCall{exec: vm.Allowed("exec")}
		if call := vm.Call(); call != nil {
			c.hook, c.state = call.Hook, call.State
		}
		p.mu.Lock()
		p.seen = append(p.seen, c)
		p.mu.Unlock()
		return goja.Undefined()
	})
}

func (p *probe) reset() {
	p.mu.Lock()
	p.seen = nil
	p.mu.Unlock()
}

func (p *probe) calls() []probeCall {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]probeCall(nil), p.seen...)
}

func namedCall(hook string, state *engine.State) *engine.Call {
	c := call(nil)
	c.Hook, c.State = hook, state
	return c
}

// TestPromiseJobsStayInTheirHook: a promise job a hook queues while its
// result or its thrown value is read runs before the call returns, as that
// hook, with its capabilities and state; never at the end of the next
// call on the runtime, as another hook of another session.
func TestPromiseJobsStayInTheirHook(t *testing.T) {
	for name, body := range map[string]string{
		"getter": `return { get decision() {
				Promise.resolve().then(() => { require("probe").who(); ctx.state.owner = ctx.hook; });
				return "allow";
			} };`,
		"ownKeys trap": `return new Proxy({}, { ownKeys() {
				Promise.resolve().then(() => { require("probe").who(); ctx.state.owner = ctx.hook; });
				return [];
			} });`,
		"nested getter": `return { updated_input: { get command() {
				Promise.resolve().then(() => { require("probe").who(); ctx.state.owner = ctx.hook; });
				return "ls";
			} } };`,
		"thrown toString": `throw { toString() {
				Promise.resolve().then(() => { require("probe").who(); ctx.state.owner = ctx.hook; });
				return "thrown";
			} };`,
		"rejection stack getter": `return Promise.reject({ get stack() {
				Promise.resolve().then(() => { require("probe").who(); ctx.state.owner = ctx.hook; });
				return "s";
			} });`,
		"thenable": `return (async () => ({ then(resolve) {
				Promise.resolve().then(() => { require("probe").who(); ctx.state.owner = ctx.hook; });
				resolve({ decision: "allow" });
			} }))();`,
	} {
		t.Run(name, func(t *testing.T) {
			pr := &probe{}
			p := newPool(t, script.WithSize(1), script.WithModule("probe", pr.module))
			hostile := inline(t, p, body)
			privileged := inline(t, p, `require("probe"); return { decision: "deny", reason: "policy" };`, "exec")
			mine, theirs := engine.NewState(nil), engine.NewState(nil)
			_, _ = run(t, hostile, namedCall("hostile", mine))
			res, err := run(t, privileged, namedCall("privileged", theirs))
			if err != nil || res["decision"] != "deny" {
				t.Fatalf("the next hook: %v %v", res, err)
			}
			if v, ok := theirs.Get("owner"); ok {
				t.Fatalf("a job of the hostile hook ran in the next call and set its state: owner=%v", v)
			}
			for _, c := range pr.calls() {
				if c.hook != "hostile" || c.exec || c.state != mine {
					t.Fatalf("a job of the hostile hook ran as %+v", c)
				}
			}
			if v, _ := mine.Get("owner"); v != "hostile" && len(pr.calls()) > 0 {
				t.Fatalf("owner = %v", v)
			}
		})
	}
}

// TestModuleLoadJobsRunWithoutACall: a job a module queues at load time,
// even from code the loader runs outside the module function (its thrown
// value's toString), never runs as the first hook of the runtime.
func TestModuleLoadJobsRunWithoutACall(t *testing.T) {
	pr := &probe{}
	p := newPool(t, script.WithSize(1), script.WithModule("probe", pr.module))
	h := inline(t, p, `require("probe"); return { decision: "deny" };`, "exec")
	// Loaded in the runtime first, so that nothing but the call itself
	// runs JavaScript in the next call.
	if res, err := run(t, h, namedCall("first", engine.NewState(nil))); err != nil || res["decision"] != "deny" {
		t.Fatalf("%v %v", res, err)
	}
	if bad, err := p.CompileFile("load_job.js"); err == nil || !strings.Contains(err.Error(), "load failed") {
		t.Fatalf("a module that throws at load: %v %v", bad, err)
	}
	if res, err := run(t, h, namedCall("second", engine.NewState(nil))); err != nil || res["decision"] != "deny" {
		t.Fatalf("%v %v", res, err)
	}
	if len(pr.calls()) == 0 {
		t.Fatal("the load-time job never ran")
	}
	for _, c := range pr.calls() {
		if c.hook != "" || c.exec {
			t.Fatalf("a load-time job ran as %+v", c)
		}
	}
}

// poisoners are hooks whose thrown value, or the reading of it, used to
// panic past the end of the call and leave the runtime armed.
var poisoners = map[string]string{
	"toString throws":    `throw { toString() { throw 42; } };`,
	"toString loops":     `throw { toString() { for (;;) {} } };`,
	"toString recurses":  `throw { toString() { const f = () => f(); return f(); } };`,
	"message getter":     `const e = new Error("x"); Object.defineProperty(e, "message", { get() { throw 1; } }); throw e;`,
	"name getter loops":  `const e = new Error("x"); Object.defineProperty(e, "name", { get() { for (;;) {} } }); throw e;`,
	"valueOf in reason":  `return Promise.reject({ toString() { throw 1; } });`,
	"stack getter loops": `return Promise.reject({ get stack() { for (;;) {} } });`,
}

// TestPoisonedRuntimeDoesNotAffectTheNextHook: whatever a hook throws, the
// call ends as an error (or a timeout) of that hook, and the next hook on
// the same pool, here a deny, runs untouched, even while the poisoned
// call's deadline timer comes due: the deny spins across that moment.
// (TestBrokenRuntimesAreDiscarded checks that the runtime itself is
// dropped.)
func TestPoisonedRuntimeDoesNotAffectTheNextHook(t *testing.T) {
	p := newPool(t, script.WithSize(1))
	deny := inline(t, p, `while (Date.now() < event.until) {} return { decision: "deny", reason: "policy" };`)
	for name, body := range poisoners {
		t.Run(name, func(t *testing.T) {
			h := inline(t, p, body)
			c := call(nil)
			c.Timeout = 100 * time.Millisecond
			c.Deadline = time.Now().Add(c.Timeout)
			if _, err := h.Handle(context.Background(), c); err == nil {
				t.Fatal("no error")
			}
			// The deny right after, and one that runs past the moment
			// the first call's timer was set for.
			for _, until := range []time.Time{{}, c.Deadline.Add(50 * time.Millisecond)} {
				dc := longCall()
				dc.Payload = map[string]any{"until": until.UnixMilli()}
				res, err := run(t, deny, dc)
				if err != nil || res["decision"] != "deny" {
					t.Fatalf("the deny after %q: %v %v", name, res, err)
				}
			}
		})
	}
}

// TestPoisoningHookThenDenyThroughTheEngine: through the engine, with a
// cancellable fire context: a hook that throws a hostile value, then in
// the next fire (another session) a JS deny on the same pool. The deny
// holds.
func TestPoisoningHookThenDenyThroughTheEngine(t *testing.T) {
	p := newPool(t, script.WithSize(1))
	e, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	if err := e.Register(engine.Hook{ID: "poison", Event: "PreToolUse", When: `session_id == "a"`, Timeout: 100 * time.Millisecond,
		Handler: inline(t, p, `throw { toString() { throw 42; } };`)}); err != nil {
		t.Fatal(err)
	}
	if err := e.Register(engine.Hook{ID: "deny", Event: "PreToolUse", When: `session_id == "b"`, Timeout: time.Second,
		Handler: inline(t, p, `while (Date.now() < event.until) {} return { decision: "deny", reason: "no" };`)}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := e.Fire(ctx, engine.Event{Name: "PreToolUse", Payload: map[string]any{"session_id": "a", "tool_name": "Bash"}}); err != nil {
		t.Fatal(err)
	}
	cancel() // the first fire's context ends, as a served request's does
	// At once: the deny runs while any late callback of the first fire's
	// context would run, and spins a little so that it is still running.
	until := time.Now().Add(50 * time.Millisecond).UnixMilli()
	out, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{"session_id": "b", "tool_name": "Bash", "until": until}})
	if err != nil {
		t.Fatal(err)
	}
	if out.Decision != "deny" {
		tr, _ := out.Hook("deny")
		t.Fatalf("the deny vanished: %+v", tr)
	}
}

// TestWaitingForARuntimeCountsAgainstTheTimeout: with every runtime busy,
// a hook waits at most until its deadline and then times out (had it
// waited longer, it would have run once the busy call timed out, and
// answered).
func TestWaitingForARuntimeCountsAgainstTheTimeout(t *testing.T) {
	rid := &runtimeID{started: make(chan struct{}, 1)}
	p := newPool(t, script.WithSize(1), script.WithModule("rt", rid.module))
	busy := inline(t, p, `require("rt").started(); for (;;) {}`)
	quick := inline(t, p, `return { decision: "deny" };`)
	done := make(chan struct{})
	go func() {
		defer close(done)
		c := call(nil)
		c.Timeout = 3 * time.Second
		c.Deadline = time.Now().Add(c.Timeout)
		_, _ = busy.Handle(context.Background(), c)
	}()
	<-rid.started
	if st := p.Stats(); st.Size != 1 || st.InUse != 1 || st.Idle != 0 || st.OldestCall <= 0 {
		t.Errorf("stats while busy: %+v", st)
	}
	c := call(nil)
	c.Timeout = 200 * time.Millisecond
	c.Deadline = time.Now().Add(c.Timeout)
	res, err := quick.Handle(context.Background(), c)
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, script.ErrTimeout) {
		t.Fatalf("waiting hook: %v %v", res, err)
	}
	<-done
	if st := p.Stats(); st.InUse != 0 || st.OldestCall != 0 {
		t.Errorf("stats when idle: %+v", st)
	}
}

// TestWaitThenBlock: through the engine, a hook with on_error=block behind
// a busy pool times out at its deadline (not when the pool frees up) and
// blocks.
func TestWaitThenBlock(t *testing.T) {
	rid := &runtimeID{started: make(chan struct{}, 1)}
	p := newPool(t, script.WithSize(1), script.WithModule("rt", rid.module))
	e, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	if err := e.Register(engine.Hook{ID: "guard", Event: "PreToolUse", Timeout: 300 * time.Millisecond, OnError: engine.OnError{Policy: engine.ErrorBlock},
		Handler: inline(t, p, `return;`)}); err != nil {
		t.Fatal(err)
	}
	busy := inline(t, p, `require("rt").started(); for (;;) {}`)
	done := make(chan struct{})
	go func() {
		defer close(done)
		c := call(nil)
		c.Timeout = 3 * time.Second
		c.Deadline = time.Now().Add(c.Timeout)
		_, _ = busy.Handle(context.Background(), c)
	}()
	<-rid.started
	out, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{"tool_name": "Bash"}})
	if err != nil {
		t.Fatal(err)
	}
	if out.Decision != "deny" {
		t.Errorf("decision %q, want deny (on_error=block): %+v", out.Decision, out.Hooks)
	}
	if tr, _ := out.Hook("guard"); tr.Status != engine.StatusTimeout {
		t.Errorf("status %s, want timeout", tr.Status)
	}
	<-done
}

func TestStatsShape(t *testing.T) {
	p := newPool(t, script.WithSize(3))
	var st script.PoolStats = p.Stats()
	var _ int = st.Size + st.InUse + st.Idle
	var _ time.Duration = st.OldestCall
	if st.Size != 3 || st.InUse != 0 {
		t.Fatalf("%+v", st)
	}
	h := inline(t, p, `return { ok: true };`)
	if _, err := run(t, h, call(nil)); err != nil {
		t.Fatal(err)
	}
	st = p.Stats()
	if st.Idle < 1 || st.InUse != 0 {
		t.Fatalf("%+v", st)
	}
	// The runtime the call ran on was made, and that took time.
	if st.Created < 1 || st.CreateTime <= 0 {
		t.Fatalf("created %d in %v", st.Created, st.CreateTime)
	}
	_ = strings.TrimSpace
}

// TestLateInterruptOfThePreviousCall: a call's context ending, or its
// deadline timer firing, just as the call ends must not interrupt the next
// call on the runtime.
func TestLateInterruptOfThePreviousCall(t *testing.T) {
	p := newPool(t, script.WithSize(1))
	spin := inline(t, p, `const end = Date.now() + 1; while (Date.now() < end) {} return { ok: true };`)
	next := inline(t, p, `return { decision: "deny" };`)
	for i := range 100 {
		ctx, cancel := context.WithCancel(context.Background())
		c := call(nil)
		if i%2 == 1 {
			// The deadline timer instead of the context.
			c.Timeout = time.Millisecond
			c.Deadline = time.Now().Add(c.Timeout)
		} else {
			time.AfterFunc(time.Millisecond, cancel)
		}
		_, _ = spin.Handle(ctx, c)
		cancel()
		if res, err := run(t, next, call(nil)); err != nil || res["decision"] != "deny" {
			t.Fatalf("run %d: the next call was interrupted: %v %v", i, res, err)
		}
	}
}

// TestHugeThrownValuesAreCut: a thrown value's message is cut, however
// large the value or its toString.
func TestHugeThrownValuesAreCut(t *testing.T) {
	p := newPool(t)
	for _, body := range []string{
		`throw "é".repeat(1 << 22);`,
		`throw { toString() { return "x".repeat(1 << 22); } };`,
		`return Promise.reject("y".repeat(1 << 22));`,
		`throw new Error("z".repeat(1 << 22));`,
	} {
		_, err := run(t, inline(t, p, body), call(nil))
		if err == nil || len(err.Error()) > 20<<10 {
			n := 0
			if err != nil {
				n = len(err.Error())
			}
			t.Fatalf("%s: a %d-byte error", body, n)
		}
	}
}
