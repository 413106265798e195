// Package termsafe makes text from configurations, transcripts and hook
// results safe to print to a terminal.
//
// A hook id, a matcher, a tool name from a transcript or a hook's reason
// may hold bytes a terminal acts on rather than shows: ESC starts a
// control sequence (colours, cursor moves, an OSC that sets the window
// title or writes the clipboard), CR returns to the start of the line so
// that later text draws over earlier text, a newline forges a table row,
// the C1 controls (U+0080–U+009F) act as ESC sequences on some terminals,
// and the Unicode bidirectional overrides and isolates reorder what
// follows. Escape replaces each such character with a visible escape in
// the style of strconv.Quote (\x1b, \r, \n, \u202e), leaving everything
// else, backslashes and printable non-ASCII text included, as it is.
// Writer does the same for a whole stream, keeping its newlines and tabs.
package termsafe

import (
	"io"
	"strconv"
	"unicode/utf8"
)

// Unsafe reports whether r is a character Escape replaces: a C0 control,
// DEL, a C1 control, a bidirectional formatting character (U+061C,
// U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), or the line and
// paragraph separators U+2028 and U+2029.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f:
		return true
	case r < 0x80:
		return false
	case r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f,
		r >= 0x2028 && r <= 0x202e,
		r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// Escape returns s with every unsafe character (see Unsafe) and every
// byte that is not valid UTF-8 replaced by a visible escape: \a \b \f \n
// \r \t \v for those controls, \xNN for other bytes below U+0100 and for
// invalid bytes, \uNNNN above. A string with nothing to replace is
// returned as it is, without allocating.
func Escape(s string) string {
	i := firstUnsafe(s, false)
	if i < 0 {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	b = append(b, s[:i]...)
	return string(appendEscaped(b, s[i:], false))
}

// firstUnsafe returns the index of the first byte of s to replace, or -1.
// With keepLines, newlines and tabs are kept.
func firstUnsafe(s string, keepLines bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 || c == 0x7f) && !(keepLines && (c == '\n' || c == '\t')) {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || Unsafe(r) {
			return i
		}
		i += n
	}
	return -1
}

// appendEscaped appends s to b with unsafe characters escaped.
func appendEscaped(b []byte, s string, keepLines bool) []byte {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(b, `\x`...)
			b = appendHex(b, uint64(s[i]), 2)
		case keepLines && (r == '\n' || r == '\t'):
			b = append(b, byte(r))
		case Unsafe(r):
			b = appendRune(b, r)
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return b
}

// appendRune appends the escape of an unsafe rune.
func appendRune(b []byte, r rune) []byte {
	switch r {
	case '\a':
		return append(b, `\a`...)
	case '\b':
		return append(b, `\b`...)
	case '\f':
		return append(b, `\f`...)
	case '\n':
		return append(b, `\n`...)
	case '\r':
		return append(b, `\r`...)
	case '\t':
		return append(b, `\t`...)
	case '\v':
		return append(b, `\v`...)
	}
	if r < 0x100 {
		return appendHex(append(b, `\x`...), uint64(r), 2)
	}
	return appendHex(append(b, `\u`...), uint64(r), 4)
}

func appendHex(b []byte, v uint64, width int) []byte {
	h := strconv.FormatUint(v, 16)
	for i := len(h); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, h...)
}

// Writer escapes what is written through it, as Escape does, but keeps
// newlines and tabs: for a whole human-facing stream (a table, a trace,
// diagnostics) whose lines and columns are its own, and whose fields were
// escaped with Escape where a newline or a tab in them could forge a row
// or a column. A UTF-8 sequence split between two writes is escaped as a
// whole; Flush (or Close) writes a sequence left incomplete at the end.
type Writer struct {
	w       io.Writer
	pending []byte // an incomplete UTF-8 sequence at the end of the last write
	buf     []byte
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write escapes p and writes it. It reports len(p) when all of it was
// written (escaped, or held back as the start of a UTF-8 sequence).
func (t *Writer) Write(p []byte) (int, error) {
	s := p
	if len(t.pending) > 0 {
		s = append(append(t.buf[:0], t.pending...), p...)
		t.pending = t.pending[:0]
	}
	// Hold back an incomplete sequence at the end: the next write may
	// finish it.
	if k := incompleteTail(s); k > 0 {
		t.pending = append(t.pending, s[len(s)-k:]...)
		s = s[:len(s)-k]
	}
	if firstUnsafe(string(s), true) < 0 {
		if _, err := t.w.Write(s); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	out := appendEscaped(make([]byte, 0, len(s)+16), string(s), true)
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes, escaped, a UTF-8 sequence the last write left incomplete.
func (t *Writer) Flush() error {
	if len(t.pending) == 0 {
		return nil
	}
	out := appendEscaped(nil, string(t.pending), true)
	t.pending = t.pending[:0]
	_, err := t.w.Write(out)
	return err
}

// Close is Flush.
func (t *Writer) Close() error { return t.Flush() }

// incompleteTail returns how many bytes at the end of s start a UTF-8
// sequence that the bytes present do not finish (0 if none).
func incompleteTail(s []byte) int {
	for k := 1; k <= utf8.UTFMax-1 && k <= len(s); k++ {
		c := s[len(s)-k]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(s[len(s)-k:]) {
				return k
			}
			return 0
		}
	}
	return 0
}
