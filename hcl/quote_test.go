package hcl

import (
	"bytes"
	"strings"
	"testing"
)

// TestDetailIsExactText: a diagnostic's Detail holds the user's text as
// written (a hook id with ESC, BEL, U+202E), not escaped for a terminal,
// so validate --json decodes to it; the rendering for a terminal escapes.
func TestDetailIsExactText(t *testing.T) {
	src := "hook \"x\\u001b]0;pwn\\u0007\\u202e\" {\n  event = \"Stop\"\n  decision = \"block\"\n}\n" +
		"hook \"x\\u001b]0;pwn\\u0007\\u202e\" {\n  event = \"Stop\"\n  decision = \"block\"\n}\n"
	cfg := ParseSource("s.hcl", []byte(src), t.TempDir())
	var detail string
	for _, d := range cfg.Diagnostics().List {
		if d.Summary == "Duplicate hook id" {
			detail = d.Detail
		}
	}
	if want := `Hook "x` + "\x1b]0;pwn\a\u202e" + `" is already declared`; !strings.HasPrefix(detail, want) {
		t.Fatalf("detail %q, want it to begin %q", detail, want)
	}
	var out bytes.Buffer
	cfg.Diagnostics().Render(&out)
	if s := out.String(); strings.ContainsAny(s, "\x1b\a\u202e") || !strings.Contains(s, `Hook "x\x1b]0;pwn\a\u202e"`) {
		t.Errorf("terminal rendering not escaped:\n%s", s)
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{`a"b\c`: `"a\"b\\c"`, "é\x1b": "\"é\x1b\"", "": `""`} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Detailf("%q %s %5s|%d", "\a", "b", "c", 1); got != "\"\a\" b     c|1" {
		t.Errorf("Detailf: %q", got)
	}
}
