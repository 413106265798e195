package relit_test

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/relit"
)

func TestRequired(t *testing.T) {
	for pattern, want := range map[string][]relit.Literal{
		`^rm\s+-rf\s+/`:     {{S: "rm"}, {S: "-rf"}, {S: "/"}},
		`\bsudo\b`:          {{S: "sudo"}},
		`(?i)curl.*\|\s*sh`: {{S: "curl", Fold: true}, {S: "|"}, {S: "sh", Fold: true}},
		`(foo|bar)baz`:      {{S: "baz"}},
		`x*y?`:              nil,
		`(?:ab){2,}c+`:      {{S: "ab"}, {S: "c"}},
		`caf\x{e9}`:         {{S: "caf"}},
		`a{0,3}`:            nil,
	} {
		re, err := syntax.Parse(pattern, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		got := relit.Required(re)
		if len(got) != len(want) {
			t.Errorf("%s: %+v, want %+v", pattern, got, want)
			continue
		}
		for i := range got {
			// (?i) on a mixed literal splits folding from non-folding runes.
			if got[i].S != want[i].S && !(want[i].Fold && got[i].Fold) {
				t.Errorf("%s: %+v, want %+v", pattern, got, want)
			}
		}
	}
}

func FuzzMatcher(f *testing.F) {
	for _, s := range [][2]string{
		{`^rm\s+-rf\s+/`, "rm -rf /"}, {`\bsudo\b`, "pseudo"}, {`(?i)k`, "\u212a"}, {`(?i)SUDO`, "sudo"},
		{`curl[^|]*\|\s*(ba)?sh`, "curl x | bash"}, {`a+b`, "aab"}, {`(?s)a.b`, "a\nb"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, s string) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		if got, want := relit.Matcher(re)(s), re.MatchString(s); got != want {
			t.Fatalf("/%s/ on %q: prefiltered %v, regexp %v", pattern, s, got, want)
		}
	})
}

// genStrings are strings of every kind the prefilters meet: ASCII,
// non-ASCII, mixed, with the two characters that fold into ASCII (ſ, K)
// and invalid UTF-8, made from a fixed seed.
func genStrings(n int) []string {
	rng := rand.New(rand.NewPCG(28, 1))
	alphabet := []string{"a", "b", "k", "K", "s", "S", "x", "-", " ", "/", "rm", "SUDO", "sudo", "é", "\u212a", "\u017f", "ß", "\u0130", "日", "\xff", "\n"}
	out := make([]string, 0, n)
	for range n {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		out = append(out, b.String())
	}
	return out
}

// TestFoldedPrefilterMatchesRegexp: ruling a string out on a
// case-folded literal, ASCII or not (FoldsLikeASCII), gives the answer of
// Go's regexp on generated strings.
func TestFoldedPrefilterMatchesRegexp(t *testing.T) {
	pats := []string{`(?i)k`, `(?i)sudo`, `(?i)rm\s+-rf`, `(?i)ss`, `(?i)ask`, `(?i)x-s`, `(?i)é`, `sudo`, `(?i)s.k`}
	for _, p := range pats {
		re := regexp.MustCompile(p)
		tree, _ := syntax.Parse(p, syntax.Perl)
		lits := relit.Required(tree)
		for _, s := range genStrings(3000) {
			want := re.MatchString(s)
			if relit.RulesOut(lits, s, relit.FoldsLikeASCII(s)) && want {
				t.Fatalf("/%s/ ruled out %q, which it matches", p, s)
			}
			if got := relit.Matcher(re)(s); got != want {
				t.Fatalf("/%s/ on %q: prefiltered %v, regexp %v", p, s, got, want)
			}
		}
	}
}

// TestContainsFold compares ContainsFold with a plain search.
func TestContainsFold(t *testing.T) {
	plain := func(s, sub string) bool {
		for i := 0; i+len(sub) <= len(s); i++ {
			if strings.EqualFold(s[i:i+len(sub)], sub) {
				return true
			}
		}
		return false
	}
	subs := []string{"", "a", "K", "sudo", "rm -", "-", "ss", "xk", "aaab"}
	for _, s := range append(genStrings(2000), strings.Repeat("A", 1000)+"ab", "aaaab", "AAAAB") {
		for _, sub := range subs {
			if got, want := relit.ContainsFold(s, sub), plain(s, sub); got != want {
				t.Fatalf("ContainsFold(%q, %q) = %v, want %v", s, sub, got, want)
			}
		}
	}
}

// TestIsASCII: every position and length of a non-ASCII byte.
func TestIsASCII(t *testing.T) {
	for n := range 40 {
		b := []byte(strings.Repeat("a", n))
		if !relit.IsASCII(string(b)) {
			t.Fatalf("%q: not ASCII", b)
		}
		for i := range n {
			c := slicesClone(b)
			c[i] = 0x80
			if relit.IsASCII(string(c)) {
				t.Fatalf("%q: ASCII", c)
			}
		}
	}
}

func slicesClone(b []byte) []byte { return append([]byte(nil), b...) }
