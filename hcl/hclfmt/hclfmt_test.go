package hclfmt_test

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	hcl2 "github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/hcl/hclfmt"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestGolden formats each testdata/NAME.in.hcl and compares the result
// with testdata/NAME.golden.hcl, which must itself be formatted.
func TestGolden(t *testing.T) {
	ins, err := filepath.Glob("testdata/*.in.hcl")
	if err != nil || len(ins) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, in := range ins {
		name := strings.TrimSuffix(filepath.Base(in), ".in.hcl")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := hclfmt.Format(in, src)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", name+".golden.hcl")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Format(%s):\n%s\nwant (%s):\n%s", in, got, golden, want)
			}
			again, err := hclfmt.Format(golden, want)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, want) {
				t.Errorf("%s is not formatted: Format gives\n%s", golden, again)
			}
			checkHeredocs(t, in, src, got)
		})
	}
}

// heredocBodies returns the text of each heredoc of src, its closing
// marker included.
func heredocBodies(t *testing.T, src []byte) []string {
	t.Helper()
	toks, d := hclsyntax.LexConfig(src, "", hcl2.InitialPos)
	if d.HasErrors() {
		t.Fatal(d)
	}
	var out []string
	depth, start := 0, 0
	for _, tok := range toks {
		switch tok.Type {
		case hclsyntax.TokenOHeredoc:
			if depth == 0 {
				start = tok.Range.End.Byte
			}
			depth++
		case hclsyntax.TokenCHeredoc:
			if depth--; depth == 0 {
				out = append(out, string(src[start:tok.Range.End.Byte]))
			}
		}
	}
	return out
}

// checkHeredocs fails unless every heredoc of src is in out byte for byte.
func checkHeredocs(t *testing.T, name string, src, out []byte) {
	t.Helper()
	in, got := heredocBodies(t, src), heredocBodies(t, out)
	if len(in) != len(got) {
		t.Fatalf("%s: %d heredocs in, %d out", name, len(in), len(got))
	}
	for i := range in {
		if in[i] != got[i] {
			t.Errorf("%s: heredoc %d changed:\n%q\nwas\n%q", name, i, got[i], in[i])
		}
	}
}

// TestHeredocBodiesUntouched: JavaScript in a <<-JS heredoc keeps its own
// indentation, tabs and the spaces of an interpolation, while the
// attributes around it are re-indented.
func TestHeredocBodiesUntouched(t *testing.T) {
	src := "hook \"a\" {\nevent = \"PreToolUse\"\n    js = <<-JS\n  if (x) {\n\t      return ${ \"y\" }\n  }\n        JS\n}\n"
	got, err := hclfmt.Format("a.hcl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := "hook \"a\" {\n  event = \"PreToolUse\"\n  js    = <<-JS\n  if (x) {\n\t      return ${ \"y\" }\n  }\n        JS\n}\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestIdempotentOverRepository formats every .hcl file of the repository
// (examples, testdata, and the .hcl files inside the testscript archives):
// formatting the result again changes nothing, and no heredoc changes.
func TestIdempotentOverRepository(t *testing.T) {
	root := filepath.Join("..", "..")
	n := 0
	check := func(name string, src []byte) {
		if hcl.CheckSource(name, src) != nil {
			return // a file that is wrong on purpose
		}
		n++
		once, err := hclfmt.Format(name, src)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			return
		}
		twice, err := hclfmt.Format(name, once)
		if err != nil {
			t.Errorf("%s: formatted output does not parse: %v", name, err)
			return
		}
		if !bytes.Equal(once, twice) {
			t.Errorf("%s: not idempotent:\n%s\nthen\n%s", name, once, twice)
		}
		checkHeredocs(t, name, src, once)
		checkTokens(t, name, src, once)
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(path, ".hcl"):
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			check(path, src)
		case strings.HasSuffix(path, ".txtar"):
			ar, err := txtar.ParseFile(path)
			if err != nil {
				return err
			}
			for _, f := range ar.Files {
				if strings.HasSuffix(f.Name, ".hcl") {
					check(path+"/"+f.Name, f.Data)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Fatalf("only %d .hcl files formatted: is the walk in the repository?", n)
	}
	t.Logf("%d files", n)
}

// checkTokens fails unless out has the tokens of src, in order, with the
// same bytes: formatting changes only the white space between tokens (and
// the line breaks at the end of the file, and so the end of its last
// comment).
func checkTokens(t *testing.T, name string, src, out []byte) {
	t.Helper()
	a, b := tokens(src), tokens(out)
	if len(a) != len(b) {
		t.Fatalf("%s: %d tokens in, %d out", name, len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("%s: token %d is %q, was %q", name, i, b[i], a[i])
		}
	}
}

// tokens lists the type and bytes of each token of src but line breaks.
func tokens(src []byte) []string {
	toks, _ := hclsyntax.LexConfig(src, "", hcl2.InitialPos)
	var out []string
	for _, tok := range toks {
		switch tok.Type {
		case hclsyntax.TokenNewline, hclsyntax.TokenEOF:
			continue
		case hclsyntax.TokenComment:
			out = append(out, tok.Type.String()+" "+strings.TrimRight(string(tok.Bytes), " \t\r\n"))
			continue
		}
		out = append(out, tok.Type.String()+" "+string(tok.Bytes))
	}
	return out
}

// TestNestedHeredoc: a heredoc inside an interpolation of another is kept
// with it.
func TestNestedHeredoc(t *testing.T) {
	src := "a = <<-OUT\n  x ${ <<-IN\n     y\n   IN\n } z\n    OUT\nb=1\n"
	got, err := hclfmt.Format("n.hcl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := "a = <<-OUT\n  x ${ <<-IN\n     y\n   IN\n } z\n    OUT\nb = 1\n"
	if string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestSyntaxError: a file that does not parse gives its syntax errors
// with file:line:column and no output.
func TestSyntaxError(t *testing.T) {
	out, err := hclfmt.Format("bad.hcl", []byte("hook \"a\" {\n  event = \"Stop\"\n  decision = \n}\n"))
	if out != nil {
		t.Errorf("output for a file that does not parse: %q", out)
	}
	var d *hcl.Diagnostics
	if !errors.As(err, &d) || len(d.List) == 0 {
		t.Fatalf("err = %v, want *hcl.Diagnostics", err)
	}
	x := d.List[0]
	if x.File != "bad.hcl" || x.Line != 3 || x.Column != 14 || x.Code != hcl.CodeSyntax || x.Severity != hcl.SeverityError {
		t.Errorf("diagnostic = %+v", x)
	}
	if !strings.Contains(err.Error(), "bad.hcl:3:14: error[HK1001]") {
		t.Errorf("error text:\n%s", err)
	}
}

// TestLineEndings: \r\n files keep \r\n, a final line break is added
// once, an empty file stays empty.
func TestLineEndings(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a=1\r\n  b  = 2\r\n", "a = 1\r\nb = 2\r\n"},
		{"a = 1", "a = 1\n"},
		{"a = 1\n\n\n", "a = 1\n"},
		{"", ""},
		{"\n\n", ""},
		{"# only a comment", "# only a comment\n"},
	} {
		got, err := hclfmt.Format("x.hcl", []byte(c.in))
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if string(got) != c.want {
			t.Errorf("Format(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
