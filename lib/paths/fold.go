package paths

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// nfc returns s in Unicode normalisation form C, as s itself when it is
// ASCII or already in it (no allocation).
func nfc(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return norm.NFC.String(s)
		}
	}
	return s
}

// foldCase returns s's key for comparing names without regard to case:
// two names a file system that ignores case may open as one file have
// the same key. Each character is mapped to one representative of the
// characters it is equal to under Unicode simple case folding (its
// unicode.SimpleFold orbit: k, K and the Kelvin sign K; s, S and the
// long s ſ) joined with its upper case (the dotless ı is I's, whose
// upper case is I). That is a superset of what NTFS (whose $UpCase
// table maps a character to its upper case) and APFS fold, so a guard
// comparing keys errs toward matching: a deny list is never narrowed by
// the folding. ASCII keys are the lower case; s is returned as it is
// when it has no upper-case letter and no other character.
func foldCase(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		b.WriteRune(foldRune(r))
	}
	return b.String()
}

// foldRune is foldCase of one character: the lower case of the least
// character of its upper case's simple-folding orbit.
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	u := unicode.ToUpper(r)
	least := u
	for f := unicode.SimpleFold(u); f != u; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return unicode.ToLower(least)
}

// foldPattern is Fold of a glob pattern under s's rules (p's key is
// matched against it): its characters are folded as a path's are, and a
// range in a [...] class stands for the keys of the characters in it
// ([A-_] for a-z and [\]^_: folding its ends alone, [a-_], would match
// nothing).
func (s System) foldPattern(pattern string) string {
	if !s.FoldsCase() || !strings.Contains(pattern, "[") || !strings.Contains(pattern, "-") {
		return s.Fold(pattern)
	}
	if s.rules() == Darwin {
		pattern = nfc(pattern)
	}
	rs := []rune(pattern)
	var b strings.Builder
	b.Grow(len(pattern) + 8)
	class := false
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\\' && i+1 < len(rs):
			i++
			b.WriteByte('\\')
			b.WriteRune(foldRune(rs[i]))
		case !class && r == '[':
			class = true
			b.WriteRune(r)
			if i+1 < len(rs) && (rs[i+1] == '!' || rs[i+1] == '^') {
				i++
				b.WriteRune(rs[i])
			}
		case class && r == ']':
			class = false
			b.WriteRune(r)
		case class && i+2 < len(rs) && rs[i+1] == '-' && rs[i+2] != ']':
			hi := rs[i+2]
			i += 2
			if hi == '\\' && i+1 < len(rs) {
				i++
				hi = rs[i]
			}
			foldRange(&b, r, hi)
		default:
			b.WriteRune(foldRune(r))
		}
	}
	return b.String()
}

// foldRange writes, inside a class, the keys of the characters lo to hi:
// each key of a range up to 4096 characters long, else the range itself,
// the lower case of its A-Z part and the ASCII keys of İ, ı, ſ and the
// Kelvin sign.
func foldRange(b *strings.Builder, lo, hi rune) {
	if lo > hi {
		return // an empty range
	}
	if hi-lo > 4096 {
		writeClassRune(b, lo)
		b.WriteByte('-')
		writeClassRune(b, hi)
		if l, h := max(lo, 'A'), min(hi, 'Z'); l <= h {
			writeClassRune(b, l+'a'-'A')
			b.WriteByte('-')
			writeClassRune(b, h+'a'-'A')
		}
		// The characters outside ASCII whose key is a letter of it.
		for _, r := range []rune{'\u0130', '\u0131', '\u017f', '\u212a'} {
			if lo <= r && r <= hi {
				writeClassRune(b, foldRune(r))
			}
		}
		return
	}
	seen := make(map[rune]bool, hi-lo+1)
	for r := lo; r <= hi; r++ {
		if k := foldRune(r); !seen[k] {
			seen[k] = true
			writeClassRune(b, k)
		}
	}
}

// writeClassRune writes r inside a [...] class, escaped where it would
// mean something there.
func writeClassRune(b *strings.Builder, r rune) {
	if strings.ContainsRune(`\]-^![`, r) {
		b.WriteByte('\\')
	}
	b.WriteRune(r)
}
