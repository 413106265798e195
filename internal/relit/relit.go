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
// Case-folded literals are checked only on ASCII strings (ascii true):
// Unicode folding (the Kelvin sign folds to k) is the regex's business.
func RulesOut(lits []Literal, s string, ascii bool) bool {
	for _, l := range lits {
		switch {
		case !l.Fold:
			if !strings.Contains(s, l.S) {
				return true
			}
		case ascii:
			if !ContainsFold(s, l.S) {
				return true
			}
		}
	}
	return false
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
		if RulesOut(lits, s, fold && IsASCII(s)) {
			return false
		}
		return re.MatchString(s)
	}
}

// ContainsFold reports whether sub is in s, ASCII case-insensitively.
func ContainsFold(s, sub string) bool {
	n := len(sub)
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], sub) {
			return true
		}
	}
	return false
}

// IsASCII reports whether s is all ASCII.
func IsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
