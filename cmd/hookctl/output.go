package main

import (
	"encoding/json"
	"io"

	"github.com/hookctl/hookctl/internal/termsafe"
)

// escapeOutput makes the command's output to a terminal safe for text it
// does not control (hook ids, matchers, event names, tool names and inputs
// from a transcript, hook reasons and errors): from here on a.stderr, and
// a.stdout when stdout is true (its human-readable forms, never JSON),
// escape control characters, C1 controls, bidirectional overrides and
// line separators as termsafe.Writer does. Newlines and tabs pass; the
// commands escape them inside the fields they print (termsafe.Escape),
// where they could forge a row. The returned function flushes both.
func (a *app) escapeOutput(stdout bool) (flush func()) {
	var ws []*termsafe.Writer
	wrap := func(w io.Writer) io.Writer {
		if _, done := w.(*termsafe.Writer); done {
			return w
		}
		t := termsafe.NewWriter(w)
		ws = append(ws, t)
		return t
	}
	a.stderr = wrap(a.stderr)
	if stdout {
		a.stdout = wrap(a.stdout)
	}
	return func() {
		for _, t := range ws {
			_ = t.Flush()
		}
	}
}

// writeJSON writes v as JSON and a newline, indented by two spaces unless
// compact. It does not escape <, > and & (json.Marshal writes them as
// \u003c, \u003e, \u0026 for HTML pages): the output is read by people and
// programs, and a reason such as "a -> b" or "x < y && z" stays as written.
// Every JSON document the commands print goes through it.
func writeJSON(w io.Writer, v any, indent bool) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	return enc.Encode(v)
}
