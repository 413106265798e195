package jsrewrite_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/internal/jsrewrite"
)

// opts hoists every regex literal through a helper and rewrites returns.
func opts() jsrewrite.Options {
	return jsrewrite.Options{
		Plan: func(string, string) int { return 0 }, RegexpHelper: "__re",
		Key: func(string) int { return 0 }, ResultHelper: "__res",
		Const: func([]string, []any) int { return 0 }, ConstHelper: "__const",
	}
}

// throwAt compiles code as file, calls the handler it evaluates to and
// returns the position of what it threw, mapped back through m.
func throwAt(t *testing.T, file, code string, m jsrewrite.Map) (int, int) {
	t.Helper()
	rt := goja.New()
	_ = rt.Set("__re", func(int) goja.Value { v, _ := rt.RunString("/x/"); return v })
	_ = rt.Set("__res", func(goja.FunctionCall) goja.Value { return goja.Undefined() })
	_ = rt.Set("__const", func(goja.FunctionCall) goja.Value { return rt.NewObject() })
	prog, err := goja.Compile(file, code, false)
	if err != nil {
		t.Fatalf("compile: %v\n%s", err, code)
	}
	fn, err := rt.RunProgram(prog)
	if err != nil {
		t.Fatal(err)
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
// line, and on a line whose regex literal was hoisted.
func TestInlineMapsPositionsBack(t *testing.T) {
	cases := []struct {
		name, body string
		line       int
	}{
		{"first line", `const m = /a+/.test("aa"); null.x;`, 7},
		{"later line", "const a = 1;\n  const b = /b/.exec('b');\n  undefined.y;", 12},
		{"after a hoisted literal", "const r = /c/.test('c'); missing();", 3},
		{"return rewritten before", "if (false) return { decision: 'deny', reason: x };\nnope();", 5},
		{"constant return before", "if (false) return { decision: 'deny' }; nope();", 5},
		{"constant return over lines before", "if (false) return {\n  decision: 'deny',\n  reason: \"r\" }; nope();", 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The reference: the body alone on its lines, the function
			// header on the line before, so nothing shares its columns.
			ref := strings.Repeat("\n", tc.line-2) + "(function (event, ctx) {\n" + tc.body + "\n})"
			wantLine, wantCo := throwAt(t, "hooks.hcl", ref, jsrewrite.Map{})
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
				line, col := throwAt(t, "hooks.hcl", c.Code, c.Map)
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

// TestModuleShift: a module's map accounts for the loader's header and the
// hoisted declarations on its first line, and only there.
func TestModuleShift(t *testing.T) {
	src := "const r = /x/;\nmodule.exports = function () { return r; };"
	code, m := jsrewrite.Module("a.js", src, jsrewrite.ModuleWrapper, opts())
	if !strings.HasPrefix(code, "var ") || m.Shift <= len(jsrewrite.ModuleWrapper) || m.Line != 1 {
		t.Fatalf("%q %+v", code, m)
	}
	first := strings.Index(code, "const")
	if line, col := m.Original(1, len(jsrewrite.ModuleWrapper)+first+1); line != 1 || col != 1 {
		t.Fatalf("first statement at %d:%d, want 1:1", line, col)
	}
	if line, col := m.Original(2, 5); line != 2 || col != 5 {
		t.Fatalf("line 2 moved: %d:%d", line, col)
	}
	plain, pm := jsrewrite.Module("b.js", "module.exports = 1;", jsrewrite.ModuleWrapper, opts())
	if plain != "module.exports = 1;" || pm.Shift != len(jsrewrite.ModuleWrapper) {
		t.Fatalf("%q %+v", plain, pm)
	}
}
