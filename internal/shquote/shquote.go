// Package shquote quotes words for a POSIX shell, for messages that tell
// the user a command to run and for command lines hookctl writes.
package shquote

import (
	"errors"
	"strings"
	"unicode/utf8"

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

// ErrUnquotable is what Word returns for a string no shell word can hold
// as it is: one with a NUL byte (a command line ends there) or that is
// not UTF-8 (a JSON file cannot carry it unchanged).
var ErrUnquotable = errors.New("shquote: the string has a NUL byte or is not UTF-8: no shell word in a JSON file holds it")

// Word is Quote for a word written into a command line that a host runs
// through its shell (bash, sh, or crush's mvdan.cc/sh interpreter): the
// shell reads it back as exactly s, one word, with nothing expanded.
func Word(s string) (string, error) {
	if strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) {
		return "", ErrUnquotable
	}
	return Quote(s), nil
}
