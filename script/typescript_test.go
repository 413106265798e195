package script_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/script"
)

// The TypeScript and ES module fixtures are in testdata/ts.

func tsPool(t testing.TB, opts ...script.Option) *script.Pool {
	t.Helper()
	p, err := script.NewPool("testdata/ts", opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// tsFile is the absolute path of a fixture, as errors name it.
func tsFile(t testing.TB, name string) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("testdata/ts", name))
	if err != nil {
		t.Fatal(err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

func bash(cmd string) *engine.Call {
	return call(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}})
}

func compileFile(t testing.TB, p *script.Pool, name string) engine.Handler {
	t.Helper()
	prog, err := p.CompileFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return p.Handler(prog)
}

// TestTypeScriptFile: a .ts file with types, an enum and an import of a
// .ts module by its extensionless name runs; an error thrown in the
// module is at the .ts line and column, with the stack through both
// files.
func TestTypeScriptFile(t *testing.T) {
	p := tsPool(t)
	h := compileFile(t, p, "hook.ts")
	res, err := run(t, h, bash("rm -rf /"))
	if err != nil || res["decision"] != "deny" || res["reason"] != "rm -rf" {
		t.Fatalf("%v %v", res, err)
	}
	if res, err := run(t, h, bash("ls")); err != nil || res != nil {
		t.Fatalf("%v %v", res, err)
	}
	_, err = run(t, h, bash("boom now"))
	var se *script.Error
	if !errors.As(err, &se) {
		t.Fatalf("%#v", err)
	}
	lib, hook := tsFile(t, "lib/check.ts"), tsFile(t, "hook.ts")
	// lib/check.ts:8: `    throw new Error(...)`: the error is made at column 11.
	if want := lib + ":8:11: Error: refused at level 1: boom now"; err.Error() != want {
		t.Fatalf("got  %s\nwant %s", err, want)
	}
	wantStack := "\tat check (" + lib + ":8:11)\n\tat hook_default (" + hook + ":10:16)\n"
	if se.Stack != wantStack {
		t.Fatalf("stack\n%s\nwant\n%s", se.Stack, wantStack)
	}
}

// TestESModuleFile: a .js file written as an ES module (export default
// async arrow, a named import of an ES module, a default import of a
// CommonJS one) runs without a build step.
func TestESModuleFile(t *testing.T) {
	p := tsPool(t)
	h := compileFile(t, p, "esm.js")
	res, err := run(t, h, bash("ls"))
	if err != nil || res["decision"] != "allow" || res["reason"] != "legacy says so" {
		t.Fatalf("%v %v", res, err)
	}
	res, err = run(t, h, bash("make"))
	if err != nil || res["decision"] != "ask" {
		t.Fatalf("%v %v", res, err)
	}
	// A named export called handler is the handler too.
	h = compileFile(t, p, "named.mjs")
	if res, err := run(t, h, bash("ls")); err != nil || res["decision"] != "allow" {
		t.Fatalf("%v %v", res, err)
	}
}

// TestRequireLoadsTypeScript: CommonJS code requiring "./lib/check.js"
// gets lib/check.ts, TypeScript's convention.
func TestRequireLoadsTypeScript(t *testing.T) {
	p := tsPool(t)
	h := compileFile(t, p, "fromjs.js")
	if res, err := run(t, h, bash("rm -rf ~")); err != nil || res["decision"] != "deny" {
		t.Fatalf("%v %v", res, err)
	}
}

// TestTypeScriptSyntaxError: esbuild's error, at the .ts line and column.
func TestTypeScriptSyntaxError(t *testing.T) {
	p := tsPool(t)
	_, err := p.CompileFile("bad.ts")
	var se *script.SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("%#v", err)
	}
	// `  const x: number = ;`
	if want := tsFile(t, "bad.ts") + `:2:21: SyntaxError: Unexpected ";"`; err.Error() != want {
		t.Fatalf("got  %s\nwant %s", err, want)
	}
}

// TestRejectedPromiseInTypeScript: an async handler's rejection is
// reported at the .ts position, its stack in the author's positions.
func TestRejectedPromiseInTypeScript(t *testing.T) {
	p := tsPool(t)
	h := compileFile(t, p, "asyncthrow.ts")
	_, err := run(t, h, call(map[string]any{"n": 7}))
	var se *script.Error
	if !errors.As(err, &se) {
		t.Fatalf("%#v", err)
	}
	file := tsFile(t, "asyncthrow.ts")
	if se.File != file || se.Line != 5 || se.Column != 9 || se.Message != "TypeError: bad n: 7" {
		t.Fatalf("%+v", se)
	}
	if !strings.Contains(se.Stack, "\tat asyncthrow_default ("+file+":5:9)") || strings.Contains(se.Stack, "file:") {
		t.Fatalf("stack %q", se.Stack)
	}
}

// TestTimeoutIsReportedAtTheLoop: goja has no position inside `while
// (true) {}` and places the interrupt before it; the error names the
// loop's line, in a .ts file and in an inline body alike.
func TestTimeoutIsReportedAtTheLoop(t *testing.T) {
	p := tsPool(t)
	short := func() *engine.Call {
		c := call(nil)
		c.Timeout, c.Deadline = 50*time.Millisecond, time.Now().Add(50*time.Millisecond)
		return c
	}
	h := compileFile(t, p, "loop.ts")
	_, err := run(t, h, short())
	if want := tsFile(t, "loop.ts") + ":3:3: " + script.ErrTimeout.Error(); err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	for _, ts := range []bool{false, true} {
		// As in a heredoc indented by 4: the loop is on the file's
		// line 21, column 5.
		body := "const cmd = event.tool_input\nwhile (true) {}\n"
		prog, err := p.CompileBody(script.Body{File: "hooks.hcl", Line: 20, Text: body, TypeScript: ts, Columns: []int{4, 4}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = run(t, p.Handler(prog), short())
		var se *script.Error
		if !errors.As(err, &se) || se.File != "hooks.hcl" || se.Line != 21 || se.Column != 5 || !errors.Is(err, script.ErrTimeout) {
			t.Fatalf("ts=%v: %+v", ts, err)
		}
		if !strings.Contains(se.Stack, "hooks.hcl:21:5") {
			t.Fatalf("ts=%v: stack %q", ts, se.Stack)
		}
	}
}

// TestTypeScriptBody: an inline ts body runs (types stripped, await
// allowed), and its errors are at the file's line and column: the
// columns a heredoc took off are put back.
func TestTypeScriptBody(t *testing.T) {
	p := tsPool(t)
	body := "const cmd: string = event.tool_input?.command ?? \"\";\n" +
		"if (cmd === \"boom\") {\n" +
		"  throw new Error(`no ${cmd}`);\n" +
		"}\n" +
		"const v = await Promise.resolve<string>(\"ask\");\n" +
		"return { decision: v, reason: cmd as string };\n"
	prog, err := p.CompileBody(script.Body{File: "hooks.hcl", Line: 7, Text: body, TypeScript: true, Columns: []int{4, 4, 4, 4, 4, 4}})
	if err != nil {
		t.Fatal(err)
	}
	h := p.Handler(prog)
	if res, err := run(t, h, bash("ls")); err != nil || res["decision"] != "ask" || res["reason"] != "ls" {
		t.Fatalf("%v %v", res, err)
	}
	_, err = run(t, h, bash("boom"))
	// `    ` + `  throw new Error(...)`: the error is made at "new".
	if want := "hooks.hcl:9:13: Error: no boom"; err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	// A type error esbuild finds, on the file's line 8.
	_, err = p.CompileBody(script.Body{File: "hooks.hcl", Line: 7, Text: "const a = 1;\nconst b: = 2;\n", TypeScript: true, Columns: []int{4, 4}})
	if want := `hooks.hcl:8:14: SyntaxError: Unexpected "="`; err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	// The first line: the function header is not the author's.
	_, err = p.CompileBody(script.Body{File: "hooks.hcl", Line: 3, Text: "const = 1", TypeScript: true, Columns: []int{12}})
	if want := `hooks.hcl:3:19: SyntaxError: Expected identifier but found "="`; err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
}

// TestScriptWithoutHandler: a file that exports nothing is reported at
// the function it declares, saying how to export it, in the file's own
// module style.
func TestScriptWithoutHandler(t *testing.T) {
	p := tsPool(t)
	for _, tc := range []struct{ file, want string }{
		{"noexport.ts", ":1:1: TypeError: the script must export a function (event, ctx), got an empty object (module.exports was never set); it declares function handler but does not export it: add export default handler;"},
		{"noexport.js", ":1:1: TypeError: the script must export a function (event, ctx), got an empty object (module.exports was never set); it declares function handler but does not export it: add module.exports = handler;"},
		{"helper.js", ":1:1: TypeError: the script must export a function (event, ctx), got an object with helper but no function named handler or default; a script file exports its handler: export default function (event, ctx) { ... } (or a function named handler: export function handler(event, ctx) { ... })"},
		{"keys.mjs", ":1:8: TypeError: the script must export a function (event, ctx), got an object with check, version but no function named handler or default; it exports function check, but the handler is the default export or the one named handler: add export default check;"},
		{"legacy.js", ":1:1: TypeError: the script must export a function (event, ctx), got an object with why but no function named handler or default; a script file exports its handler: module.exports = function (event, ctx) { ... } (CommonJS) or export default function (event, ctx) { ... } (ES module)"},
	} {
		_, err := p.CompileFile(tc.file)
		if want := tsFile(t, tc.file) + tc.want; err == nil || err.Error() != want {
			t.Errorf("%s:\ngot  %v\nwant %s", tc.file, err, want)
		}
	}
}

// TestStringResultNamesTheReturn: `return "deny"` is reported at that
// return, with the shape a result has.
func TestStringResultNamesTheReturn(t *testing.T) {
	p := tsPool(t)
	h := compileFile(t, p, "returns.ts")
	_, err := run(t, h, call(map[string]any{}))
	want := tsFile(t, "returns.ts") + `:3:3: TypeError: the handler returned the string "deny", not an object; a handler returns an object of result fields: return { decision: "deny", reason: "..." }, or nothing for no opinion`
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	h = inline(t, p, "if (event.n) return 42;\nreturn true;")
	_, err = run(t, h, call(map[string]any{"n": 1}))
	if !strings.HasPrefix(fmtErr(err), "hooks.hcl:10:14: TypeError: the handler returned number 42, not an object; a handler returns an object of result fields, e.g.") {
		t.Fatalf("%v", err)
	}
}

func fmtErr(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestModuleSyntaxWhereItCannotWork: import and export in an inline body,
// or in a .cjs file, say where they can be written.
func TestModuleSyntaxWhereItCannotWork(t *testing.T) {
	p := tsPool(t)
	for _, ts := range []bool{false, true} {
		_, err := p.CompileBody(script.Body{File: "hooks.hcl", Line: 4, Text: "export default function (event) {}", TypeScript: ts})
		var se *script.SyntaxError
		if !errors.As(err, &se) || se.Line != 4 || !strings.Contains(se.Hint, "an inline body is the body of function (event, ctx), so it cannot import or export") {
			t.Fatalf("ts=%v: %#v", ts, err)
		}
	}
	_, err := p.CompileFile("esm.cjs")
	var se *script.SyntaxError
	if !errors.As(err, &se) || se.Line != 1 || !strings.HasPrefix(se.Hint, "a .cjs file is CommonJS") {
		t.Fatalf("%#v", err)
	}
}

// TestTransformCacheSharedAcrossPools: a second pool given the same cache
// (a reload) compiles the same TypeScript without running esbuild again.
func TestTransformCacheSharedAcrossPools(t *testing.T) {
	cache := script.NewTransformCache(0, 0)
	p := tsPool(t, script.WithTransformCache(cache))
	compileFile(t, p, "hook.ts")
	first := cache.Stats()
	if first.Misses != 2 || first.Entries != 2 { // hook.ts and lib/check.ts
		t.Fatalf("first load: %+v", first)
	}
	again := tsPool(t, script.WithTransformCache(cache))
	h := compileFile(t, again, "hook.ts")
	if res, err := run(t, h, bash("rm -rf /")); err != nil || res["decision"] != "deny" {
		t.Fatalf("%v %v", res, err)
	}
	if s := cache.Stats(); s.Misses != first.Misses || s.Hits <= first.Hits {
		t.Fatalf("reload transformed again: %+v after %+v", s, first)
	}
}

// TestTransformCacheIsBounded: the least recently used entries go first,
// and the bytes stay under the bound.
func TestTransformCacheIsBounded(t *testing.T) {
	cache := script.NewTransformCache(2, 0)
	p := tsPool(t, script.WithTransformCache(cache))
	for _, body := range []string{"return;", "return {};", "return { reason: 'x' };"} {
		if _, err := p.CompileBody(script.Body{File: "hooks.hcl", Line: 1, Text: body, TypeScript: true}); err != nil {
			t.Fatal(err)
		}
	}
	if s := cache.Stats(); s.Entries != 2 || s.Misses != 3 {
		t.Fatalf("%+v", s)
	}
	// The first was dropped: compiling it again transforms it again.
	if _, err := p.CompileBody(script.Body{File: "hooks.hcl", Line: 1, Text: "return;", TypeScript: true}); err != nil {
		t.Fatal(err)
	}
	if s := cache.Stats(); s.Misses != 4 {
		t.Fatalf("%+v", s)
	}
	small := script.NewTransformCache(0, 64)
	q := tsPool(t, script.WithTransformCache(small))
	compileFile(t, q, "hook.ts")
	if s := small.Stats(); s.Bytes > 64 || s.Entries != 0 {
		t.Fatalf("%+v", s)
	}
}

// TestDynamicImport: await import() inside a handler loads a module
// through require, TypeScript included.
func TestDynamicImport(t *testing.T) {
	p := tsPool(t)
	h := compileFile(t, p, "dynimport.ts")
	if res, err := run(t, h, bash("rm -rf /")); err != nil || res["decision"] != "deny" {
		t.Fatalf("%v %v", res, err)
	}
}

// TestHashbang: a #! first line, an executable script's, is a comment,
// as in Node.js, in TypeScript and JavaScript files alike.
func TestHashbang(t *testing.T) {
	p := tsPool(t)
	for _, f := range []string{"hashbang.ts", "hashbang.js"} {
		h := compileFile(t, p, f)
		if res, err := run(t, h, call(nil)); err != nil || res["reason"] != "#!" {
			t.Fatalf("%s: %v %v", f, res, err)
		}
	}
}
