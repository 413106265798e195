package relit_test

import (
	"regexp"
	"regexp/syntax"
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
