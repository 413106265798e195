package lsp

import (
	"context"
	"testing"

	"github.com/hookctl/hookctl/hcl"
)

// TestURIPaths: file: URIs as editors send them, on Windows and on Unix,
// and back.
func TestURIPaths(t *testing.T) {
	for _, c := range []struct {
		uri  string
		win  bool
		want string // "" when refused
	}{
		{"file:///home/me/repo/hooks.hcl", false, "/home/me/repo/hooks.hcl"},
		{"file:///home/me/repo/x/../hooks.hcl", false, "/home/me/repo/hooks.hcl"},
		{"file://localhost/home/me/hooks.hcl", false, "/home/me/hooks.hcl"},
		{"file:///home/me/a%20b/hooks.hcl", false, "/home/me/a b/hooks.hcl"},
		{"file://server/share/hooks.hcl", false, ""},
		{"file:hooks.hcl", false, ""},
		{"untitled:Untitled-1", false, ""},
		{"file:///C:/Users/me/repo/hooks.hcl", true, `C:\Users\me\repo\hooks.hcl`},
		{"file:///c%3A/Users/me/repo/hooks.hcl", true, `c:\Users\me\repo\hooks.hcl`},
		{"file:///C:/Users/me/repo/x/../hooks.hcl", true, `C:\Users\me\repo\hooks.hcl`},
		{"file:///C:/../hooks.hcl", true, `C:\hooks.hcl`},
		{"file:///C:/", true, `C:\`},
		{"file:///D:/a%20b/hooks.hcl", true, `D:\a b\hooks.hcl`},
		{"file://server/share/dir/hooks.hcl", true, `\\server\share\dir\hooks.hcl`},
		{"file://server/share/../hooks.hcl", true, `\\server\share\hooks.hcl`},
		{"file://server/", true, ""},
		{"file:///home/me/hooks.hcl", true, ""},
		{"file:///C:hooks.hcl", true, ""},
		{"file:///1:/hooks.hcl", true, ""},
	} {
		got, err := uriPathFor(c.uri, c.win)
		switch {
		case c.want == "" && err == nil:
			t.Errorf("%s (windows %v): %q, want refused", c.uri, c.win, got)
		case c.want != "" && (err != nil || got != c.want):
			t.Errorf("%s (windows %v): %q, %v; want %q", c.uri, c.win, got, err, c.want)
		}
		if c.want == "" {
			continue
		}
		back, err := uriPathFor(pathURIFor(got, c.win), c.win)
		if err != nil || back != got {
			t.Errorf("%s (windows %v): %q -> %s -> %q, %v", c.uri, c.win, got, pathURIFor(got, c.win), back, err)
		}
	}
	for _, c := range []struct {
		path string
		win  bool
		want string
	}{
		{"/home/me/hooks.hcl", false, "file:///home/me/hooks.hcl"},
		{`C:\Users\me\hooks.hcl`, true, "file:///C:/Users/me/hooks.hcl"},
		{`\\server\share\hooks.hcl`, true, "file://server/share/hooks.hcl"},
	} {
		if got := pathURIFor(c.path, c.win); got != c.want {
			t.Errorf("%s (windows %v): %s, want %s", c.path, c.win, got, c.want)
		}
	}
}

// TestDocKey: on Windows the spellings editors use for one file
// (file:///C:/p/h.hcl, VS Code's file:///c%3A/p/h.hcl, any case of its
// names) are one document; on Unix a name's case makes another file.
func TestDocKey(t *testing.T) {
	for _, c := range []struct {
		a, b string
		win  bool
		same bool
	}{
		{"file:///C:/p/h.hcl", "file:///c%3A/p/h.hcl", true, true},
		{"file:///C:/p/h.hcl", "file:///c:/P/H.HCL", true, true},
		{"file:///C:/Users/Me/h.hcl", "file:///c%3a/users/me/./h.hcl", true, true},
		{"file://Server/Share/h.hcl", "file://server/share/H.hcl", true, true},
		{"file:///C:/p/h.hcl", "file:///D:/p/h.hcl", true, false},
		{"file:///C:/p/h.hcl", "file:///C:/p/h1.hcl", true, false},
		// Letters from outside ASCII never fold into it (NTFS does not):
		// ſ is not S, ı not I; é and É are one letter.
		{"file:///C:/p/hooks.hcl", "file:///C:/p/hook%C5%BF.hcl", true, false},
		{"file:///C:/p/I.hcl", "file:///C:/p/%C4%B1.hcl", true, false},
		{"file:///C:/p/%C3%A9.hcl", "file:///C:/p/%C3%89.hcl", true, true},
		{"file:///p/h.hcl", "file:///p/H.hcl", false, false},
		{"file:///P/h.hcl", "file:///p/h.hcl", false, false},
		{"file:///p/h.hcl", "file:///p/./h.hcl", false, true},
	} {
		pa, err1 := uriPathFor(c.a, c.win)
		pb, err2 := uriPathFor(c.b, c.win)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s, %s: %v, %v", c.a, c.b, err1, err2)
		}
		if same := docKey(pa, c.win) == docKey(pb, c.win); same != c.same {
			t.Errorf("%s and %s (windows %v): one document %v, want %v", c.a, c.b, c.win, same, c.same)
		}
	}
}

// TestWindowsSpellingsOneBuffer runs the server's document table with
// Windows' rules: a buffer opened as file:///C:/p/h.hcl and edited as
// file:///c%3A/p/h.hcl is one buffer (it was two, each checked against
// the other's text), read back under either name, keeping the path it
// was opened with, and closed under a third spelling. With Unix's rules
// the two cases are two files.
func TestWindowsSpellingsOneBuffer(t *testing.T) {
	for _, win := range []bool{true, false} {
		s := New(WithChecker(func(context.Context, CheckRequest) []hcl.Diagnostic { return nil }))
		s.win = win
		opened, edited, closed := "file:///C:/p/h.hcl", "file:///c%3A/p/h.hcl", "file:///c:/P/H.HCL"
		if !win {
			opened, edited, closed = "file:///p/h.hcl", "file:///p/H.hcl", "file:///p/H.hcl"
		}
		s.open(TextDocumentItem{URI: opened, Version: 1, Text: "old"})
		s.change(DidChangeTextDocumentParams{
			TextDocument:   VersionedTextDocumentIdentifier{URI: edited, Version: 2},
			ContentChanges: []TextDocumentContentChangeEvent{{Text: "new"}},
		})
		path, text, _ := s.snapshot(opened)
		s.mu.Lock()
		n := len(s.docs)
		s.mu.Unlock()
		switch {
		case win && (n != 1 || string(text) != "new" || path != `C:\p\h.hcl`):
			t.Errorf("windows: %d documents, %s reads %q as %s; want 1, \"new\" as C:\\p\\h.hcl", n, opened, text, path)
		case !win && (n != 2 || string(text) != "old"):
			t.Errorf("unix: %d documents, %s reads %q; want 2, \"old\"", n, opened, text)
		}
		s.close(closed)
		s.mu.Lock()
		n = len(s.docs)
		s.mu.Unlock()
		if want := map[bool]int{true: 0, false: 1}[win]; n != want {
			t.Errorf("windows %v: %d documents after closing %s, want %d", win, n, closed, want)
		}
		s.wg.Wait()
	}
}
