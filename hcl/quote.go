package hcl

import (
	"fmt"
	"io"
	"strings"
)

// Quote returns s in double quotes with only `"` and `\` escaped, for the
// text of a diagnostic: unlike %q it leaves control and format characters
// as they are, so that a diagnostic's Detail is the exact text (validate
// --json encodes it, and the JSON decodes back to the hook id as written);
// the terminal rendering (Diagnostics.Render) escapes what is unsafe to
// print.
func Quote(s string) string {
	return `"` + quoteEscaper.Replace(s) + `"`
}

var quoteEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// Text is a string that %q formats with Quote: pass user text (a hook id,
// a field name) to a diagnostic's fmt.Sprintf as Text(s) to keep it exact.
type Text string

// Format implements fmt.Formatter.
func (t Text) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		io.WriteString(f, Quote(string(t)))
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), string(t))
}

// Detailf is fmt.Sprintf with every string argument formatted as Text:
// the way to write a diagnostic's Detail.
func Detailf(format string, args ...any) string {
	args = append([]any(nil), args...) // the caller's slice stays as it was
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = Text(s)
		}
	}
	return fmt.Sprintf(format, args...)
}
