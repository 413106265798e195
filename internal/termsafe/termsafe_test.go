package termsafe_test

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hookctl/hookctl/internal/termsafe"
)

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"Bash":                           "Bash",
		`\brm\s+-rf\b`:                   `\brm\s+-rf\b`,
		"a → b — c…":                     "a → b — c…",
		"\x1b]0;pwned\x07Bash":           `\x1b]0;pwned\aBash`,
		"allow-everything\rno-rm":        `allow-everything\rno-rm`,
		"Bash\n23  2  PreToolUse  forge": `Bash\n23  2  PreToolUse  forge`,
		"a\tb\x7f\x00":                   `a\tb\x7f\x00`,
		"\u009b31m":                      `\x9b31m`,
		"abc\u202edcba":                  `abc\u202edcba`,
		"x\u2028y\u2029z\u2066\u200f":    `x\u2028y\u2029z\u2066\u200f`,
		"bad\xff\x9bbyte":                `bad\xff\x9bbyte`,
	} {
		if got := termsafe.Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEscapeDoesNotAllocateForSafeText(t *testing.T) {
	s := "PreToolUse  Bash  rm -rf ~/  deny → no-rm"
	if n := testing.AllocsPerRun(100, func() { _ = termsafe.Escape(s) }); n != 0 {
		t.Errorf("Escape of safe text: %v allocations", n)
	}
}

// writeSplit writes s through a Writer in pieces of size n.
func writeSplit(s string, n int) string {
	var out bytes.Buffer
	w := termsafe.NewWriter(&out)
	for len(s) > 0 {
		k := min(n, len(s))
		w.Write([]byte(s[:k]))
		s = s[k:]
	}
	w.Flush()
	return out.String()
}

// escapedKeepingLines is what Writer must produce: Escape of each piece
// between newlines and tabs.
func escapedKeepingLines(s string) string {
	var b strings.Builder
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		for j, cell := range strings.Split(line, "\t") {
			if j > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(termsafe.Escape(cell))
		}
	}
	return b.String()
}

func TestWriterKeepsLinesAndEscapesAcrossWrites(t *testing.T) {
	s := "LINE\tTOOL\n1\t\x1b[2J\u202eBash\u009b\r\n2\t\xe2\x80\xaeok é\xff\n"
	want := escapedKeepingLines(s)
	for n := 1; n <= len(s); n++ {
		if got := writeSplit(s, n); got != want {
			t.Fatalf("written in pieces of %d:\n%q\nwant\n%q", n, got, want)
		}
	}
}

// FuzzWriter: whatever is written, in whatever pieces, no unsafe
// character comes out, and the output is Escape's with lines kept.
func FuzzWriter(f *testing.F) {
	f.Add("\x1b]0;x\x07\r\n\u202e\u2028", 3)
	f.Add("plain → text", 1)
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n <= 0 {
			n = 1
		}
		got := writeSplit(s, n)
		if want := escapedKeepingLines(s); got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8 out: %q", got)
		}
		for _, r := range got {
			if termsafe.Unsafe(r) && r != '\n' && r != '\t' {
				t.Fatalf("unsafe %U out: %q", r, got)
			}
		}
		if e := termsafe.Escape(s); strings.ContainsAny(e, "\n\t\r\x1b") {
			t.Fatalf("Escape left a control: %q", e)
		}
	})
}
