package shell

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// wordText returns a word as the shell would pass it to a command, with
// quotes and escapes removed and expansions kept as their source text.
func wordText(word *syntax.Word, src string) string {
	if word == nil {
		return ""
	}
	var b strings.Builder
	for _, part := range word.Parts {
		writePart(&b, part, src, false)
	}
	return b.String()
}

// literalWord reports whether the shell expands nothing in a word: it is
// made of literal text, single-quoted strings and double-quoted literal
// text only, so that a $ or a backquote in its text ('$x', \$x, a$/b) is a
// character of it. Globs, braces and a leading tilde are not looked at.
func literalWord(word *syntax.Word) bool {
	if word == nil {
		return true
	}
	for _, part := range word.Parts {
		switch p := part.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, inner := range p.Parts {
				if _, ok := inner.(*syntax.Lit); !ok {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// writePart appends the text of one word part; quoted tells whether the
// part is inside double quotes.
func writePart(b *strings.Builder, part syntax.WordPart, src string, quoted bool) {
	switch p := part.(type) {
	case *syntax.Lit:
		if quoted {
			b.WriteString(unescapeDouble(p.Value))
		} else {
			b.WriteString(unescapeBare(p.Value))
		}
	case *syntax.SglQuoted:
		if p.Dollar {
			b.WriteString(decodeANSIC(p.Value))
		} else {
			b.WriteString(p.Value)
		}
	case *syntax.DblQuoted:
		for _, inner := range p.Parts {
			writePart(b, inner, src, true)
		}
	default:
		b.WriteString(nodeText(part, src))
	}
}

// unescapeBare removes the backslashes of an unquoted literal: a backslash
// quotes the character after it, and a backslash-newline disappears.
func unescapeBare(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeDouble removes the backslashes of a literal inside double quotes,
// where a backslash quotes only $, `, ", \ and newline.
func unescapeDouble(s string) string { return unescapeOnly(s, "$`\"\\") }

// unescapeHeredoc removes the backslashes of a literal in the body of a
// here-document whose delimiter is not quoted, where a backslash quotes
// only $, `, \ and newline.
func unescapeHeredoc(s string) string { return unescapeOnly(s, "$`\\") }

// unescapeOnly removes the backslashes that quote one of the characters
// quotable, and each backslash-newline; any other backslash stays.
func unescapeOnly(s, quotable string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch {
			case s[i+1] == '\n':
				i++
				continue
			case strings.IndexByte(quotable, s[i+1]) >= 0:
				i++
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// decodeANSIC decodes the body of a $'...' string, which uses the escapes
// of C string literals.
func decodeANSIC(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(c)
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			} else {
				b.WriteString(`\c`)
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, j := digits(s, i, 3, 8)
			b.WriteByte(byte(n))
			i = j - 1
		case 'x', 'u', 'U':
			width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			n, j := digits(s, i+1, width, 16)
			switch {
			case j == i+1:
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == 'x':
				b.WriteByte(byte(n))
			case n > utf8.MaxRune:
				b.WriteRune(utf8.RuneError)
			default:
				b.WriteRune(rune(n))
			}
			if j > i+1 {
				i = j - 1
			}
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String()
}

// digits reads up to max digits of the given base from s at i and returns
// their value and the index after the last one.
func digits(s string, i, max, base int) (int, int) {
	j := i
	for j < len(s) && j-i < max {
		if _, err := strconv.ParseUint(s[j:j+1], base, 8); err != nil {
			break
		}
		j++
	}
	if j == i {
		return 0, i
	}
	n, _ := strconv.ParseUint(s[i:j], base, 64)
	return int(n), j
}

// nodeText returns the source text of a node, or its printed form if its
// positions do not lie within src.
func nodeText(node syntax.Node, src string) string {
	start, end := node.Pos(), node.End()
	if start.IsValid() && end.IsValid() && !start.IsRecovered() && !end.IsRecovered() {
		s, e := start.Offset(), end.Offset()
		if s <= e && e <= uint(len(src)) {
			return src[s:e]
		}
	}
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, node); err != nil {
		return ""
	}
	return b.String()
}

// Words splits s into words the way the shell splits the arguments of a
// command, like Python's shlex.split: words are separated by unquoted
// blanks and newlines; single quotes keep their text literally; double
// quotes keep their text but for backslash escapes of $, `, ", \ and
// newline; a backslash outside quotes quotes the next character; $'...'
// strings are decoded like C strings. Expansions are not evaluated: $VAR,
// ${...}, $(...), $((...)) and `...` are kept as written and do not split a
// word even if they contain blanks. Control operators such as ; and | are
// ordinary characters here. Empty quotes make an empty word.
//
// Words returns an error, with the byte offset where it starts, for an
// unterminated quote or expansion.
func Words(s string) ([]string, error) {
	return splitWords(s, false)
}

// splitWords implements Words. When lenient is set, an unterminated quote or
// expansion runs to the end of s instead of being an error.
func splitWords(s string, lenient bool) ([]string, error) {
	var (
		words  []string
		cur    strings.Builder
		inWord bool
	)
	unterminated := func(what string, at int) error {
		return fmt.Errorf("shell: unterminated %s at offset %d", what, at)
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
			i++
			continue
		case c == '\\':
			switch {
			case i+1 == len(s):
				cur.WriteByte('\\')
				i++
			case s[i+1] == '\n':
				i += 2
				continue // a line continuation does not start a word
			default:
				cur.WriteByte(s[i+1])
				i += 2
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				if !lenient {
					return nil, unterminated("single quote", i)
				}
				j = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 2
		case c == '$' && i+1 < len(s) && s[i+1] == '\'':
			j := i + 2
			for j < len(s) && s[j] != '\'' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				if !lenient {
					return nil, unterminated("$' quote", i)
				}
				j = len(s)
			}
			cur.WriteString(decodeANSIC(s[i+2 : j]))
			i = j + 1
		case c == '$' && i+1 < len(s) && s[i+1] == '"':
			i++ // a $"..." string is translated, which Words does not do
			continue
		case c == '"':
			j, ok := writeDouble(&cur, s, i+1)
			if !ok && !lenient {
				return nil, unterminated("double quote", i)
			}
			i = j
		case isExpansionStart(s, i):
			j, ok := scanExpansion(s, i)
			if !ok && !lenient {
				return nil, unterminated("expansion", i)
			}
			cur.WriteString(s[i:j])
			i = j
		default:
			cur.WriteByte(c)
			i++
		}
		inWord = true
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// writeDouble appends the text of a double-quoted string whose body starts
// at s[i] and returns the index after its closing quote, or len(s) and
// false if it has none.
func writeDouble(b *strings.Builder, s string, i int) (int, bool) {
	for i < len(s) {
		switch c := s[i]; {
		case c == '"':
			return i + 1, true
		case c == '\\' && i+1 < len(s):
			switch s[i+1] {
			case '\n':
			case '$', '`', '"', '\\':
				b.WriteByte(s[i+1])
			default:
				b.WriteString(s[i : i+2])
			}
			i += 2
		case isExpansionStart(s, i):
			j, ok := scanExpansion(s, i)
			b.WriteString(s[i:j])
			if !ok {
				return j, false
			}
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return len(s), false
}

// isExpansionStart reports whether s[i:] starts a command substitution,
// braced parameter expansion or arithmetic expansion.
func isExpansionStart(s string, i int) bool {
	if s[i] == '`' {
		return true
	}
	return s[i] == '$' && i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '{')
}

// scanExpansion returns the index after the expansion that starts at s[i]
// (see isExpansionStart), skipping nested quotes and expansions, or len(s)
// and false if it is not terminated.
func scanExpansion(s string, i int) (int, bool) {
	if s[i] == '`' {
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case '`':
				return j + 1, true
			}
		}
		return len(s), false
	}
	open, closing := s[i+1], byte(')')
	if open == '{' {
		closing = '}'
	}
	depth := 0
	for j := i + 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '\\':
			j++
		case c == '\'':
			k := strings.IndexByte(s[j+1:], '\'')
			if k < 0 {
				return len(s), false
			}
			j += k + 1
		case c == '"':
			var discard strings.Builder
			k, ok := writeDouble(&discard, s, j+1)
			if !ok {
				return len(s), false
			}
			j = k - 1
		case c == '`' || (c == '$' && j+1 < len(s) && s[j+1] != open && (s[j+1] == '(' || s[j+1] == '{')):
			k, ok := scanExpansion(s, j)
			if !ok {
				return len(s), false
			}
			j = k - 1
		case c == open:
			depth++
		case c == closing:
			depth--
			if depth == 0 {
				return j + 1, true
			}
		}
	}
	return len(s), false
}
