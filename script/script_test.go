package script_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dop251/goja"
	"go.uber.org/goleak"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/script"
)

func TestMain(m *testing.M) {
	// regexp2's clock runs a second past the last deadline it measured.
	goleak.VerifyTestMain(m, goleak.IgnoreCurrent(), goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock"))
}

func newPool(t testing.TB, opts ...script.Option) *script.Pool {
	t.Helper()
	p, err := script.NewPool("testdata/cfg", opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

func call(payload map[string]any) *engine.Call {
	return &engine.Call{Event: "PreToolUse", Hook: "h", Payload: payload, State: engine.NewState(nil), Timeout: time.Second, Deadline: time.Now().Add(time.Second)}
}

func run(t testing.TB, h engine.Handler, c *engine.Call) (engine.Result, error) {
	t.Helper()
	return h.Handle(context.Background(), c)
}

func inline(t testing.TB, p *script.Pool, body string, allow ...string) engine.Handler {
	t.Helper()
	prog, err := p.CompileInline("hooks.hcl", body, 10)
	if err != nil {
		t.Fatal(err)
	}
	return p.Handler(prog, allow...)
}

func TestInlineHandler(t *testing.T) {
	p := newPool(t)
	h := inline(t, p, `
		if (event.tool_name !== "Bash") return;
		return { decision: "deny", reason: "no " + event.tool_input.command + " in " + ctx.event + " by " + ctx.hook };
	`)
	res, err := run(t, h, call(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}))
	if err != nil {
		t.Fatal(err)
	}
	if res["decision"] != "deny" || res["reason"] != "no ls in PreToolUse by h" {
		t.Fatalf("%v", res)
	}
	res, err = run(t, h, call(map[string]any{"tool_name": "Read"}))
	if err != nil || res != nil {
		t.Fatalf("%v %v", res, err)
	}
}

func TestScriptFileWithRelativeRequireAndState(t *testing.T) {
	p := newPool(t)
	prog, err := p.CompileFile("pip_to_uv.js")
	if err != nil {
		t.Fatal(err)
	}
	h := p.Handler(prog)
	c := call(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "pip install requests", "description": "d"}})
	res, err := run(t, h, c)
	if err != nil {
		t.Fatal(err)
	}
	ui := res["updated_input"].(map[string]any)
	if ui["command"] != "uv pip install requests" || ui["description"] != "d" {
		t.Fatalf("%v", res)
	}
	if v, _ := c.State.Get("rewrote"); v != true {
		t.Fatalf("state %v", v)
	}
	// The caller's payload is untouched.
	if c.Payload["tool_input"].(map[string]any)["command"] != "pip install requests" {
		t.Fatal("payload modified")
	}
}

// TestEventToolIsCanonical: event.tool is the canonical name of the
// payload's tool even when the engine did not add it (a JS hook does so
// itself), and a tool field the payload has wins.
func TestEventToolIsCanonical(t *testing.T) {
	p := newPool(t)
	h := inline(t, p, `return { tool: event.tool, has: "tool" in event };`)
	for _, tc := range []struct {
		payload map[string]any
		want    any
	}{
		{map[string]any{"tool_name": "run_shell_command"}, "Bash"},
		{map[string]any{"toolName": "view"}, "Read"},
		{map[string]any{"tool_name": "view", "tool": "Read"}, "Read"},
		{map[string]any{"prompt": "hi"}, nil},
	} {
		res, err := run(t, h, call(tc.payload))
		if err != nil {
			t.Fatal(err)
		}
		if res["tool"] != tc.want || res["has"] != (tc.want != nil) {
			t.Errorf("%v: %v", tc.payload, res)
		}
	}
}

func TestPayloadIsReadOnly(t *testing.T) {
	p := newPool(t)
	h := inline(t, p, `
		event.tool_name = "Write";
		event.tool_input.command = "rm -rf /";
		delete event.session_id;
		event.added = 1;
		return { name: event.tool_name, cmd: event.tool_input.command, same: event.tool_input === event.tool_input, keys: Object.keys(event).join(",") };
	`)
	payload := map[string]any{"tool_name": "Bash", "session_id": "s", "tool_input": map[string]any{"command": "ls"}}
	res, err := run(t, h, call(payload))
	if err != nil {
		t.Fatal(err)
	}
	if res["name"] != "Bash" || res["cmd"] != "ls" || res["same"] != true || res["keys"] != "session_id,tool,tool_input,tool_name" {
		t.Fatalf("%v", res)
	}
	if payload["tool_name"] != "Bash" || payload["tool_input"].(map[string]any)["command"] != "ls" || len(payload) != 3 {
		t.Fatalf("payload changed: %v", payload)
	}
	strict := inline(t, p, `"use strict"; event.tool_name = "x";`)
	if _, err := run(t, strict, call(payload)); err == nil || !strings.Contains(err.Error(), "TypeError") {
		t.Fatalf("strict-mode write: %v", err)
	}
}

func TestSyntaxErrorsAtLoad(t *testing.T) {
	p := newPool(t)
	_, err := p.CompileInline("hooks.hcl", "\n  let x = );\n", 20)
	var se *script.SyntaxError
	if !errors.As(err, &se) || se.File != "hooks.hcl" || se.Line != 21 {
		t.Fatalf("inline: %#v", err)
	}
	_, err = p.CompileFile("syntax.js")
	if !errors.As(err, &se) || !strings.HasSuffix(se.File, "syntax.js") || se.Line != 2 {
		t.Fatalf("file: %#v", err)
	}
	if !strings.Contains(err.Error(), "syntax.js:2:") {
		t.Fatalf("message %q", err)
	}
}

func TestLoadTimeProblems(t *testing.T) {
	p := newPool(t)
	for _, tc := range []struct{ file, want string }{
		{"notfn.js", "must export a function"},
		{"missing_dep.js", "does-not-exist"},
		{"nope.js", "no such file"},
		{"../outside/secret.js", "outside the configuration directory"},
	} {
		_, err := p.CompileFile(tc.file)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.file, err, tc.want)
		}
	}
}

func TestRequireCannotLeaveTheConfigDir(t *testing.T) {
	p := newPool(t)
	prog, err := p.CompileFile("escape.js")
	if err != nil {
		t.Fatal(err)
	}
	_, err = run(t, p.Handler(prog), call(nil))
	if err == nil || !strings.Contains(err.Error(), "secret.js") {
		t.Fatalf("escape: %v", err)
	}
	h := inline(t, p, `return require("/etc/passwd");`)
	if _, err := run(t, h, call(nil)); err == nil {
		t.Fatal("absolute require outside the config dir succeeded")
	}
	h = inline(t, p, `return { t: typeof process + typeof require("util") };`)
	if res, err := run(t, h, call(nil)); err != nil || res["t"] != "undefinedobject" {
		t.Fatalf("%v %v", res, err)
	}
}

func TestRuntimeErrorsCarryPositionAndStack(t *testing.T) {
	p := newPool(t)
	prog, err := p.CompileFile("throws.js")
	if err != nil {
		t.Fatal(err)
	}
	_, err = run(t, p.Handler(prog), call(map[string]any{}))
	var se *script.Error
	if !errors.As(err, &se) {
		t.Fatalf("%#v", err)
	}
	if !strings.HasSuffix(se.File, "throws.js") || se.Line != 6 || !strings.Contains(se.Message, "TypeError") {
		t.Fatalf("%+v", se)
	}
	if !strings.Contains(se.Stack, "helper") || !strings.Contains(se.Stack, "throws.js:2:") {
		t.Fatalf("stack %q", se.Stack)
	}
	h := inline(t, p, "\nthrow new Error('boom');")
	_, err = run(t, h, call(nil))
	if !errors.As(err, &se) || se.File != "hooks.hcl" || se.Line != 11 || !strings.Contains(se.Message, "boom") {
		t.Fatalf("%+v", err)
	}
}

// TestTimeoutInterruptsThenPoolServes: an infinite loop stops at its
// deadline and the next call on the same pool runs normally.
func TestTimeoutInterruptsThenPoolServes(t *testing.T) {
	p := newPool(t, script.WithSize(1))
	loop := inline(t, p, `while (true) {}`)
	ok := inline(t, p, `return { fine: true };`)
	c := call(nil)
	c.Timeout = 50 * time.Millisecond
	_, err := run(t, loop, c)
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, script.ErrTimeout) {
		t.Fatalf("loop: %v", err)
	}
	for range 3 {
		res, err := run(t, ok, call(nil))
		if err != nil || res["fine"] != true {
			t.Fatalf("after interrupt: %v %v", res, err)
		}
	}
}

// runStopped runs h with timeout, stopping it after 5 s through its
// context if the deadline did not, and returns the time it took and the
// error.
func runStopped(t *testing.T, h engine.Handler, timeout time.Duration) (time.Duration, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := time.AfterFunc(5*time.Second, cancel)
	defer stop.Stop()
	c := call(nil)
	start := time.Now()
	c.Timeout, c.Deadline = timeout, start.Add(timeout)
	_, err := h.Handle(ctx, c)
	return time.Since(start), err
}

// The deadline timer stays set between calls: a call with a later
// deadline than it is set for is still interrupted at its own deadline,
// not at the earlier one and not never.
func TestTimeoutAfterACallWithAnEarlierDeadline(t *testing.T) {
	p := newPool(t, script.WithSize(1))
	ok := inline(t, p, `return { fine: true };`)
	loop := inline(t, p, `for (;;) {}`)
	if _, err := run(t, ok, call(nil)); err != nil { // the runtime made
		t.Fatal(err)
	}
	if _, err := runStopped(t, ok, 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	took, err := runStopped(t, loop, time.Second)
	if !errors.Is(err, script.ErrTimeout) {
		t.Fatalf("the loop was not stopped at its deadline: %v after %s", err, took)
	}
	if took < time.Second {
		// Never early (not never either: runStopped's cancel would have
		// ended it with another error).
		t.Fatalf("the loop with a 1s timeout was stopped after %s", took)
	}
}

// ... and a call whose deadline is earlier than the one the timer is set
// for moves it.
func TestTimeoutAfterACallWithALaterDeadline(t *testing.T) {
	p := newPool(t, script.WithSize(1))
	ok := inline(t, p, `return { fine: true };`)
	loop := inline(t, p, `for (;;) {}`)
	if _, err := runStopped(t, ok, time.Hour); err != nil {
		t.Fatal(err)
	}
	took, err := runStopped(t, loop, 50*time.Millisecond)
	if !errors.Is(err, script.ErrTimeout) { // not at the hour the timer was set for: runStopped's cancel
		t.Fatalf("the loop was not stopped at its deadline: %v after %s", err, took)
	}
}

func TestCancelledContextInterrupts(t *testing.T) {
	p := newPool(t)
	loop := inline(t, p, `for (;;) {}`)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(30*time.Millisecond, cancel)
	c := call(nil)
	c.Timeout = time.Minute
	_, err := loop.Handle(ctx, c)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("%v", err)
	}
}

func TestDeepRecursionIsContained(t *testing.T) {
	p := newPool(t, script.WithSize(1))
	h := inline(t, p, `function f(n) { return f(n + 1) + 1; } return { v: f(0) };`)
	_, err := run(t, h, call(nil))
	if !errors.Is(err, script.ErrStackOverflow) {
		t.Fatalf("%v", err)
	}
	caught := inline(t, p, `function f() { return f(); } try { f(); } catch (e) { return { caught: String(e) }; }`)
	res, err := run(t, caught, call(nil))
	if err != nil && !errors.Is(err, script.ErrStackOverflow) {
		t.Fatalf("%v", err)
	}
	_ = res
	ok := inline(t, p, `return { fine: 1 };`)
	if res, err := run(t, ok, call(nil)); err != nil || res["fine"] != int64(1) {
		t.Fatalf("%v %v", res, err)
	}
}

func TestThrownRuntimeIsReused(t *testing.T) {
	p := newPool(t, script.WithSize(1))
	counter := inline(t, p, `return { n: require("./store.js").next() };`)
	boom := inline(t, p, `throw new TypeError("x")`)
	if res, _ := run(t, counter, call(nil)); res["n"] != int64(1) {
		t.Fatal(res)
	}
	if _, err := run(t, boom, call(nil)); err == nil {
		t.Fatal("no error")
	}
	if res, _ := run(t, counter, call(nil)); res["n"] != int64(2) {
		t.Fatalf("the runtime was not reused after a throw: %v", res)
	}
}

func TestAsyncHandlers(t *testing.T) {
	p := newPool(t)
	h := inline(t, p, `
		const v = await Promise.resolve(41);
		return { decision: "allow", reason: "answer " + (v + 1) };
	`)
	// An inline body is a plain function; make an async one.
	_ = h
	prog, err := p.CompileInline("hooks.hcl", `return (async () => { const v = await Promise.resolve(41); return { n: v + 1 }; })();`, 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := run(t, p.Handler(prog), call(nil))
	if err != nil || res["n"] != int64(42) {
		t.Fatalf("%v %v", res, err)
	}
	rejected := inline(t, p, `return Promise.reject(new Error("nope"));`)
	if _, err := run(t, rejected, call(nil)); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("%v", err)
	}
	pending := inline(t, p, `return new Promise(() => {});`)
	if _, err := run(t, pending, call(nil)); !errors.Is(err, script.ErrUnsettled) {
		t.Fatalf("%v", err)
	}
}

func TestCtxObject(t *testing.T) {
	p := newPool(t)
	h := inline(t, p, `
		ctx.state.count = (ctx.state.count || 0) + 1;
		ctx.state.obj = { a: [1, 2] };
		ctx.log.info("hello", { k: "v" });
		console.log("from console");
		return { keys: Object.keys(ctx).join(","), deadline: ctx.deadline instanceof Date, allow: ctx.allow.join(","), count: ctx.state.count, a1: ctx.state.obj.a[1] };
	`, "exec")
	c := call(nil)
	res, err := run(t, h, c)
	if err != nil {
		t.Fatal(err)
	}
	if res["keys"] != "allow,deadline,event,hook,log,state" || res["deadline"] != true || res["allow"] != "exec" || res["count"] != int64(1) || res["a1"] != int64(2) {
		t.Fatalf("%v", res)
	}
	obj, _ := c.State.Get("obj")
	if obj.(map[string]any)["a"].([]any)[0] != int64(1) {
		t.Fatalf("state holds %#v", obj)
	}
}

func TestNonObjectResultIsAnError(t *testing.T) {
	p := newPool(t)
	h := inline(t, p, `return "deny";`)
	_, err := run(t, h, call(nil))
	want := `hooks.hcl:10:1: TypeError: the handler returned the string "deny", not an object; a handler returns an object of result fields: return { decision: "deny", reason: "..." }, or nothing for no opinion`
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
}

func TestNativeModulesAndCapabilities(t *testing.T) {
	p := newPool(t, script.WithModule("hookctl/test", func(vm *script.VM, module *goja.Object) {
		exports := module.Get("exports").(*goja.Object)
		_ = exports.Set("run", func(c goja.FunctionCall) goja.Value {
			vm.Require("exec", "test.run")
			return vm.Runtime().ToValue("ran for " + vm.Call().Hook)
		})
	}))
	denied := inline(t, p, `return { out: require("hookctl/test").run() };`)
	_, err := run(t, denied, call(nil))
	if err == nil || !strings.Contains(err.Error(), `needs the "exec" capability`) {
		t.Fatalf("%v", err)
	}
	allowed := inline(t, p, `return { out: require("hookctl/test").run() };`, "exec")
	res, err := run(t, allowed, call(nil))
	if err != nil || res["out"] != "ran for h" {
		t.Fatalf("%v %v", res, err)
	}
}

func TestConcurrentCalls(t *testing.T) {
	p := newPool(t, script.WithSize(3))
	h := inline(t, p, `let s = 0; for (let i = 0; i < 100; i++) s += i; ctx.state.s = s; return { s: s, cmd: event.cmd };`)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 50 {
				cmd := string(rune('a'+i)) + string(rune('a'+j%26))
				res, err := run(t, h, call(map[string]any{"cmd": cmd}))
				if err != nil || res["s"] != int64(4950) || res["cmd"] != cmd {
					t.Error(res, err)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestEngineIntegration(t *testing.T) {
	p := newPool(t)
	e, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	prog, err := p.CompileFile("pip_to_uv.js")
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(e.Register(engine.Hook{ID: "pip-to-uv", Event: "PreToolUse", Matcher: "Bash", Priority: 10, Handler: p.Handler(prog)}))
	must(e.Register(engine.Hook{ID: "after", Event: "PreToolUse", When: "state.rewrote == true", Handler: inline(t, p, `return { additional_context: "saw " + event.tool_input.command };`)}))
	must(e.Register(engine.Hook{ID: "loop", Event: "PreToolUse", Timeout: 20 * time.Millisecond, Priority: -1, Handler: inline(t, p, `while(1){}`)}))
	out, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "pip install x"}}})
	if err != nil {
		t.Fatal(err)
	}
	if out.UpdatedInput["command"] != "uv pip install x" || out.AdditionalContext != "pip was rewritten to uv pip\n\nsaw uv pip install x" {
		t.Fatalf("%+v", out)
	}
	if tr, _ := out.Hook("loop"); tr.Status != engine.StatusTimeout || tr.Handler != "js" {
		t.Fatalf("%+v", tr)
	}
}

// TestPayloadChangesBetweenFiresAreSeen: a caller may reuse and change its
// payload map between fires; no cached view may serve stale values.
func TestPayloadChangesBetweenFiresAreSeen(t *testing.T) {
	p := newPool(t, script.WithSize(1))
	e, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	for i, id := range []string{"a", "b"} {
		if err := e.Register(engine.Hook{ID: id, Event: "UserPromptSubmit", Priority: -i,
			Handler: inline(t, p, `return { additional_context: ctx.hook + ":" + event.prompt + ":" + event.meta.n };`)}); err != nil {
			t.Fatal(err)
		}
	}
	payload := map[string]any{"prompt": "one", "meta": map[string]any{"n": 1.0}}
	for _, want := range []string{"a:one:1\n\nb:one:1", "a:two:2\n\nb:two:2"} {
		out, err := e.Fire(context.Background(), engine.Event{Name: "UserPromptSubmit", Payload: payload})
		if err != nil {
			t.Fatal(err)
		}
		if out.AdditionalContext != want {
			t.Fatalf("got %q, want %q", out.AdditionalContext, want)
		}
		payload["prompt"] = "two"
		payload["meta"] = map[string]any{"n": 2.0}
	}
}

// TestScriptsThatWaitRunOnThePool: a void script hook allowed to exec or
// use the network is not run inline, so such hooks overlap their waits.
func TestScriptsThatWaitRunOnThePool(t *testing.T) {
	p := newPool(t)
	for allow, want := range map[string]bool{"": true, "read": true, "exec": false, "net": false, "all": false} {
		var caps []string
		if allow != "" {
			caps = []string{allow}
		}
		h := inline(t, p, `return;`, caps...)
		if got := h.(engine.Inliner).Inline(); got != want {
			t.Errorf("allow %q: Inline() = %v, want %v", allow, got, want)
		}
	}
}

// TestHostileResults: results whose reading runs script code that throws,
// loops or recurses are errors of the hook, never a crash.
func TestHostileResults(t *testing.T) {
	p := newPool(t, script.WithSize(1))
	ok := inline(t, p, `return { fine: true };`)
	for body, want := range map[string]string{
		`return { get a() { throw new TypeError("getter"); } };`:                       "getter",
		`return { a: { get b() { throw new Error("deep"); } } };`:                      "deep",
		`return { get a() { while (true) {} } };`:                                      "deadline",
		`return { get a() { const f = () => f(); return f(); } };`:                     "stack",
		`return Promise.reject({ get stack() { throw new Error("stack getter"); } });`: "stack getter",
		`return new Proxy({}, { ownKeys() { throw new Error("trap"); } });`:            "trap",
	} {
		h := inline(t, p, body)
		c := call(nil)
		c.Timeout = 100 * time.Millisecond
		c.Deadline = time.Now().Add(c.Timeout)
		_, err := run(t, h, c)
		if err == nil || !strings.Contains(strings.ToLower(err.Error()), want) {
			t.Errorf("%s: %v, want an error with %q", body, err, want)
		}
		if res, err := run(t, ok, call(nil)); err != nil || res["fine"] != true {
			t.Fatalf("after %s the pool does not serve: %v %v", body, res, err)
		}
	}
}

// TestPrewarm: a prewarmed pool hands out the runtime it made, and closing
// it while the runtime is being made leaks nothing (goleak checks).
func TestPrewarm(t *testing.T) {
	p := newPool(t, script.WithSize(1))
	p.Prewarm()
	h := inline(t, p, `return { ok: true };`)
	if res, err := run(t, h, call(nil)); err != nil || res["ok"] != true {
		t.Fatal(res, err)
	}
	q, err := script.NewPool("testdata/cfg")
	if err != nil {
		t.Fatal(err)
	}
	q.Prewarm()
	q.Close()
}

// TestLargePayloadWalk: a script walking every field of a large object
// sees each nested value as one object, however many fields it reads.
func TestLargePayloadWalk(t *testing.T) {
	p := newPool(t)
	big := map[string]any{}
	for i := range 2000 {
		big[fmt.Sprint("k", i)] = map[string]any{"n": float64(i)}
	}
	h := inline(t, p, `
		let sum = 0, same = true;
		for (const k of Object.keys(event.big)) { sum += event.big[k].n; same = same && event.big[k] === event.big[k]; }
		return { sum, same };
	`)
	res, err := run(t, h, call(map[string]any{"big": big}))
	if err != nil || res["sum"] != int64(1999*2000/2) || res["same"] != true {
		t.Fatalf("%v %v", res, err)
	}
}

// TestEmptyReturnInAFreshPool: a pool whose hooks return no key that is
// not constant (`return {}`, or a constant deny and `return {}`) had no
// interned result keys, and reading the empty result panicked: the hook
// failed, which on_error = "block" turned into a block of every call.
func TestEmptyReturnInAFreshPool(t *testing.T) {
	for _, body := range []string{
		`return {}`,
		`return ({})`,
		"if (/\\brm\\b/.test(event.tool_input.command)) return {decision: \"deny\"}\nreturn {}",
	} {
		p := newPool(t)
		h := inline(t, p, body)
		for _, cmd := range []string{"ls", "rm -rf x"} {
			res, err := run(t, h, call(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}}))
			if err != nil {
				t.Fatalf("%q on %q: %v", body, cmd, err)
			}
			if want := strings.Contains(body, "deny") && cmd != "ls"; (res["decision"] == "deny") != want {
				t.Fatalf("%q on %q: %v", body, cmd, res)
			}
		}
	}
}
