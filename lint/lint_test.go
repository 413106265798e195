package lint

import (
	"regexp"
	"testing"
)

func TestNeverMatches(t *testing.T) {
	for re, never := range map[string]bool{
		// Can never match.
		`a^b`:                true,
		`$x`:                 true,
		`[^\s\S]`:            true,
		`[^\x00-\x{10FFFF}]`: true,
		`x\by`:               true,
		`\b\B`:               true,
		`^^a$b`:              true,
		`(?m)a^b`:            true,
		`a\z.`:               true,
		`(a$b|c^d)`:          true,
		`Bash$Edit`:          true,
		`\Ax\Ay`:             true,
		`a\b\n\Bb`:           true, // after \n a \B needs a non-word next, b is one
		// Can match.
		`Bash`:            false,
		`^Bash$`:          false,
		`Edit|a^b`:        false,
		`mcp__.*`:         false,
		`(?m)a$\n^b`:      false,
		`a\b `:            false,
		`\bBash\b`:        false,
		`Bash\B`:          false, // "Bashx"
		`$`:               false,
		`^$`:              false,
		`(?i)k\b\x{212A}`: false,
		`a?^b`:            false,
		`.*`:              false,
		`\B`:              false,
		`[^a-z]$`:         false,
		`(x|)^y`:          false,
		`invalid(`:        false, // invalid: the loader reports it
	} {
		if got := neverMatches(re); got != never {
			t.Errorf("neverMatches(%q) = %v, want %v", re, got, never)
		}
		// A pattern said never to match must not match any of a few texts.
		if never {
			compiled := regexp.MustCompile(re)
			for _, text := range []string{"", "a", "ab", "a^b", "$x", "x y", "a\nb", "a\n\nb", "Bash", "BashEdit", "xy", " \n "} {
				if compiled.MatchString(text) {
					t.Errorf("neverMatches(%q), yet it matches %q", re, text)
				}
			}
		}
	}
}

func TestMatchesPatterns(t *testing.T) {
	got := matchesPatterns("tool_input.command matches `a^` and not (cwd matches '^/tmp') or x contains 'y'")
	if len(got) != 2 || got[0] != "a^" || got[1] != "^/tmp" {
		t.Fatalf("%q", got)
	}
	if matchesPatterns("tool_name ==") != nil {
		t.Fatal("a condition that does not parse has patterns")
	}
}
