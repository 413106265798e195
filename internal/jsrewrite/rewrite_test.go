package jsrewrite_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/internal/jsrewrite"
)

// opts rewrites returns and test receivers.
func opts() jsrewrite.Options {
	return jsrewrite.Options{
		Key: func(string) int { return 0 }, ResultHelper: "__res",
		Const: func([]string, []any) int { return 0 }, ConstHelper: "__const",
		Literals: true, TestHelper: "__test",
	}
}

// throwAt compiles code as file, calls the handler it evaluates to and
// returns the position of what it threw, mapped back through m.
func throwAt(t *testing.T, file, code string, factory bool, m jsrewrite.Map) (int, int) {
	t.Helper()
	rt := goja.New()
	prog, err := goja.Compile(file, code, false)
	if err != nil {
		t.Fatalf("compile: %v\n%s", err, code)
	}
	fn, err := rt.RunProgram(prog)
	if err != nil {
		t.Fatal(err)
	}
	if factory {
		f, _ := goja.AssertFunction(fn)
		res := rt.ToValue(func(goja.FunctionCall) goja.Value { return goja.Undefined() })
		cst := rt.ToValue(func(goja.FunctionCall) goja.Value { return rt.NewObject() })
		tst := rt.ToValue(func(c goja.FunctionCall) goja.Value {
			re := c.Argument(0).ToObject(rt)
			test, _ := goja.AssertFunction(re.Get("test"))
			return rt.ToValue(func(c goja.FunctionCall) goja.Value {
				v, err := test(re, c.Arguments...)
				if err != nil {
					panic(err)
				}
				return v
			})
		})
		if fn, err = f(goja.Undefined(), res, cst, tst); err != nil {
			t.Fatal(err)
		}
	}
	call, ok := goja.AssertFunction(fn)
	if !ok {
		t.Fatalf("not a function: %v", fn)
	}
	_, err = call(goja.Undefined(), rt.ToValue(map[string]any{}), rt.ToValue(map[string]any{}))
	var ex *goja.Exception
	if !errors.As(err, &ex) {
		t.Fatalf("did not throw: %v", err)
	}
	frames := ex.Stack()
	if len(frames) == 0 {
		t.Fatal("no stack")
	}
	pos := frames[0].Position()
	return m.Original(pos.Line, pos.Column)
}

// TestInlineMapsPositionsBack: an error thrown in an inline body, in each
// candidate the body compiles to, is reported at the author's line and
// column: on the first line (where the generated header is), on a later
// line, and after a rewritten return.
func TestInlineMapsPositionsBack(t *testing.T) {
	cases := []struct {
		name, body string
		line       int
	}{
		{"first line", `if (false) return {decision: x}; const m = /a+/.test("aa"); null.x;`, 7},
		{"later line", "if (false) return {decision: x};\n  const b = /b/.exec('b');\n  undefined.y;", 12},
		{"after a test receiver", "const m = /abcd/.test('x'); null.x;", 3},
		{"after a test receiver, later line", "const a = 1;\n  const m = /abcd/i.test('x') || /ab/.test('y'); null.x;", 3},
		{"return rewritten before", "if (false) return { decision: 'deny', reason: x };\nnope();", 5},
		{"constant return before", "if (false) return { decision: 'deny' }; nope();", 5},
		{"constant return over lines before", "if (false) return {\n  decision: 'deny',\n  reason: \"r\" }; nope();", 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The reference: the body alone on its lines, the function
			// header on the line before, so nothing shares its columns.
			ref := strings.Repeat("\n", tc.line-2) + "(function (event, ctx) {\n" + tc.body + "\n})"
			wantLine, wantCo := throwAt(t, "hooks.hcl", ref, false, jsrewrite.Map{})
			cands := jsrewrite.Inline("hooks.hcl", tc.body, tc.line, opts())
			if len(cands) == 0 {
				t.Fatal("no candidate")
			}
			rewritten := false
			for _, c := range cands {
				rewritten = rewritten || c.Rewritten
				if c.Map.File != "hooks.hcl" || c.Map.Line != tc.line {
					t.Fatalf("map %+v", c.Map)
				}
				line, col := throwAt(t, "hooks.hcl", c.Code, c.Rewritten, c.Map)
				if line != wantLine || col != wantCo {
					t.Errorf("rewritten=%v: thrown at %d:%d, want %d:%d\n%s", c.Rewritten, line, col, wantLine, wantCo, c.Code)
				}
			}
			if !rewritten {
				t.Fatal("nothing was rewritten: the case tests nothing")
			}
		})
	}
}

// TestInlineAsync: a body that awaits also gets the async form.
func TestInlineAsync(t *testing.T) {
	cands := jsrewrite.Inline("h.hcl", "await null; return {};", 1, jsrewrite.Options{})
	var async int
	for _, c := range cands {
		if c.Async {
			async++
			if !strings.HasPrefix(c.Code, "(async function") {
				t.Fatalf("%q", c.Code)
			}
		}
	}
	if async != 1 {
		t.Fatalf("%d async candidates", async)
	}
	if cands := jsrewrite.Inline("h.hcl", "return {};", 1, jsrewrite.Options{}); len(cands) != 1 || cands[0].Async || cands[0].Rewritten {
		t.Fatalf("%+v", cands)
	}
}

// TestScopedSourceIsLeftAlone: a program with a with statement or an eval,
// which could put names of the script's (or of the payload's) in front of
// the generated ones, is not rewritten.
func TestScopedSourceIsLeftAlone(t *testing.T) {
	for _, body := range []string{
		`with (event) { return {decision: "deny"}; }`,
		`if (event.x) { with (event.x) {} } return {decision: "deny", reason: event.r};`,
		`eval(event.code); return {decision: "deny"};`,
		`const f = () => eval("1"); return {decision: "deny", reason: f()};`,
		`if (/abcdef/.test(event.c)) return {decision: "deny", reason: __res};`,
		`with (event) { if (/abcdef/.test(c)) return; }`,
	} {
		for _, c := range jsrewrite.Inline("h.hcl", body, 1, opts()) {
			if c.Rewritten {
				t.Errorf("%s: rewritten:\n%s", body, c.Code)
			}
		}
	}
	if c := jsrewrite.Inline("h.hcl", `return {decision: "deny"};`, 1, opts()); !c[0].Rewritten {
		t.Fatal("a plain return was not rewritten")
	}
}

// TestEscapedNamesAreNotGenerated: a program that names a generated
// variable or helper in any spelling the parser decodes (\u escapes in
// identifiers, binding names, shorthand properties, labels, keys) never
// gets that name generated: its own declaration would shadow it. The
// rewriter takes the long prefix, or leaves the program alone.
func TestEscapedNamesAreNotGenerated(t *testing.T) {
	for _, body := range []string{
		`const { command, _\u0024K0 } = event.tool_input; if (/\brm\b/.test(command)) return { decision: "deny", reason: "no rm" };`,
		`const { command, _\u{24}K0 } = event.tool_input; if (/\brm\b/.test(command)) return { decision: "deny", reason: "no rm" };`,
		`var _\u0024R = event.r; return {decision: "deny", reason: event.x};`,
		`let _\u0024T0 = event.t; if (/\brm\b/.test(event.c)) return;`,
		`function f(_\u0024K0) {} return {decision: "deny"};`,
		`\u005f$K0: for (;;) break; return {decision: "deny"};`,
		`var { a: _\u0024K0 } = event; return {decision: "deny"};`,
		`var o = { _\u0024K0: 1 }; return {decision: "deny"};`,
	} {
		for _, c := range jsrewrite.Inline("h.hcl", body, 1, opts()) {
			if c.Rewritten && strings.Contains(c.Code, "var _$") {
				t.Errorf("%s: generated a name it declares:\n%s", body, c.Code)
			}
		}
	}
	for _, body := range []string{
		`var __r\u0065s = 1; return {decision: "deny", reason: event.x};`,
		`var _\u0024R = 1, __hookctl_r\u0065R = 2; return {decision: "deny", reason: event.x};`,
	} {
		for _, c := range jsrewrite.Inline("h.hcl", body, 1, opts()) {
			if c.Rewritten {
				t.Errorf("%s: rewritten:\n%s", body, c.Code)
			}
		}
	}
}

// TestThenIsNotRewritten: a returned literal with a then is a thenable,
// which must stay an object.
func TestThenIsNotRewritten(t *testing.T) {
	for _, c := range jsrewrite.Inline("h.hcl", `return {then: event.f, decision: "x"};`, 1, opts()) {
		if c.Rewritten {
			t.Errorf("rewritten:\n%s", c.Code)
		}
	}
}
