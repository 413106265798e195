package lsp

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/hcl"
)

// TestDiagnosticMessageEscaped: a diagnostic's detail is the exact text
// (validate --json carries it raw); the editor gets it escaped, lines
// kept, so a hook id with ESC or a bidi override shows as \x1b, \u202e.
func TestDiagnosticMessageEscaped(t *testing.T) {
	d := hcl.Diagnostic{Line: 1, Column: 1, EndLine: 1, EndColumn: 2, Severity: hcl.SeverityError, Summary: "Duplicate hook id",
		Detail: "Hook \"x\x1b]0;pwn\a\u202e\" is already declared.\nSecond line."}
	got := toLSP(d, []byte("hook \"x\" {}\n")).Message
	if strings.ContainsAny(got, "\x1b\a\u202e") || !strings.Contains(got, `x\x1b]0;pwn\a\u202e`) || !strings.Contains(got, "\nSecond line.") {
		t.Fatalf("message %q", got)
	}
}
