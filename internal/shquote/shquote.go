// Package shquote quotes words for a POSIX shell, for messages that tell
// the user a command to run and for command lines hookctl writes.
package shquote

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Quote returns s quoted for a POSIX shell, unchanged when it needs no
// quoting (mvdan.cc/sh's syntax.Quote); a string POSIX cannot spell with
// escapes (non-printable bytes) is single-quoted as it is.
func Quote(s string) string {
	if q, err := syntax.Quote(s, syntax.LangPOSIX); err == nil {
		return q
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
