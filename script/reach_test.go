package script_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/script"
)

// escapedGuards name the engine's generated variables in spellings the
// parser decodes (\u escapes), as a destructured binding: were the
// generated names those, the payload's value would stand in for them.
var escapedGuards = []string{
	`const { command, _\u0024K0 } = event.tool_input; if (/\brm\b/.test(command)) return { decision: "deny", reason: "no rm" };`,
	`const { command, _\u{24}K0 } = event.tool_input; if (/\brm\b/.test(command)) return { decision: "deny", reason: "no rm" };`,
	`const { command, _\u0024R } = event.tool_input; if (/\brm\b/.test(command)) return { decision: "deny", reason: "no " + command };`,
	`const { command, _\u0024T0 } = event.tool_input; if (/\brm\b/.test(command)) return { decision: "deny", reason: "no rm" };`,
	`const { command, __hookctl_r\u0065K0 } = event.tool_input; if (/\brm\b/.test(command)) return { decision: "deny", reason: "no rm" };`,
	`var _\u0024K0 = event.tool_input._$K0; if (/\brm\b/.test(event.tool_input.command)) return { decision: "deny", reason: "no rm" };`,
}

// TestEscapedNamesCannotReachGeneratedNames: a handler that declares a
// generated name spelt with \u escapes gets its own variable, not the
// engine's: the payload it destructures into it changes nothing.
func TestEscapedNamesCannotReachGeneratedNames(t *testing.T) {
	p := newPool(t, script.WithSize(1))
	allow := map[string]any{"decision": "allow", "reason": "payload"}
	for _, body := range escapedGuards {
		h := inline(t, p, body)
		in := map[string]any{"command": "rm -rf /x"}
		for _, k := range []string{"_$K0", "_$R", "_$T0", "__hookctl_reK0"} {
			in[k] = allow
		}
		in["_$R"] = map[string]any{} // an object, not callable: calling it would throw
		in["_$T0"] = map[string]any{}
		res, err := run(t, h, call(map[string]any{"tool_input": in}))
		if err != nil || res["decision"] != "deny" {
			t.Errorf("%s: %v %v, want deny", body, res, err)
		}
	}
}

// TestGeneratedNamesKeepNoState: a handler that names the per-program test
// function (_$T0) with escapes does not reach it, so cannot keep state on
// it from one call (one session) to the next.
func TestGeneratedNamesKeepNoState(t *testing.T) {
	p := newPool(t, script.WithSize(1))
	h := inline(t, p, `try { _\u0024T0.calls = (_\u0024T0.calls || 0) + 1; return { reason: "calls=" + _\u0024T0.calls }; } catch (e) { return { reason: e.name }; } if (/\brm\b/.test(event.c)) return;`)
	for range 3 {
		res, err := run(t, h, call(map[string]any{"c": "rm"}))
		if err != nil || res["reason"] != "ReferenceError" {
			t.Fatalf("%v %v, want ReferenceError", res, err)
		}
	}
}

// TestInheritedResultFieldsAreRead: a result that inherits its decision
// (from a prototype, or a class's getter) is read as result.decision
// reads it, as Node's engine would.
func TestInheritedResultFieldsAreRead(t *testing.T) {
	p := newPool(t)
	for _, body := range []string{
		`return Object.create({decision: "deny", reason: "inherited"});`,
		`class R { get decision() { return "deny"; } get reason() { return "inherited"; } } return new R();`,
		`class B { constructor() { this.reason = "inherited"; } } B.prototype.decision = "deny"; return new B();`,
		`return Object.create(Object.create({decision: "deny"}), {reason: {value: "inherited", enumerable: true}});`,
	} {
		res, err := run(t, inline(t, p, body), call(nil))
		if err != nil || res["decision"] != "deny" || res["reason"] != "inherited" {
			t.Errorf("%s: %v %v, want deny", body, res, err)
		}
	}
	// What is not a result field is not read from the prototype; own keys
	// are read as before.
	res, err := run(t, inline(t, p, `return Object.assign(Object.create({other: 1, decision: "ask"}), {decision: "deny", mine: 2});`), call(nil))
	if err != nil || len(res) != 2 || res["decision"] != "deny" || res["mine"] != int64(2) {
		t.Errorf("%v %v", res, err)
	}
	// A getter that throws is the hook's error, as any throw.
	if _, err := run(t, inline(t, p, `class R { get decision() { throw new Error("boom"); } } return new R();`), call(nil)); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("a throwing getter: %v", err)
	}
}

// TestThenableResultsAreAwaited: a handler that returns a thenable is read
// as await reads it: what it settles to, under the deadline; one that never
// settles is an error, so the hook's on_error applies.
func TestThenableResultsAreAwaited(t *testing.T) {
	p := newPool(t)
	for _, body := range []string{
		`return { then(ok) { ok({decision: "deny"}); } };`,
		`return { then: function (ok) { ok({decision: "deny"}); } };`,
		`return { then(ok) { ok({ then(ok2) { ok2({decision: "deny"}); } }); } };`,
		`return { then(ok) { Promise.resolve().then(() => ok({decision: "deny"})); } };`,
		`class T { then(ok) { ok({decision: "deny"}); } } return new T();`,
		`return Object.create({ then(ok) { ok({decision: "deny"}); } });`,
	} {
		res, err := run(t, inline(t, p, body), call(nil))
		if err != nil || res["decision"] != "deny" {
			t.Errorf("%s: %v %v, want deny", body, res, err)
		}
	}
	if _, err := run(t, inline(t, p, `return { then(ok, no) { no(new Error("refused")); } };`), call(nil)); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("a rejecting thenable: %v", err)
	}
	if _, err := run(t, inline(t, p, `return { then() { throw new Error("thrown"); } };`), call(nil)); err == nil || !strings.Contains(err.Error(), "thrown") {
		t.Errorf("a throwing then: %v", err)
	}
	if _, err := run(t, inline(t, p, `return { then() {} };`), call(nil)); !errors.Is(err, script.ErrUnsettled) {
		t.Errorf("a thenable that never settles: %v, want ErrUnsettled", err)
	}
	if _, err := run(t, inline(t, p, `return { then(ok) { for (;;) {} } };`), call(nil)); !errors.Is(err, script.ErrTimeout) {
		t.Errorf("a thenable that spins: %v, want ErrTimeout", err)
	}
	// A then that is not callable is a plain key.
	res, err := run(t, inline(t, p, `return { then: 1, decision: "deny" };`), call(nil))
	if err != nil || res["decision"] != "deny" || res["then"] != int64(1) {
		t.Errorf("%v %v", res, err)
	}
}
