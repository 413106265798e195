package script

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsrewrite"
)

// referenceProgram compiles body the plain way: no rewriting.
func referenceProgram(t *testing.T, p *Pool, body string, line int) *Program {
	t.Helper()
	header := "(function (event, ctx) {"
	if strings.Contains(body, "await") {
		header = "(async function (event, ctx) {"
	}
	prog, err := compile("hooks.hcl", strings.Repeat("\n", line-1)+header+body+"\n})")
	if err != nil {
		t.Fatal(err)
	}
	return p.add(&Program{Name: "hooks.hcl", inline: prog})
}

var rewriteBodies = []string{
	`return {decision: "deny", reason: "x"};`,
	`const decision = "ask"; return {decision};`,
	`const decision = "ask"; return {decision, reason: "r"};`,
	`return {"decision": "allow", 'reason': 'r'};`,
	`return {a: 1,};`,
	`return {continue: false, stop_reason: "s", if: 1, return: 2};`,
	`return {decision: undefined, reason: "r"};`,
	`return {decision: undefined};`,
	`return {};`,
	`return {decision: null};`,
	`const f = () => { return {x: 1}; }; const o = f(); return {y: o.x, proto: Object.getPrototypeOf(o) === Object.prototype};`,
	`function g() { return {a: 2}; } const o = g(); return o;`,
	`const o = (function () { return {a: 3}; })(); return {b: o.a, keys: Object.keys(o).join()};`,
	`class C { m() { return {a: 4}; } } return new C().m();`,
	`try { return {a: 1}; } finally { return {b: 2}; }`,
	`try { return {a: 1}; } finally { return; }`,
	`try { return {a: 1}; } finally { ctx.state.fin = true; }`,
	`return {__proto__: null, a: 1};`,
	`const k = "dyn"; return {[k]: 1, b: 2};`,
	`return {...event.tool_input, extra: 1};`,
	`return {get a() { return 1; }, b: 2};`,
	`return {toString() { return "x"; }, b: 2};`,
	`return {1: "one", b: 2};`,
	`return {a: 1, a: 2};`,
	`return {updated_input: {command: "x", n: [1, 2, {d: true}]}, n: 1.5, big: 12345678901};`,
	`return {reason: event.nope.deep};`,
	"return {\n  decision: \"deny\",\n  reason: event.x.y,\n};",
	"return {decision: \"deny\",\n   reason: event.x.y};",
	`const x = await Promise.resolve(1); return {n: x};`,
	`return {m: /sudo/.test(event.tool_input.command), g: /s/g.test("s")};`,
	`for (const i of [1, 2, 3]) { if (i === 2) return {i}; }`,
	`switch (event.tool_name) { case "Bash": return {t: "bash"}; default: return {t: "other"}; }`,
	`return ({a: 1});`,
	`return { /* c */ decision: "deny" };`,
	`return { decision /* x */ : "deny" };`,
	`if (event.tool_name === "Bash") return {decision: "deny", reason: "no " + event.tool_input.command};`,
	`const r = {a: 1}; return r;`,
	`return {a: 1}, {b: 2};`,
	`return {ok: 1, x: event.tool_input.command.toUpperCase()};`,
	`return {a: (() => { return {inner: 1}; })().inner};`,
	`return {e: eval("({q: 1})").q};`,
	// Constant returns: built once, the same result as the object's.
	`return {n: 1.5, i: 3, f: 3.0, big: 9007199254740993, e: 1e21, h: 0x10, d: .5, x: 1e999, s: 'q', t: true, u: false, z: null};`,
	`return {n: -1, m: 1};`,
	`return {a: 9007199254740992, b: 9007199254740993, c: 18014398509481984, d: 123456789012345678901234567890};`,
	`return {s: "a\\nb", t: 1};`,
	`return {s: "café", t: 1};`,
	`return {s: "\\u00e9"};`,
	`return{a:1};`,
	"return {\n  decision: \"deny\", // why\n  reason: \"r\"\n}; undefined.x;",
	"if (event.tool_name === \"Read\") return {\n  a: 1,\n  b: 2 }; undefined.y;",
	`const x = await Promise.resolve(1); return {n: 1, s: "async"};`,
	`return {a: 1, a: "two", b: null, b: 3};`,
	`return {a: undefined};`,
	`return {t: ` + "`tpl`" + `};`,
	`return {a: 1, __proto__: {b: 2}};`,
	// Tested literals: a test function of their own.
	`if (/abcd/.test(Symbol())) return {a: 1};`,
	`if (/abcd/.test({ toString() { throw new Error("x"); } })) return {a: 1};`,
	`const t = /(?=sudo)sudo/i.test(event.tool_input.command); return {t, u: /sudo/i.test(), v: /a.c/s.test("a\nc"), w: /\bsudo\b/.test(event.tool_input.command)};`,
	`const f = () => /abcd/.test(undefined.x); return {a: f()};`,
}

// TestRewriteIsInvisible runs every body rewritten and plain, on the same
// payloads, and wants the same results and the same errors at the same
// positions.
func TestRewriteIsInvisible(t *testing.T) {
	p, err := NewPool(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	payloads := []map[string]any{
		{"tool_name": "Bash", "tool_input": map[string]any{"command": "sudo ls"}, "x": map[string]any{"y": "z"}},
		{"tool_name": "Read", "tool_input": map[string]any{"command": "cat"}},
	}
	rewritten := 0
	for _, body := range rewriteBodies {
		// On a line of its own, as in a heredoc: the first line's
		// columns are checked by TestFirstLineColumns.
		body = "\n" + body
		fast, err := p.CompileInline("hooks.hcl", body, 7)
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		ref := referenceProgram(t, p, body, 7)
		if src := fmtProgram(p, body); fast.inline != nil && (strings.Contains(src, resultHelper) || strings.Contains(src, constHelper)) {
			rewritten++
		}
		for _, payload := range payloads {
			got, gotErr := runOnce(t, p, fast, payload)
			want, wantErr := runOnce(t, p, ref, payload)
			if !reflect.DeepEqual(funcsOut(got), funcsOut(want)) {
				t.Errorf("%s\n got  %#v\n want %#v", body, got, want)
			}
			if (gotErr == nil) != (wantErr == nil) {
				t.Errorf("%s: error %v, want %v", body, gotErr, wantErr)
				continue
			}
			var ge, we *Error
			if errors.As(gotErr, &ge) && errors.As(wantErr, &we) {
				if ge.Line != we.Line || ge.Column != we.Column || ge.Message != we.Message {
					t.Errorf("%s: error at %d:%d %q, want %d:%d %q", body, ge.Line, ge.Column, ge.Message, we.Line, we.Column, we.Message)
				}
			}
		}
	}
	if rewritten < 20 {
		t.Fatalf("only %d bodies were rewritten", rewritten)
	}
}

// funcsOut replaces exported functions and pointers (a promise, a
// regexp), which never compare equal, by their types.
func funcsOut(r engine.Result) engine.Result {
	for k, v := range r {
		if t := reflect.TypeOf(v); t != nil && (t.Kind() == reflect.Func || t.Kind() == reflect.Pointer) {
			r[k] = "<" + t.String() + ">"
		}
	}
	return r
}

// fmtProgram returns the rewritten source of an inline body.
func fmtProgram(p *Pool, body string) string {
	fn := "(function (event, ctx) {"
	decls, out := jsrewrite.Rewrite(fn+body+"\n})", len(fn), len(fn)+len(body), p.rewriteOptions())
	return decls + out
}

func runOnce(t *testing.T, p *Pool, prog *Program, payload map[string]any) (engine.Result, error) {
	t.Helper()
	call := &engine.Call{Event: "PreToolUse", Hook: "h", Payload: payload, State: engine.NewState(nil), Timeout: time.Second}
	return p.Handler(prog).Handle(t.Context(), call)
}

func TestRewriteShapes(t *testing.T) {
	p, err := NewPool(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, c := range []struct{ body, want string }{
		{`return {decision: "deny", reason: "x"};`, `var _$K0=__hookctl_const(0);(function (event, ctx) {return _$K0                           ;` + "\n})"},
		{`return {decision: "deny", reason: event.r};`, `var _$R=__hookctl_result;(function (event, ctx) {return _$R(0,     "deny", 1,      event.r);` + "\n})"},
		{`return {a: (() => { return {b: 1}; })()};`, `var _$R=__hookctl_result;(function (event, ctx) {return _$R(2,(() => { return {b: 1}; })());` + "\n})"},
		{"if (x) return {\n  a: 1 };\nreturn{b:2};", "var _$K0=__hookctl_const(1),_$K1=__hookctl_const(2);(function (event, ctx) {if (x) return _$K0\n        ;\nreturn _$K1;\n})"},
		{`return {s: "a\\n"};`, `var _$R=__hookctl_result;(function (event, ctx) {return _$R(3,"a\\n");` + "\n})"},
		{`return {...x};`, "(function (event, ctx) {return {...x};\n})"},
		{`return {get a() { return 1; }};`, "(function (event, ctx) {return {get a() { return 1; }};\n})"},
		{`const _$R = 1; return {a: /x/.test(s)};`, `var __hookctl_reR=__hookctl_result;(function (event, ctx) {const _$R = 1; return __hookctl_reR(2,/x/.test(s));` + "\n})"},
		{`if (/\bsudo\b/i.test(c) || /a/ .test(c) || /b/.test.call(c)) return;`, `var _$T0=__hookctl_test(/\bsudo\b/i);(function (event, ctx) {if (_$T0            (c) || /a/ .test(c) || /b/.test.call(c)) return;` + "\n})"},
		{`with (event) { return {decision: "deny"}; }`, "(function (event, ctx) {with (event) { return {decision: \"deny\"}; }\n})"},
		{`eval(""); return {decision: "deny"};`, "(function (event, ctx) {eval(\"\"); return {decision: \"deny\"};\n})"},
	} {
		if got := fmtProgram(p, c.body); got != c.want {
			t.Errorf("%s\n got  %s\n want %s", c.body, got, c.want)
		}
	}
}

// TestFirstLineColumns: an error on the line the generated header shares
// with the author's code reports the author's column, inline and in files.
func TestFirstLineColumns(t *testing.T) {
	dir := t.TempDir()
	p, err := NewPool(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, body := range []string{
		`null.boom;`,
		`const ok = /abc/.test("x"); null.boom;`,
		`if (event) return {reason: null.boom};`,
		`await 1; null.boom;`,
	} {
		prog, err := p.CompileInline("hooks.hcl", body, 3)
		if err != nil {
			t.Fatal(err)
		}
		_, err = runOnce(t, p, prog, nil)
		var e *Error
		want := strings.Index(body, "boom") + 1
		if !errors.As(err, &e) || e.Line != 3 || e.Column != want {
			t.Errorf("%s: %v, want hooks.hcl:3:%d", body, err, want)
		}
	}
	src := "const re = /x/; module.exports = function () { return null.boom; };\n"
	if err := os.WriteFile(filepath.Join(dir, "h.js"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := p.CompileFile("h.js")
	if err != nil {
		t.Fatal(err)
	}
	_, err = runOnce(t, p, prog, nil)
	var e *Error
	if want := strings.Index(src, "boom") + 1; !errors.As(err, &e) || e.Line != 1 || e.Column != want {
		t.Errorf("file: %v, want h.js:1:%d", err, want)
	}
}

// FuzzRewrite: any body that compiles behaves the same rewritten and
// plain.
func FuzzRewrite(f *testing.F) {
	for _, b := range rewriteBodies {
		f.Add(b)
	}
	p, err := NewPool(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(p.Close)
	payload := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "sudo ls"}}
	f.Fuzz(func(t *testing.T, body string) {
		if len(body) > 512 || strings.Contains(body, "await") || strings.ContainsAny(body, "\r\u2028\u2029") {
			return
		}
		if _, err := compile("hooks.hcl", "(function (event, ctx) {\n"+body+"\n})"); err != nil {
			return
		}
		fast, err := p.CompileInline("hooks.hcl", "\n"+body, 1)
		if err != nil {
			t.Fatalf("plain compiles, rewritten does not: %v", err)
		}
		ref := referenceProgram(t, p, "\n"+body, 1)
		// Columns are the author's on every line the rewrite left alone;
		// on a line with a rewritten return they may be off by the few
		// characters a short key could not absorb.
		_, rewritten := jsrewrite.Rewrite("(function (event, ctx) {\n"+body+"\n})", 24, 25+len(body), p.rewriteOptions())
		plainLines := strings.Split("(function (event, ctx) {\n"+body+"\n})", "\n")
		newLines := strings.Split(rewritten, "\n")
		sameLine := func(line int) bool {
			return line >= 1 && line <= len(plainLines) && line <= len(newLines) && plainLines[line-1] == newLines[line-1]
		}
		run := func(prog *Program) (string, string) {
			call := &engine.Call{Event: "PreToolUse", Hook: "h", Payload: payload, State: engine.NewState(nil), Timeout: 50 * time.Millisecond}
			res, err := p.Handler(prog).Handle(t.Context(), call)
			var e *Error
			if errors.As(err, &e) {
				if errors.Is(err, ErrTimeout) {
					return "", "timeout"
				}
				if e.Line < 2 || e.Line > 1+strings.Count(body, "\n")+1 {
					// goja places some errors on the wrapper's lines
					return "", "?:? " + e.Message
				}
				if !sameLine(e.Line) {
					return "", fmt.Sprintf("%d:? %s", e.Line, e.Message)
				}
				return "", fmt.Sprintf("%d:%d %s", e.Line, e.Column, e.Message)
			}
			if err != nil {
				return "", err.Error()
			}
			return fmt.Sprintf("%v", funcsOut(res)), ""
		}
		gr, ge := run(fast)
		wr, we := run(ref)
		if ge == "timeout" || we == "timeout" {
			return
		}
		// A position goja could not place in the body is compared by
		// message only.
		if strings.HasPrefix(ge, "?:? ") || strings.HasPrefix(we, "?:? ") {
			_, ge, _ = strings.Cut(ge, " ")
			_, we, _ = strings.Cut(we, " ")
		}
		if gr != wr || ge != we {
			t.Fatalf("body %q\n rewritten: %s %s\n plain:     %s %s", body, gr, ge, wr, we)
		}
	})
}

// TestConstantReturnIsBuiltOnce: a return whose values are all literals
// gives the same result every call, from every runtime of the pool (built
// once, when it compiled); one with a value computed per call gives a new
// one each time.
func TestConstantReturnIsBuiltOnce(t *testing.T) {
	p, err := NewPool(t.TempDir(), WithSize(2))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	constant, err := p.CompileInline("hooks.hcl", `if (event.n) return {decision: "deny", reason: "r", n: 1}; return {x: null};`, 1)
	if err != nil {
		t.Fatal(err)
	}
	computed, err := p.CompileInline("hooks.hcl", `return {decision: "deny", reason: "r" + event.n};`, 1)
	if err != nil {
		t.Fatal(err)
	}
	id := func(r engine.Result) uintptr { return uintptr(reflect.ValueOf(r).UnsafePointer()) }
	payload := map[string]any{"n": 1}
	first, err := runOnce(t, p, constant, payload)
	if err != nil {
		t.Fatal(err)
	}
	// With the first runtime checked out, the call takes the second.
	held, _, err := p.acquire(t.Context(), time.Time{}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	nested, err := runOnce(t, p, constant, payload)
	p.release(held)
	if err != nil {
		t.Fatal(err)
	}
	if st := p.Stats(); st.Created < 2 {
		t.Fatalf("%d runtimes made, want 2", st.Created)
	}
	again, err := runOnce(t, p, constant, payload)
	if err != nil {
		t.Fatal(err)
	}
	if want := (engine.Result{"decision": "deny", "reason": "r", "n": int64(1)}); !reflect.DeepEqual(first, want) {
		t.Fatalf("got %#v, want %#v", first, want)
	}
	if id(first) != id(again) || id(first) != id(nested) {
		t.Error("a constant return built its result more than once")
	}
	other, err := runOnce(t, p, constant, map[string]any{})
	if err != nil || !reflect.DeepEqual(other, engine.Result{"x": nil}) {
		t.Fatalf("the other return: %#v %v", other, err)
	}
	a, err1 := runOnce(t, p, computed, payload)
	b, err2 := runOnce(t, p, computed, payload)
	if err1 != nil || err2 != nil || id(a) == id(b) {
		t.Errorf("a computed return shares its result: %v %v", err1, err2)
	}
}

// TestGeneratedHelpersAreFrozen: every object the engine hands a rewritten
// program's factory, and every function the factory makes with them (the
// per-program test functions, the constant tokens), is frozen, with the
// prototype property of a function that has one: a runtime keeps them
// for every call and session it serves.
func TestGeneratedHelpersAreFrozen(t *testing.T) {
	p, err := NewPool(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	// A constant result for the const helper to stand for.
	if _, err := p.CompileInline("h.hcl", `return {decision: "deny"};`, 1); err != nil {
		t.Fatal(err)
	}
	vm, _, err := p.acquire(t.Context(), time.Time{}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	defer p.release(vm)
	check, err := vm.rt.RunString(`(function (result, cnst, test, marker) {
		"use strict";
		var t = test(/\brm\b/), objs = [result, cnst, test, marker, t, test(/x/i), cnst(0)], bad = [];
		objs.forEach(function (o, i) {
			if (!Object.isFrozen(o)) bad.push(i);
			if (typeof o === "function" && o.prototype !== undefined && !Object.isFrozen(o.prototype)) bad.push(i + ".prototype");
		});
		try { t.calls = 1; bad.push("written"); } catch (e) {}
		return bad.join(",");
	})`)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := goja.AssertFunction(check)
	v, err := c(goja.Undefined(), vm.resultFn, vm.constFn, vm.testFn, vm.marker)
	if err != nil {
		t.Fatal(err)
	}
	if s := v.String(); s != "" {
		t.Fatalf("not frozen (0 result, 1 const, 2 test helpers, 3 marker, 4-5 test functions, 6 token): %s", s)
	}
}
