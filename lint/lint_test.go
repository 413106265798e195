package lint

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/hcl"
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

// TestUnknownResultFieldsWarn: a declarative result naming a field its
// event does not take is a warning at the result attribute.
func TestUnknownResultFieldsWarn(t *testing.T) {
	src := "hook \"a\" {\n  event  = \"PreToolUse\"\n  result = { cancel = true, decison = \"deny\" }\n}\nhook \"b\" {\n  event  = \"PreToolUse\"\n  result = { decision = \"deny\", additional_context = \"x\" }\n}\n"
	var got []string
	for _, d := range lintFiles(t, map[string]string{"hooks.hcl": src}) {
		got = append(got, fmt.Sprintf("%d:%d %s: %s", d.Line, d.Column, d.Summary, d.Detail))
	}
	if len(got) != 2 || !strings.Contains(got[0], `3:12 Unknown result field: PreToolUse does not take the result field "cancel"`) ||
		!strings.Contains(got[1], `"decison"`) || !strings.Contains(got[1], `Did you mean "decision"?`) {
		t.Fatalf("warnings:\n%s", strings.Join(got, "\n"))
	}
}

// TestMisspelledPayloadFieldsWarn: a condition reading a field that is a
// misspelling of the event's payload fields warns; fields hosts may add,
// state and the catalog's fields do not.
func TestMisspelledPayloadFieldsWarn(t *testing.T) {
	src := "hook \"a\" {\n  event    = \"PreToolUse\"\n  when     = \"tool_inptu.command contains 'rm' or state.x == 1 or custom_flag\"\n  decision = \"deny\"\n}\n"
	ds := slices.DeleteFunc(lintFiles(t, map[string]string{"hooks.hcl": src}), func(d hcl.Diagnostic) bool { return d.Code == "HK1619" }) // fails open: failopen_test.go
	if len(ds) != 1 || ds[0].Line != 3 || ds[0].Column != 15 || !strings.Contains(ds[0].Detail, `no field "tool_inptu"`) ||
		!strings.Contains(ds[0].Detail, `did you mean "tool_input"?`) || ds[0].Suggestion != "tool_input" {
		t.Fatalf("%+v", ds)
	}
}

// TestPayloadPathColumnsThroughEscapes: a misspelt path after an escaped
// quote and non-ASCII text in a one-line when string is reported at its
// own column, not at the string's opening quote.
func TestPayloadPathColumnsThroughEscapes(t *testing.T) {
	// Column 15 is the opening quote; "comand" starts after
	// `tool_input.description == \"é\" and tool_input.`.
	src := "hook \"a\" {\n  event    = \"PreToolUse\"\n  matcher  = \"Bash\"\n  when     = \"tool_input.description == \\\"é\\\" and tool_input.comand matches 'rm'\"\n  decision = \"deny\"\n  on_error = \"block\"\n}\n"
	line := strings.Split(src, "\n")[3]
	want := len([]rune(line[:strings.Index(line, "comand")])) + 1
	ds := lintFiles(t, map[string]string{"hooks.hcl": src})
	if len(ds) != 1 || ds[0].Code != "HK1409" || ds[0].Line != 4 || ds[0].Column != want || ds[0].EndColumn != want+len("comand") {
		t.Fatalf("want HK1409 at 4:%d-%d, got %+v", want, want+len("comand"), ds)
	}
}
