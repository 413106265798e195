package builtin

import (
	"strconv"
	"strings"
)

// printed returns what an echo or printf command prints, argv being its
// words (the name first), as bash's builtins print it: echo's words after
// its own options (-n, -e, -E and their combinations), with -e's
// escapes; printf's format applied to its arguments (%s, %b, %c, %%,
// reused for the arguments left, as printf does), with its escapes.
// ok is false for output the guard cannot work out (another directive, an
// escape it does not read, more than maxPrinted bytes): it must then
// count as unknown, never as the words written.
func printed(argv []string) (string, bool) {
	if len(argv) == 0 {
		return "", false
	}
	args := argv[1:]
	switch argv[0] {
	case "echo":
		escapes, explicitE := false, false
		for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
			if i := strings.LastIndexAny(args[0], "eE"); i > 0 {
				escapes, explicitE = args[0][i] == 'e', args[0][i] == 'E'
			}
			args = args[1:]
		}
		text := strings.Join(args, " ")
		if !escapes {
			if strings.IndexByte(text, '\\') >= 0 && !explicitE {
				// With shopt -s xpg_echo (or as sh's echo) the escapes
				// are read: which one holds is not followed.
				return "", false
			}
			return text, true
		}
		return unescape(text, escEcho)
	case "printf":
		if len(args) > 1 && args[0] == "-v" {
			return "", true // it prints nothing: it assigns
		}
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		if len(args) == 0 {
			return "", false
		}
		return printfFormat(args[0], args[1:])
	}
	return "", false
}

// maxPrinted bounds the output printed works out (a format repeated for
// each of a thousand arguments would make a script of megabytes).
const maxPrinted = 64 << 10

// printfFormat applies printf's format to args.
func printfFormat(format string, args []string) (string, bool) {
	var b strings.Builder
	for {
		if b.Len() > maxPrinted {
			return "", false
		}
		used := 0
		for i := 0; i < len(format); i++ {
			c := format[i]
			switch {
			case c == '\\':
				s, n, ok := escape(format[i:], escFormat)
				if !ok {
					return "", false
				}
				b.WriteString(s)
				i += n - 1
			case c == '%' && i+1 < len(format):
				i++
				var arg string
				if format[i] != '%' && used < len(args) {
					arg = args[used]
				}
				switch format[i] {
				case '%':
					b.WriteByte('%')
					continue
				case 's':
				case 'c':
					if arg != "" {
						arg = arg[:1]
					}
				case 'b':
					s, ok := unescape(arg, escB)
					if !ok {
						return "", false
					}
					arg = s
				default:
					return "", false // a width, a number: not worked out
				}
				used++
				b.WriteString(arg)
			case c == '%':
				return "", false
			default:
				b.WriteByte(c)
			}
		}
		// The format is used again while arguments are left.
		if used == 0 || used >= len(args) {
			return b.String(), true
		}
		args = args[used:]
	}
}

// The escapes of printf's format, and those of echo -e and of printf's
// %b argument, which differ in their octal escape (\NNN, \0NNN) and in
// \" (a quote in a format, kept as written by echo).
const (
	escFormat = iota
	escEcho
	escB // printf's %b: \NNN and \0NNN both
)

// unescape reads the backslash escapes of text (mode escEcho or
// escFormat).
func unescape(text string, mode int) (string, bool) {
	var out strings.Builder
	for i := 0; i < len(text); i++ {
		if out.Len() > maxPrinted {
			return "", false
		}
		if text[i] != '\\' {
			out.WriteByte(text[i])
			continue
		}
		s, n, ok := escape(text[i:], mode)
		if !ok {
			return "", false
		}
		out.WriteString(s)
		i += n - 1
	}
	return out.String(), true
}

// escape reads one escape at the start of s (s[0] is a backslash): what
// it stands for and its length.
func escape(s string, mode int) (string, int, bool) {
	if len(s) < 2 {
		return "\\", 1, true
	}
	if ch, ok := charEscapes[s[1]]; ok {
		return ch, 2, true
	}
	switch c := s[1]; c {
	case 'c':
		return "", 2, false // stops the output: not worked out
	case 'x':
		j := 2
		for j < len(s) && j < 4 && isHex(s[j]) {
			j++
		}
		if j == 2 {
			return "", 0, false
		}
		v, _ := strconv.ParseUint(s[2:j], 16, 8)
		return string(rune(v)), j, true
	case '"', '\'':
		if mode == escFormat {
			return s[1:2], 2, true
		}
	case '0', '1', '2', '3', '4', '5', '6', '7':
		j, max := 1, 4
		switch {
		case mode == escEcho && c != '0':
			return s[:2], 2, true // \1 is no escape of echo's
		case mode != escFormat && c == '0':
			j, max = 2, 5 // \0NNN
		}
		for j < len(s) && j < max && s[j] >= '0' && s[j] <= '7' {
			j++
		}
		v, _ := strconv.ParseUint(s[1:j], 8, 16)
		if v > 255 || v == 0 {
			return "", 0, false
		}
		return string(rune(v)), j, true
	case 'u', 'U':
		return "", 0, false
	}
	return s[:2], 2, true // not an escape: kept as written
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// charEscapes are the escapes of one character: each stands for its
// character, control characters included (a # after one is in a word,
// not a comment, as for bash).
var charEscapes = map[byte]string{
	'n': "\n", 't': "\t", '\\': "\\", 'a': "\a", 'b': "\b", 'f': "\f", 'r': "\r", 'v': "\v", 'e': "\x1b", 'E': "\x1b",
}
