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
