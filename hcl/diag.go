package hcl

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	hcl2 "github.com/hashicorp/hcl/v2"
)

// Diagnostics is every problem found in a configuration, errors and
// warnings, each with its file:line:column and a source snippet.
type Diagnostics struct {
	Diags hcl2.Diagnostics
	// Files holds the sources, for snippets.
	Files map[string]*hcl2.File
}

// Error implements error: the errors, rendered without color.
func (d *Diagnostics) Error() string {
	var b bytes.Buffer
	d.Render(&b)
	return strings.TrimRight(b.String(), "\n")
}

// HasErrors reports whether any diagnostic is an error.
func (d *Diagnostics) HasErrors() bool { return d != nil && d.Diags.HasErrors() }

// Errors returns the error diagnostics.
func (d *Diagnostics) Errors() hcl2.Diagnostics { return filter(d.Diags, hcl2.DiagError) }

// Warnings returns the warning diagnostics.
func (d *Diagnostics) Warnings() hcl2.Diagnostics { return filter(d.Diags, hcl2.DiagWarning) }

func filter(ds hcl2.Diagnostics, sev hcl2.DiagnosticSeverity) hcl2.Diagnostics {
	var out hcl2.Diagnostics
	for _, d := range ds {
		if d.Severity == sev {
			out = append(out, d)
		}
	}
	return out
}

// Render writes every diagnostic, sorted by file and position, as
//
//	hooks.hcl:12:3: error: Unsupported argument
//	  An argument named "matchr" is not expected here. Did you mean "matcher"?
//	    11 | hook "x" {
//	    12 |   matchr = "Bash"
//	       |   ^^^^^^
func (d *Diagnostics) Render(w io.Writer) {
	ds := append(hcl2.Diagnostics(nil), d.Diags...)
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i].Subject, ds[j].Subject
		switch {
		case a == nil || b == nil:
			return a != nil
		case a.Filename != b.Filename:
			return a.Filename < b.Filename
		case a.Start.Line != b.Start.Line:
			return a.Start.Line < b.Start.Line
		}
		return a.Start.Column < b.Start.Column
	})
	for _, diag := range ds {
		renderOne(w, diag, d.Files)
	}
}

func renderOne(w io.Writer, diag *hcl2.Diagnostic, files map[string]*hcl2.File) {
	sev := "error"
	if diag.Severity == hcl2.DiagWarning {
		sev = "warning"
	}
	if r := diag.Subject; r != nil {
		fmt.Fprintf(w, "%s:%d:%d: %s: %s\n", r.Filename, r.Start.Line, r.Start.Column, sev, diag.Summary)
	} else {
		fmt.Fprintf(w, "%s: %s\n", sev, diag.Summary)
	}
	if diag.Detail != "" {
		for _, line := range strings.Split(diag.Detail, "\n") {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
	if r := diag.Subject; r != nil {
		if f := files[r.Filename]; f != nil {
			snippet(w, f.Bytes, *r)
		}
	}
}

// snippet prints the line before the subject, the subject's lines and a
// caret line under the subject's first line.
func snippet(w io.Writer, src []byte, r hcl2.Range) {
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	first := max(1, r.Start.Line-1)
	last := r.End.Line
	if last < r.Start.Line {
		last = r.Start.Line
	}
	if last-r.Start.Line > 3 {
		last = r.Start.Line + 3
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
		fmt.Fprintf(w, "  %*d | %s\n", width, n, text)
		if n == r.Start.Line {
			start := max(1, r.Start.Column)
			end := len(text) + 1
			if r.End.Line == r.Start.Line && r.End.Column > start {
				end = min(r.End.Column, len(text)+1)
			}
			if end <= start {
				end = start + 1
			}
			fmt.Fprintf(w, "  %*s | %s%s\n", width, "", strings.Repeat(" ", start-1), strings.Repeat("^", end-start))
		}
	}
}

// at formats a range's start as file:line:column.
func at(r hcl2.Range) string {
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}
