package shell

import "strings"

// piece is a part of a malformed command line between two separators.
type piece struct {
	text     string
	op       string // the separator before it
	subshell bool   // whether it follows an unclosed ( or `
}

// splitPieces splits a line on the shell's control operators (;, &&, ||, |,
// |&, &, newline) and on parentheses and backquotes, without regard to
// quoting. The & of a redirection such as 2>&1 or &> is not a separator, nor
// is the | of >|.
func splitPieces(line string) []piece {
	var (
		pieces []piece
		start  int
		op     string
		depth  int
		inBq   bool
	)
	// cut ends the current piece at end and starts the next one at next.
	// A blank piece is dropped, and the separator before it carries over
	// to the next piece unless that one has its own.
	cut := func(end, next int, nextOp string) {
		text := line[start:end]
		if strings.TrimSpace(text) != "" {
			pieces = append(pieces, piece{text: text, op: op, subshell: depth > 0 || inBq})
			op = ""
		}
		if nextOp != "" {
			op = nextOp
		}
		start = next
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch c {
		case ';', '\n':
			n := 1
			if c == ';' && i+1 < len(line) && line[i+1] == ';' {
				n = 2
			}
			cut(i, i+n, string(c))
			i += n - 1
		case '&', '|':
			prev := byte(0)
			if i > 0 {
				prev = line[i-1]
			}
			next := byte(0)
			if i+1 < len(line) {
				next = line[i+1]
			}
			switch {
			case prev == '>' || prev == '<' || (c == '&' && next == '>'):
				continue // 2>&1, >&2, <&3, &>file, >|file
			case next == c || (c == '|' && next == '&'):
				cut(i, i+2, string(c)+string(next))
				i++
			default:
				cut(i, i+1, string(c))
			}
		case '(', ')', '`':
			end := i
			if c == '(' && i > 0 && strings.IndexByte("$<>", line[i-1]) >= 0 {
				end = i - 1 // $( <( >( start a nested list
			}
			cut(end, i+1, "")
			switch c {
			case '(':
				depth++
			case ')':
				depth = max(depth-1, 0)
			default:
				inBq = !inBq
			}
		}
	}
	cut(len(line), len(line), "")
	return pieces
}

// headers are reserved words that start a piece which is not a command.
var headers = map[string]bool{"case": true, "for": true, "function": true, "select": true}

// keywords are reserved words that may precede a command in a piece.
var keywords = map[string]bool{
	"!": true, "{": true, "}": true, "do": true, "done": true, "elif": true, "else": true,
	"esac": true, "fi": true, "if": true, "then": true, "until": true, "while": true,
}

// fallback reports the commands of a line that is not valid bash, using a
// conservative tokenizer: see splitPieces. Each piece is split into words
// leniently, reserved words and assignments before the command are
// skipped, redirections are left out, and launchers are unwrapped as for a
// parsed line.
func (w *walker) fallback(line string, fr frame) flow {
	base := fr.op
	cur := fr.dir
	for i, p := range splitPieces(line) {
		words, _ := splitWords(p.text, true)
		words = dropRedirections(words)
		for len(words) > 0 && keywords[words[0]] {
			words = words[1:]
		}
		if len(words) == 0 || headers[words[0]] {
			continue
		}
		var assigns []string
		for len(words) > 0 && isAssignment(words[0]) && !strings.HasPrefix(words[0], "-") {
			assigns = append(assigns, words[0])
			words = words[1:]
		}
		argv := make([]arg, len(words))
		for j, word := range words {
			argv[j] = arg{text: word, word: -1}
		}
		pf := fr
		pf.op = p.op
		if i == 0 {
			pf.op = base
		}
		pf.subshell = fr.subshell || p.subshell
		pf.dir = cur
		used := w.command(argv, assigns, nil, nil, pf)
		if !p.subshell {
			// The operators are not known for sure here: a cd may
			// have failed.
			cur = used.flow.any()
		}
	}
	return same(cur)
}

// redirOps are the redirection operators, longest first.
var redirOps = []string{"&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">&", ">|", ">"}

// dropRedirections returns words without the redirections among them,
// such as "2>&1", ">out" or "> out" (two words).
func dropRedirections(words []string) []string {
	out := words[:0:0]
	for i := 0; i < len(words); i++ {
		w := strings.TrimLeft(words[i], "0123456789")
		op := ""
		for _, o := range redirOps {
			if strings.HasPrefix(w, o) {
				op = o
				break
			}
		}
		switch {
		case op == "":
			out = append(out, words[i])
		case w == op:
			i++ // the target is the next word
		}
	}
	return out
}
