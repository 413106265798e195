package shquote

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// words parses a command line with mvdan.cc/sh (in the variant lang) and
// returns its words as the shell expands them; false when it is not one
// simple command of literal words.
func words(t *testing.T, line string, lang syntax.LangVariant) ([]string, bool) {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(lang)).Parse(strings.NewReader(line), "")
	if err != nil || len(f.Stmts) != 1 {
		t.Logf("parse %q: %v", line, err)
		return nil, false
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || f.Stmts[0].Redirs != nil {
		return nil, false
	}
	dynamic := false
	syntax.Walk(call, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst, *syntax.ExtGlob, *syntax.BraceExp:
			dynamic = true
		}
		return true
	})
	if dynamic {
		return nil, false
	}
	var out []string
	for _, w := range call.Args {
		// Fields is how the interpreter expands a command's arguments.
		fs, err := expand.Fields(nil, w)
		if err != nil || len(fs) != 1 {
			return nil, false
		}
		out = append(out, fs[0])
	}
	return out, true
}

// FuzzWord: what Word quotes, a shell parser (POSIX and bash) reads back
// as exactly one word, the same string, with nothing to expand.
func FuzzWord(f *testing.F) {
	for _, s := range []string{"plain", "/a/my proj/hooks.hcl", "it's", "$(rm -rf ~)", "`id`", "a;b&&c|d", "~user", "*.hcl", "{a,b}", "x\ny", "\t", "\a\x01", "é", "!", "#c", "-c", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := Word(s)
		if err != nil {
			if !errors.Is(err, ErrUnquotable) {
				t.Fatal(err)
			}
			return
		}
		for _, lang := range []syntax.LangVariant{syntax.LangPOSIX, syntax.LangBash} {
			got, ok := words(t, "prog "+q+" tail", lang)
			if !ok || len(got) != 3 || got[1] != s || got[2] != "tail" {
				t.Fatalf("%q quoted as %s reads back (%v) as %q", s, q, lang, got)
			}
		}
	})
}

// TestWordRunsInBash: the words the fuzz seeds, run by bash -c, are
// themselves (the shell Gemini CLI and Codex run hooks with).
func TestWordRunsInBash(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	for _, s := range []string{"/a/my proj/hooks.hcl", "it's", "$(touch pwned)", "`id`", "a;b&&c|d", "~", "*", "x\ny", "\a", "!x"} {
		q, err := Word(s)
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("bash", "-c", "printf %s "+q).Output()
		if err != nil || string(out) != s {
			t.Errorf("%q quoted as %s gives %q (%v)", s, q, out, err)
		}
	}
	for _, s := range []string{"a\x00b", "\xff"} {
		if _, err := Word(s); !errors.Is(err, ErrUnquotable) {
			t.Errorf("Word(%q): %v", s, err)
		}
	}
}
