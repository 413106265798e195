package patch_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lib/patch"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name  string
		text  string
		paths []string
		files []patch.File
	}{
		{
			name:  "add",
			text:  "*** Begin Patch\n*** Add File: .env\n+KEY=1\n+B=2\n*** End Patch\n",
			paths: []string{".env"},
			files: []patch.File{{Op: patch.Add, Path: ".env", Content: "KEY=1\nB=2\n"}},
		},
		{
			name:  "every operation",
			text:  "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** Delete File: b.txt\n*** Update File: c.go\n*** Move to: d.go\n@@ func f()\n-old\n+new\n*** End Patch",
			paths: []string{"a.txt", "b.txt", "c.go", "d.go"},
			files: []patch.File{
				{Op: patch.Add, Path: "a.txt", Content: "hi\n"},
				{Op: patch.Delete, Path: "b.txt"},
				{Op: patch.Update, Path: "c.go", MoveTo: "d.go"},
			},
		},
		{
			name:  "update then add, no @@ on the first change",
			text:  "*** Begin Patch\n*** Update File: x.py\n import os\n+import sys\n*** Add File: .env.local\n+S=1\n*** End Patch",
			paths: []string{"x.py", ".env.local"},
		},
		{
			name:  "heredoc wrapper and padding",
			text:  "<<'EOF'\n  *** Begin Patch  \n  *** Add File: ../.env  \n+X\n*** End Patch\nEOF\n",
			paths: []string{"../.env"},
		},
		{
			name:  "crlf, blank lines between changes, end of file",
			text:  "*** Begin Patch\r\n*** Update File: /etc/hosts\r\n@@\r\n-a\r\n+b\r\n\r\n@@ x\r\n c\r\n*** End of File\r\n*** End Patch\r\n",
			paths: []string{"/etc/hosts"},
		},
		{
			name:  "a context line that looks like a marker is content",
			text:  "*** Begin Patch\n*** Update File: doc.md\n@@\n *** Add File: .env\n+x\n*** End Patch",
			paths: []string{"doc.md"},
		},
		{
			name:  "same file twice",
			text:  "*** Begin Patch\n*** Delete File: a\n*** Add File: a\n+1\n*** End Patch",
			paths: []string{"a"},
		},
		{name: "empty patch", text: "*** Begin Patch\n*** End Patch", paths: nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := patch.Parse(tc.text)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got := p.Paths(); !slices.Equal(got, tc.paths) {
				t.Errorf("Paths() = %q, want %q", got, tc.paths)
			}
			if tc.files != nil && !slices.Equal(p.Files, tc.files) {
				t.Errorf("Files = %+v, want %+v", p.Files, tc.files)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, text := range []string{
		"",
		"*** Add File: .env\n+x",
		"*** Begin Patch\n*** Add File: .env\n+x",
		"*** Begin Patch\n*** Create File: .env\n+x\n*** End Patch",
		"*** Begin Patch\n*** Add File:\n+x\n*** End Patch",
		"*** Begin Patch\n*** Update File: a\n*** End Patch",
		"*** Begin Patch\n*** Update File: a\ngarbage\n*** End Patch",
		"*** Begin Patch\n*** Update File: a\n@@\n+x\ngarbage\n*** End Patch",
		"*** Begin Patch\n*** Update File: a\n@@\n*** End Patch",
		"*** Begin Patch\n*** Update File: a\n@@\n*** End of File\n*** End Patch",
		"<<EOF\n*** Begin Patch\n*** Add File: .env\nEOF",
		"*** Begin Patch\n+x\n*** End Patch",
	} {
		_, err := patch.Parse(text)
		var se *patch.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) error = %v, want a *SyntaxError", text, err)
		}
	}
}

// FuzzParse: Parse never panics; the paths of a patch it reads are
// non-empty, on one line, and spelled on a marker line of the text; and a
// patch written from arbitrary one-line paths reads back as those paths.
func FuzzParse(f *testing.F) {
	f.Add("*** Begin Patch\n*** Add File: .env\n+x\n*** End Patch", "a.txt", ".env")
	f.Add("<<'EOF'\n*** Begin Patch\n*** Update File: a\n*** Move to: b\n@@\n-x\n+y\n*** End Patch\nEOF", "../x", "/abs")
	f.Add("*** Begin Patch\r\n*** Delete File: a\r\n*** End Patch", " sp ", "*")
	f.Fuzz(func(t *testing.T, text, a, b string) {
		if p, err := patch.Parse(text); err == nil {
			for _, s := range p.Paths() {
				if s == "" || strings.ContainsAny(s, "\n") {
					t.Fatalf("path %q", s)
				}
				if !strings.Contains(text, s) {
					t.Fatalf("path %q is not in the text", s)
				}
			}
		}
		a, b = strings.TrimSpace(oneLine(a)), oneLine(b)
		if a == "" || strings.TrimSpace(b) == "" || strings.HasSuffix(b, "\r") {
			return
		}
		text = "*** Begin Patch\n*** Add File: " + a + "\n+" + b + "\n*** Update File: " + a + "\n*** Move to: " + b + "\n@@\n-" + a + "\n+" + b + "\n*** End Patch\n"
		p, err := patch.Parse(text)
		if err != nil {
			t.Fatalf("Parse(%q): %v", text, err)
		}
		want := []string{a}
		if b != a {
			want = append(want, b)
		}
		if got := p.Paths(); !slices.Equal(got, want) {
			t.Fatalf("Paths() = %q, want %q", got, want)
		}
	})
}

func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}
