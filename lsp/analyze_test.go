package lsp

import (
	"context"
	"testing"

	"github.com/hookctl/hookctl/hcl"
)

func nilChecker(context.Context, CheckRequest) []hcl.Diagnostic { return nil }

// FuzzAnalyze: no text, half-written or binary, and no offset makes the
// analysis or a position conversion panic.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{editing, broken, "hook \"a\" {\n  event = \"Pre", "}}}{{{", "x = <<EOT\n${\n", "\"\xff\xfe\"", "a = [\"b\", {c = \"d\n"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, off int) {
		text := []byte(s)
		analyze(text, off)
		p := positionOf(text, off)
		if o := offsetOf(text, p); off >= 0 && off <= len(text) && o > len(text) {
			t.Fatalf("offset %d out of the text", o)
		}
		hclPosition(text, off%7, off%11)
	})
}

// TestIncrementalChange: a ranged change counts UTF-16 units.
func TestIncrementalChange(t *testing.T) {
	s := New(WithChecker(nilChecker))
	uri := pathURI("/tmp/x/hooks.hcl")
	s.open(TextDocumentItem{URI: uri, Text: "a = \"🔒x\"\n"})
	// Replace the x after the lock (characters 6..7 in UTF-16).
	s.change(DidChangeTextDocumentParams{TextDocument: VersionedTextDocumentIdentifier{URI: uri, Version: 2},
		ContentChanges: []TextDocumentContentChangeEvent{{Range: &Range{Start: Position{0, 7}, End: Position{0, 8}}, Text: "y"}}})
	_, text, _ := s.snapshot(uri)
	if string(text) != "a = \"🔒y\"\n" {
		t.Errorf("text after the change: %q", text)
	}
	s.wg.Wait()
}
