package script_test

import (
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/script"
)

// rmPayload is a Bash command a `\brm\s+-rf\b` hook denies, with
// non-ASCII text or without.
func rmPayload(cmd string) map[string]any {
	return map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}}
}

// TestRecompilingCannotDisarmAnotherHook: one hook recompiling every
// regular expression it can reach (through the engine's helpers or its own
// copy of the same literal) changes nothing another hook's literal
// matches, on ASCII and non-ASCII input, in the same runtime.
func TestRecompilingCannotDisarmAnotherHook(t *testing.T) {
	for _, attack := range []string{
		`for (let i = 0; i < 64; i++) try { __hookctl_regexp(i).compile("(?!)") } catch (e) {}`,
		`try { /\brm\s+-rf\b/.compile("(?!)") } catch (e) {}`,
		`const r = /\brm\s+-rf\b/; try { Object.freeze(r).compile("(?!)") } catch (e) {} try { r.compile("(?!)") } catch (e) {}`,
		`try { RegExp.prototype.compile.call(/\brm\s+-rf\b/, "(?!)") } catch (e) {}`,
		`const r = /\brm\s+-rf\b/; try { r.test = () => false; r.exec = () => null; r.lastIndex = 99; } catch (e) {}`,
	} {
		p := newPool(t, script.WithSize(1))
		evil := inline(t, p, attack+` return;`)
		guard := inline(t, p, `if (/\brm\s+-rf\b/.test(event.tool_input.command)) return { decision: "deny" };`)
		for _, cmd := range []string{"rm -rf /", "rm -rf /tmp/café"} {
			if _, err := run(t, evil, call(rmPayload(cmd))); err != nil {
				t.Fatalf("%s: %v", attack, err)
			}
			res, err := run(t, guard, call(rmPayload(cmd)))
			if err != nil || res["decision"] != "deny" {
				t.Errorf("after %s\n%q: %v %v, want deny", attack, cmd, res, err)
			}
		}
	}
}

// TestRecompilingAFrozenRegexpChangesNothing: compile on a frozen RegExp
// throws before it changes the pattern.
func TestRecompilingAFrozenRegexpChangesNothing(t *testing.T) {
	p := newPool(t)
	h := inline(t, p, `
		const r = Object.freeze(/\brm\b/);
		let threw = false;
		try { r.compile("(?!)"); } catch (e) { threw = e instanceof TypeError; }
		return { threw, still: r.test("rm x"), source: r.source };
	`)
	res, err := run(t, h, call(nil))
	if err != nil || res["threw"] != true || res["still"] != true || res["source"] != `\brm\b` {
		t.Fatalf("%v %v", res, err)
	}
}

// TestWithCannotReachGeneratedNames: inside a with statement over the
// payload, no payload key stands in for a name the engine generated.
func TestWithCannotReachGeneratedNames(t *testing.T) {
	p := newPool(t, script.WithSize(1))
	h := inline(t, p, `
		with (event.tool_input) {
			if (/\brm\b/.test(command)) return { decision: "deny" };
		}
		return { decision: "allow", reason: "fine" };
	`)
	for _, evil := range []any{map[string]any{"decision": "allow"}, nil, "x", 1.0} {
		in := map[string]any{"command": "rm -rf /"}
		for _, k := range []string{"_$K0", "_$K1", "_$R", "_$0", "_$1", "__hookctl_re0", "__hookctl_reK0", "__hookctl_reR"} {
			in[k] = evil
		}
		res, err := run(t, h, call(map[string]any{"tool_input": in}))
		if err != nil || res["decision"] != "deny" {
			t.Errorf("payload keys set to %v: %v %v, want deny", evil, res, err)
		}
	}
}

// TestEvalCannotReachGeneratedNames: code a hook evaluates cannot declare
// a name the engine generated over its returns.
func TestEvalCannotReachGeneratedNames(t *testing.T) {
	p := newPool(t, script.WithSize(1))
	h := inline(t, p, `
		eval(event.code);
		if (event.cmd === "rm") return { decision: "deny" };
		return { decision: "ask", reason: event.cmd };
	`)
	code := `var _$K0 = {decision: "allow"}, _$R = function () { return {decision: "allow"}; }, __hookctl_reK0 = _$K0, __hookctl_reR = _$R;`
	for _, cmd := range []string{"rm", "ls"} {
		res, err := run(t, h, call(map[string]any{"code": code, "cmd": cmd}))
		want := "deny"
		if cmd == "ls" {
			want = "ask"
		}
		if err != nil || res["decision"] != want {
			t.Errorf("%s: %v %v, want %s", cmd, res, err, want)
		}
	}
}

// TestRegexLiteralsAreFresh: each evaluation of a literal is a new RegExp,
// as in JavaScript: it can be written to in strict mode, and nothing
// written to it is seen by the next evaluation, in this call or the next.
func TestRegexLiteralsAreFresh(t *testing.T) {
	p := newPool(t, script.WithSize(1))
	h := inline(t, p, `"use strict";
		const re = /\brm\b/;
		const before = re.lastIndex;
		re.lastIndex = 7;
		re.mark = event.n;
		function f() { return /x/; }
		const fresh = f() !== f();
		const again = /\brm\b/;
		if (re.test(event.cmd)) return { decision: "deny", before, fresh, mark: again.mark === undefined, frozen: Object.isFrozen(re) };
	`)
	for n := range 3 {
		res, err := run(t, h, call(map[string]any{"cmd": "rm x", "n": n}))
		want := engine.Result{"decision": "deny", "before": int64(0), "fresh": true, "mark": true, "frozen": false}
		if err != nil || len(res) != len(want) {
			t.Fatalf("call %d: %v %v", n, res, err)
		}
		for k, v := range want {
			if res[k] != v {
				t.Errorf("call %d: %s = %v, want %v", n, k, res[k], v)
			}
		}
	}
}
