package hcl

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	hcl2 "github.com/hashicorp/hcl/v2"

	"github.com/hookctl/hookctl/internal/termsafe"
)

// Severity is how bad a Diagnostic is.
type Severity string

// Severities.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Diagnostic is one problem of a configuration, at File:Line:Column
// (1-based; Line 0 when it has no position) through EndLine:EndColumn,
// with its stable Code (see Codes). Suggestion, when set, is the fix it
// proposes in a word or a line (the closest known name of a misspelled
// one), for tools that offer it as a quick fix. NewDiagnostic and the
// conversion of the HCL library's diagnostics set it from the
// "Did you mean "X"?" of the detail when it is not set.
type Diagnostic struct {
	File               string
	Line, Column       int
	EndLine, EndColumn int
	Severity           Severity
	Code               Code
	Summary, Detail    string
	Suggestion         string
}

// At is the diagnostic's position as file:line:column.
func (d Diagnostic) At() string { return fmt.Sprintf("%s:%d:%d", d.File, d.Line, d.Column) }

// NewDiagnostic returns a diagnostic of severity sev at r, with the code
// of its summary (CodeOf).
func NewDiagnostic(sev Severity, r Range, summary, detail string) Diagnostic {
	return withSuggestion(Diagnostic{File: r.Filename, Line: r.Start.Line, Column: r.Start.Column, EndLine: r.End.Line, EndColumn: r.End.Column,
		Severity: sev, Code: CodeOf(summary), Summary: summary, Detail: detail})
}

// Diagnostics is every problem found in a configuration, errors and
// warnings, each with its file:line:column; it keeps the sources to show a
// snippet of each. It is an error (Error renders the errors).
type Diagnostics struct {
	List    []Diagnostic
	sources map[string][]byte
}

// fromHCL converts the HCL library's diagnostics.
func fromHCL(ds hcl2.Diagnostics, files map[string]*hcl2.File) *Diagnostics {
	out := &Diagnostics{sources: map[string][]byte{}}
	for name, f := range files {
		if f != nil {
			out.sources[name] = f.Bytes
		}
	}
	for _, d := range ds {
		sev := SeverityError
		if d.Severity == hcl2.DiagWarning {
			sev = SeverityWarning
		}
		x := Diagnostic{Severity: sev, Summary: d.Summary, Detail: d.Detail}
		if d.Subject != nil {
			x = NewDiagnostic(sev, *d.Subject, d.Summary, d.Detail)
		}
		x.Code = codeOfHCL(d)
		out.List = append(out.List, withSuggestion(x))
	}
	return out
}

// With returns the diagnostics with more appended, sharing the sources.
func (d *Diagnostics) With(more ...Diagnostic) *Diagnostics {
	return &Diagnostics{List: append(append([]Diagnostic(nil), d.List...), more...), sources: d.sources}
}

// Join returns d's diagnostics and then other's, with the sources of
// both; either may be nil.
func (d *Diagnostics) Join(other *Diagnostics) *Diagnostics {
	out := &Diagnostics{sources: map[string][]byte{}}
	for _, x := range []*Diagnostics{d, other} {
		if x == nil {
			continue
		}
		out.List = append(out.List, x.List...)
		for k, v := range x.sources {
			out.sources[k] = v
		}
	}
	return out
}

// Error implements error: the errors, rendered without color.
func (d *Diagnostics) Error() string {
	var b bytes.Buffer
	(&Diagnostics{List: d.Errors(), sources: d.sources}).Render(&b)
	return strings.TrimRight(b.String(), "\n")
}

// HasErrors reports whether any diagnostic is an error.
func (d *Diagnostics) HasErrors() bool { return d != nil && len(d.Errors()) > 0 }

// Errors returns the error diagnostics.
func (d *Diagnostics) Errors() []Diagnostic { return d.filter(SeverityError) }

// Warnings returns the warning diagnostics.
func (d *Diagnostics) Warnings() []Diagnostic { return d.filter(SeverityWarning) }

// OnlyWarnings returns the warnings, with the sources for snippets.
func (d *Diagnostics) OnlyWarnings() *Diagnostics {
	return &Diagnostics{List: d.Warnings(), sources: d.sources}
}

func (d *Diagnostics) filter(sev Severity) []Diagnostic {
	if d == nil {
		return nil
	}
	var out []Diagnostic
	for _, x := range d.List {
		if x.Severity == sev {
			out = append(out, x)
		}
	}
	return out
}

// Render writes every diagnostic, sorted by file and position, as
//
//	hooks.hcl:12:3: error[HK1202]: Unsupported argument
//	  An argument named "matchr" is not expected here. Did you mean "matcher"?
//	    11 | hook "x" {
//	    12 |   matchr = "Bash"
//	       |   ^^^^^^
func (d *Diagnostics) Render(w io.Writer) {
	if d == nil {
		return
	}
	ds := append([]Diagnostic(nil), d.List...)
	SortDiagnostics(ds)
	for _, diag := range ds {
		d.renderOne(w, diag)
	}
}

func (d *Diagnostics) renderOne(w io.Writer, diag Diagnostic) {
	// The file name, the summary and the detail can hold text from the
	// configuration or its path: escaped, as the snippet is.
	sev := string(diag.Severity)
	if diag.Code != "" {
		sev += "[" + termsafe.Escape(string(diag.Code)) + "]"
	}
	if diag.Line > 0 {
		fmt.Fprintf(w, "%s: %s: %s\n", termsafe.Escape(diag.At()), sev, termsafe.Escape(diag.Summary))
	} else {
		fmt.Fprintf(w, "%s: %s\n", sev, termsafe.Escape(diag.Summary))
	}
	if diag.Detail != "" {
		for _, line := range strings.Split(diag.Detail, "\n") {
			fmt.Fprintf(w, "  %s\n", termsafe.Escape(line))
		}
	}
	if src := d.sources[diag.File]; diag.Line > 0 && src != nil {
		snippet(w, src, diag)
	}
}

// snippet prints the line before the subject, the subject's lines and a
// caret line under the subject's first line.
func snippet(w io.Writer, src []byte, r Diagnostic) {
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	first := max(1, r.Line-1)
	last := r.EndLine
	if last < r.Line {
		last = r.Line
	}
	if last-r.Line > 3 {
		last = r.Line + 3
	}
	width := len(fmt.Sprint(last))
	for n := 1; sc.Scan(); n++ {
		if n < first {
			continue
		}
		if n > last {
			break
		}
		text := strings.ReplaceAll(sc.Text(), "\t", " ")
		if n != r.Line {
			fmt.Fprintf(w, "  %*d | %s\n", width, n, termsafe.Escape(text))
			continue
		}
		start := min(max(1, r.Column), len(text)+1)
		end := len(text) + 1
		if r.EndLine == r.Line && r.EndColumn > start {
			end = min(r.EndColumn, len(text)+1)
		}
		for start > 1 && start <= len(text) && !utf8.RuneStart(text[start-1]) {
			start--
		}
		for end <= len(text) && !utf8.RuneStart(text[end-1]) {
			end++
		}
		// The source is shown escaped (a control or bidi character in it
		// would act on the terminal), the caret under the escaped subject.
		before, subject := termsafe.Escape(text[:start-1]), termsafe.Escape(text[start-1:end-1])
		fmt.Fprintf(w, "  %*d | %s%s%s\n", width, n, before, subject, termsafe.Escape(text[end-1:]))
		fmt.Fprintf(w, "  %*s | %s%s\n", width, "", strings.Repeat(" ", utf8.RuneCountInString(before)),
			strings.Repeat("^", max(1, utf8.RuneCountInString(subject))))
	}
}

// at formats a range's start as file:line:column.
func at(r hcl2.Range) string {
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}

// CodeOf returns the code of a diagnostic's summary (CodeOther for a
// summary without one).
func CodeOf(summary string) Code {
	if c, ok := bySummary[summary]; ok {
		return c
	}
	return CodeOther
}

// codeExtra carries a code set where a diagnostic was made, keeping the
// HCL library's own Extra.
type codeExtra struct {
	code  Code
	inner any
}

func (e codeExtra) UnwrapDiagnosticExtra() any { return e.inner }

// parsed tags the diagnostics of parsing a file: syntax errors, or a file
// that cannot be read.
func parsed(ds hcl2.Diagnostics) hcl2.Diagnostics {
	for _, d := range ds {
		if _, ok := d.Extra.(codeExtra); ok {
			continue
		}
		c := CodeSyntax
		if d.Summary == "Failed to read file" {
			c = CodeReadFile
		}
		d.Extra = codeExtra{code: c, inner: d.Extra}
	}
	return ds
}

// codeOfHCL is the code of one of the HCL library's diagnostics.
func codeOfHCL(d *hcl2.Diagnostic) Code {
	if e, ok := d.Extra.(codeExtra); ok {
		return e.code
	}
	return CodeOf(d.Summary)
}
