package relit

import (
	"regexp"
	"regexp/syntax"
	"strings"
)

// Literal is an ASCII string every match contains; Fold means ASCII
// case-insensitively.
type Literal struct {
	S    string
	Fold bool
}

// Required returns the ASCII literals every match of re contains, in
// pattern order.
func Required(re *syntax.Regexp) []Literal {
	var out []Literal
	required(re, &out)
	return out
}

func required(re *syntax.Regexp, out *[]Literal) {
	switch re.Op {
	case syntax.OpLiteral:
		// Every ASCII run of a literal is itself required.
		fold := re.Flags&syntax.FoldCase != 0
		start := -1
		for i := 0; i <= len(re.Rune); i++ {
			r := rune(0x80) // the end closes the last run
			if i < len(re.Rune) {
				r = re.Rune[i]
			}
			switch {
			case r < 0x80 && start < 0:
				start = i
			case r >= 0x80 && start >= 0:
				*out = append(*out, Literal{S: string(re.Rune[start:i]), Fold: fold})
				start = -1
			}
		}
	case syntax.OpCapture, syntax.OpPlus:
		required(re.Sub[0], out)
	case syntax.OpRepeat:
		if re.Min >= 1 {
			required(re.Sub[0], out)
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			required(sub, out)
		}
	}
}

// RulesOut reports whether s cannot match because it lacks one of lits.
// Case-folded literals are checked only when fold is true, which the
// caller may say of a string FoldsLikeASCII accepts: in other strings
// Unicode folding (the Kelvin sign folds to k) is the regex's business.
func RulesOut(lits []Literal, s string, fold bool) bool {
	for _, l := range lits {
		switch {
		case !l.Fold:
			if !strings.Contains(s, l.S) {
				return true
			}
		case fold:
			if !ContainsFold(s, l.S) {
				return true
			}
		}
	}
	return false
}

// FoldsLikeASCII reports whether s has no character outside ASCII that
// Unicode simple case folding maps to an ASCII one: none but the long s
// (U+017F, folds to s) and the Kelvin sign (U+212A, folds to k) do. In
// such a string an ASCII literal matches case-insensitively, as Go's
// regexp folds, exactly where ContainsFold finds it, ASCII or not.
func FoldsLikeASCII(s string) bool {
	return IsASCII(s) || !strings.Contains(s, "\u017f") && !strings.Contains(s, "\u212a")
}

// Matcher returns a function that answers re.MatchString(s), ruling out
// strings that lack a required literal first. expr is re's source, in Go
// syntax.
func Matcher(re *regexp.Regexp) func(string) bool {
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return re.MatchString
	}
	lits := Required(tree)
	if len(lits) == 0 {
		return re.MatchString
	}
	fold := false
	for _, l := range lits {
		fold = fold || l.Fold
	}
	return func(s string) bool {
		if RulesOut(lits, s, fold && FoldsLikeASCII(s)) {
			return false
		}
		return re.MatchString(s)
	}
}

// ContainsFold reports whether sub, ASCII, is in s, ASCII
// case-insensitively. It goes from one occurrence of sub's first byte
// (in either case) to the next with strings.IndexByte, remembering where
// the next of each case is, so that s is scanned once per case.
func ContainsFold(s, sub string) bool {
	n := len(sub)
	if n == 0 {
		return true
	}
	if n > len(s) {
		return false
	}
	last := len(s) - n // the last position a match can start at
	next := func(c byte, from int) int {
		if k := strings.IndexByte(s[from:last+1], c); k >= 0 {
			return from + k
		}
		return last + 1
	}
	lo, up := lowerASCII(sub[0]), upperASCII(sub[0])
	nextLo, nextUp := -1, -1
	for i := 0; i <= last; {
		if nextLo < i {
			nextLo = next(lo, i)
		}
		if nextUp < i {
			nextUp = nextLo
			if up != lo {
				nextUp = next(up, i)
			}
		}
		j := min(nextLo, nextUp)
		if j > last {
			return false
		}
		if strings.EqualFold(s[j:j+n], sub) {
			return true
		}
		i = j + 1
	}
	return false
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// IsASCII reports whether s is all ASCII.
func IsASCII(s string) bool {
	// Eight bytes at a time (the compiler loads them as one word).
	for len(s) >= 8 {
		w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		if w&0x8080808080808080 != 0 {
			return false
		}
		s = s[8:]
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
