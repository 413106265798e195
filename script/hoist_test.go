package script_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/script"
)

// TestRegexLiteralsAreNewEachTime: as in JavaScript, every evaluation of a
// literal is a new RegExp, with or without g: the object a module kept
// from the last call is not this call's, and a g literal's lastIndex never
// leaks from one call to the next.
func TestRegexLiteralsAreNewEachTime(t *testing.T) {
	p := newPool(t, script.WithSize(1))
	h := inline(t, p, `
		const plain = /rm\s+-rf/i;
		const global = /a/g;
		global.exec("aaa");
		const store = require("./store.js");
		const first = store.get();
		store.set(plain);
		return { same: first === undefined ? null : first === plain, last: global.lastIndex, hit: plain.test(event.cmd) };
	`)
	c := call(map[string]any{"cmd": "RM  -rf /"})
	res, err := run(t, h, c)
	if err != nil {
		t.Fatal(err)
	}
	if res["hit"] != true || res["last"] != int64(1) {
		t.Fatalf("first call: %v", res)
	}
	res, err = run(t, h, c) // one runtime: sees the first call's regex
	if err != nil {
		t.Fatal(err)
	}
	if res["same"] != false || res["last"] != int64(1) || res["hit"] != true {
		t.Fatalf("second call: %v", res)
	}
}

// TestHoistingKeepsColumns: an error after a regex on the same line
// reports the column the author wrote.
func TestHoistingKeepsColumns(t *testing.T) {
	p := newPool(t)
	pos := func(body string) (int, int) {
		_, err := run(t, inline(t, p, body), call(nil))
		var se *script.Error
		if !errors.As(err, &se) {
			t.Fatalf("%#v", err)
		}
		return se.Line, se.Column
	}
	wantLine, wantCol := pos("\nconst ok = 'abc'.length >0; null.boom;")
	line, col := pos("\nconst ok = /abc/.test('x'); null.boom;")
	if line != 11 || line != wantLine || col != wantCol {
		t.Fatalf("want hooks.hcl:11:%d, got %d:%d", wantCol, line, col)
	}
}

// TestHoistingAvoidsNamesInUse: source that already uses the hoisting
// prefix still runs correctly.
func TestHoistingAvoidsNamesInUse(t *testing.T) {
	p := newPool(t)
	h := inline(t, p, `
		var _$0 = "mine";
		var __hookctl_re0 = "also mine";
		return { a: _$0, b: __hookctl_re0, t: /x+/.test("xx") };
	`)
	res, err := run(t, h, call(nil))
	if err != nil {
		t.Fatal(err)
	}
	if res["a"] != "mine" || res["b"] != "also mine" || res["t"] != true {
		t.Fatalf("%v", res)
	}
}

// TestHoistingInScriptFiles: module files get the same treatment, and a
// module whose top level uses a regex still sees it initialised.
func TestHoistingInScriptFiles(t *testing.T) {
	dir := t.TempDir()
	src := "const re = /^git\\s+push/;\nconst top = re.test('git push');\nmodule.exports = function (event) { return { top: top, hit: /force/.test(event.cmd) }; };\n"
	if err := os.WriteFile(filepath.Join(dir, "h.js"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := script.NewPool(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	prog, err := p.CompileFile("h.js")
	if err != nil {
		t.Fatal(err)
	}
	res, err := run(t, p.Handler(prog), call(map[string]any{"cmd": "git push --force"}))
	if err != nil {
		t.Fatal(err)
	}
	if res["top"] != true || res["hit"] != true {
		t.Fatalf("%v", res)
	}
}
