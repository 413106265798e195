package hcl

import (
	"regexp"
	"sort"
	"strconv"
)

// didYouMean finds the name a diagnostic proposes in its text: every
// "Did you mean %q?" of hookctl's checks and of the HCL library (an
// unsupported argument or block type).
var didYouMean = regexp.MustCompile(`(?i)\bdid you mean ("(?:[^"\\]|\\.)*")`)

// suggestionOf returns the name the first "Did you mean "X"?" of text
// proposes, unquoted, or "".
func suggestionOf(text string) string {
	m := didYouMean.FindStringSubmatch(text)
	if m == nil {
		return ""
	}
	s, err := strconv.Unquote(m[1])
	if err != nil {
		return ""
	}
	return s
}

// withSuggestion sets d.Suggestion, when it is empty, to the name its
// detail (or summary) proposes.
func withSuggestion(d Diagnostic) Diagnostic {
	if d.Suggestion == "" {
		if d.Suggestion = suggestionOf(d.Detail); d.Suggestion == "" {
			d.Suggestion = suggestionOf(d.Summary)
		}
	}
	return d
}

// SortDiagnostics sorts ds by file, line and column, the diagnostics
// without a position last, keeping the order of equal ones: the order
// Render prints them in.
func SortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		switch {
		case a.Line == 0 || b.Line == 0:
			return a.Line != 0
		case a.File != b.File:
			return a.File < b.File
		case a.Line != b.Line:
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}
