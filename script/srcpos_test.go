package script

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/jsrewrite"
)

// TestParseErrorInTransformedCode: goja's parser reads a source map only
// once the code parsed, so a syntax error it finds in code esbuild wrote
// is mapped back here, to the source's line.
func TestParseErrorInTransformedCode(t *testing.T) {
	p, err := NewPool("testdata/ts")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	src := "type N = number;\n\nexport default function (event: unknown) {\n  const n: N = 1;\n  return { reason: String(n) };\n}\n"
	code, err := p.transformModule("/cfg/x.ts", []byte(src), true)
	if err != nil {
		t.Fatal(err)
	}
	// What esbuild would never write: a second literal after the first.
	if !strings.Contains(code, "const n = 1;") {
		t.Fatalf("unexpected output:\n%s", code)
	}
	wrapped := moduleWrapper + strings.Replace(code, "const n = 1;", "const n = 1 2;", 1) + "\n})"
	_, _, cerr := p.compileSource("/cfg/x.ts", wrapped)
	if cerr == nil {
		t.Fatal("the corrupted code parsed")
	}
	se := p.code.transformedError(cerr, wrapped, jsrewrite.Map{File: "/cfg/x.ts", Line: 1})
	if se.File != "/cfg/x.ts" || se.Line != 4 || se.Column != 16 {
		t.Fatalf("%+v", se)
	}
}

// TestOriginal: a source-mapped position (a file: URL, a 0-based column)
// names the author's file with a 1-based column; an inline body's lines
// get back the columns an HCL string took off, and its first line loses
// the function header.
func TestOriginal(t *testing.T) {
	var c programs
	c.addSource("file:///cfg/hook.ts", "/cfg/hook.ts")
	if f, l, col := c.original("file:///cfg/hook.ts", 3, 4); f != "/cfg/hook.ts" || l != 3 || col != 5 {
		t.Fatalf("%s:%d:%d", f, l, col)
	}
	// An unregistered file: URL still names a path.
	if f, _, col := c.original("file:///other/a%20b.ts", 1, 0); f != "/other/a b.ts" || col != 1 {
		t.Fatalf("%s %d", f, col)
	}
	c.addMap(jsrewriteMap("hooks.hcl", 10, len(bodyHeader)))
	c.addColumns("hooks.hcl", 10, []int{4, 6})
	if f, l, col := c.original("hooks.hcl", 10, len(bodyHeader)+3); f != "hooks.hcl" || l != 10 || col != 7 {
		t.Fatalf("%s:%d:%d", f, l, col)
	}
	if _, _, col := c.original("hooks.hcl", 11, 3); col != 9 {
		t.Fatalf("second line column %d", col)
	}
	stack := "Error: x\n\tat f (file:///cfg/hook.ts:3:4(12))\n\tat hooks.hcl:11:3(5)\n"
	if got, want := c.fixStack(stack), "Error: x\n\tat f (/cfg/hook.ts:3:5)\n\tat hooks.hcl:11:9\n"; got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

func jsrewriteMap(file string, line, shift int) jsrewrite.Map {
	return jsrewrite.Map{File: file, Line: line, Shift: shift}
}

// addSorted appends what comes after, and sorts (stably) what does not.
func TestAddSorted(t *testing.T) {
	type kv struct{ k, id int }
	cmp := func(a, b kv) int { return a.k - b.k }
	got := addSorted(nil, []kv{{5, 0}, {1, 1}}, cmp)
	got = addSorted(got, []kv{{7, 2}, {6, 3}}, cmp)              // after: appended
	got = addSorted(got, []kv{{3, 4}, {5, 5}}, cmp)              // among: sorted in
	got = addSorted(got, nil, cmp)                               // nothing
	want := []kv{{1, 1}, {3, 4}, {5, 0}, {5, 5}, {6, 3}, {7, 2}} // equal keys keep their order
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// TestInlineNames: an inline body is compiled under a name of its own,
// whose positions (the body's, line 1 its first) map to the file's; a
// second body on the same line gets another name.
func TestInlineNames(t *testing.T) {
	var c programs
	a, b := c.inlineName("hooks.hcl", "", 500), c.inlineName("hooks.hcl", "", 500)
	if a == b {
		t.Fatalf("both bodies are named %q", a)
	}
	c.setInline(a, jsrewriteMap("hooks.hcl", 500, len(bodyHeader)))
	c.setInline(b, jsrewriteMap("hooks.hcl", 500, 3))
	c.addColumns("hooks.hcl", 500, []int{10, 4})
	if f, l, col := c.original(a, 1, len(bodyHeader)+3); f != "hooks.hcl" || l != 500 || col != 13 {
		t.Fatalf("%s:%d:%d", f, l, col)
	}
	if f, l, col := c.original(b, 2, 5); f != "hooks.hcl" || l != 501 || col != 9 {
		t.Fatalf("%s:%d:%d", f, l, col)
	}
	stack := "Error: x\n\tat f (" + a + ":2:3(12))\n"
	if got, want := c.fixStack(stack), "Error: x\n\tat f (hooks.hcl:501:7)\n"; got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	// A file of that name keeps its own positions.
	dir := t.TempDir()
	file := filepath.Join(dir, "hooks.hcl")
	if err := os.WriteFile(file+"#L7", []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if name := c.inlineName(file, "", 7); name == file+"#L7" {
		t.Fatalf("an inline body is named as the file %s", name)
	}
	// A body of a file named relative to the working directory is named
	// in the configuration directory, where its requires resolve.
	if name := c.inlineName(filepath.Join("m", "hooks.hcl"), dir, 3); name != file+"#L3" {
		t.Fatalf("named %s, want %s#L3", name, file)
	}
}
