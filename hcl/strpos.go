package hcl

import (
	"strconv"
	"unicode/utf8"
)

// StringColumns maps a one-line quoted string literal back to its source,
// for diagnostics at a position inside its value (a payload path in a
// when condition): cols[i] is the column of the file where byte i of the
// string's value is written, and cols[len(value)] the column just after
// the value (the closing quote). Escapes (\", \\, \n, \u202e, $${, %%{)
// and non-ASCII text make the value's offsets and the columns differ;
// columns count characters, as Range's do. src is the file's content and
// r the literal's range, quotes included. It returns false when the
// range is not a quoted string on one line without interpolations.
func StringColumns(src []byte, r Range) ([]int, bool) {
	if r.Start.Line != r.End.Line || r.Start.Byte < 0 || r.End.Byte > len(src) || r.End.Byte-r.Start.Byte < 2 {
		return nil, false
	}
	lit := src[r.Start.Byte:r.End.Byte]
	if lit[0] != '"' || lit[len(lit)-1] != '"' {
		return nil, false
	}
	body := lit[1 : len(lit)-1]
	col := r.Start.Column + 1
	var cols []int
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\':
			n, size := unescape(body[i:])
			if n < 0 {
				return nil, false
			}
			for range n {
				cols = append(cols, col)
			}
			i += size
			col += size // escapes are ASCII
		case (c == '$' || c == '%') && i+2 < len(body) && body[i+1] == c && body[i+2] == '{':
			cols = append(cols, col, col+2) // $${ is the value's ${
			i += 3
			col += 3
		case (c == '$' || c == '%') && i+1 < len(body) && body[i+1] == '{':
			return nil, false // an interpolation or a directive
		default:
			_, size := utf8.DecodeRune(body[i:])
			for range size {
				cols = append(cols, col)
			}
			i += size
			col++
		}
	}
	return append(cols, col), true
}

// unescape returns how many bytes of the value the escape sequence at the
// start of s stands for, and how many bytes of source it takes; n < 0 for
// a sequence HCL does not take.
func unescape(s []byte) (n, size int) {
	if len(s) < 2 {
		return -1, 0
	}
	switch s[1] {
	case 'n', 'r', 't', '"', '\\':
		return 1, 2
	case 'u', 'U':
		digits := 4
		if s[1] == 'U' {
			digits = 8
		}
		if len(s) < 2+digits {
			return -1, 0
		}
		v, err := strconv.ParseUint(string(s[2:2+digits]), 16, 32)
		if err != nil || !utf8.ValidRune(rune(v)) {
			return -1, 0
		}
		return utf8.RuneLen(rune(v)), 2 + digits
	}
	return -1, 0
}
