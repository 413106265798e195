package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestMarshalKeepsHTMLCharacters: an Outcome's JSON has <, > and & as
// written, and still decodes to the same strings, a backslash before
// "u003c" in the text included.
func TestMarshalKeepsHTMLCharacters(t *testing.T) {
	for _, s := range []string{
		"a -> b && c < d", `\u003c is not <`, `\\u003e`, `ends with \`, "\u2028 and \x01", "<>&", "",
		`"quoted" <b>`, `\\\u0026`,
	} {
		out := Outcome{Event: "PreToolUse", Reason: s, Hooks: []HookTrace{{ID: "h", Status: StatusDecided, Reason: s}}}
		b, err := json.Marshal(out) // escapes again: the CLI's encoder does not
		if err != nil {
			t.Fatal(err)
		}
		var back Outcome
		if err := json.Unmarshal(b, &back); err != nil || back.Reason != s || back.Hooks[0].Reason != s {
			t.Fatalf("%q: round trip %q, %v", s, back.Reason, err)
		}
		raw, err := out.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(s, `\`) && strings.Contains(string(raw), `\u00`) && strings.ContainsAny(s, "<>&") {
			t.Errorf("%q: escaped: %s", s, raw)
		}
		if err := json.Unmarshal(raw, &back); err != nil || back.Reason != s || back.Hooks[0].Reason != s {
			t.Fatalf("%q: MarshalJSON %s decodes to %q, %v", s, raw, back.Reason, err)
		}
	}
}
