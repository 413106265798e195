package hcl

import "testing"

func TestSuggestionOf(t *testing.T) {
	for text, want := range map[string]string{
		`An argument named "matchr" is not expected here. Did you mean "matcher"?`:  "matcher",
		`"bash" matches no tool: matchers are case-sensitive. Did you mean "Bash"?`: "Bash",
		`no field "comand"; did you mean "command"?`:                                "command",
		`Did you mean "builtin:x" (a built-in's id)?`:                               "builtin:x",
		`Did you mean "a\"b"?`:    `a"b`,
		`There is no such thing.`: "",
		`Did you mean it?`:        "",
	} {
		if got := suggestionOf(text); got != want {
			t.Errorf("suggestionOf(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestDiagnosticSuggestion: the diagnostics that propose a closest name
// carry it in Suggestion, those of the HCL library's decoder included.
func TestDiagnosticSuggestion(t *testing.T) {
	src := `hook "a" {
  event    = "PreToolUs"
  matchr   = "Bash"
  decision = "deny"
}
`
	cfg := ParseSource("s.hcl", []byte(src), t.TempDir())
	got := map[string]string{}
	for _, d := range cfg.Diagnostics().List {
		got[d.Summary] = d.Suggestion
	}
	for summary, want := range map[string]string{"Unknown event": "PreToolUse", "Unsupported argument": "matcher"} {
		if s, ok := got[summary]; !ok || s != want {
			t.Errorf("%s: suggestion %q, want %q (diagnostics %v)", summary, s, want, got)
		}
	}
	if d := NewDiagnostic(SeverityWarning, Range{}, "X", `Did you mean "y"?`); d.Suggestion != "y" {
		t.Errorf("NewDiagnostic: suggestion %q", d.Suggestion)
	}
}
