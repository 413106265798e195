package termsafe

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestJSON: the output decodes to the input, keeps "->", "<" and "&" as
// they are, and holds no character a terminal acts on.
func TestJSON(t *testing.T) {
	in := map[string]string{"s": "a -> b < c & d\x1b[31m\x7f\u0085\u202e\u2028\n\ttab é"}
	b, err := JSON(in)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]string
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	if back["s"] != in["s"] {
		t.Errorf("decodes to %q, want %q", back["s"], in["s"])
	}
	if !strings.Contains(string(b), "a -> b < c & d") {
		t.Errorf("HTML-escaped: %s", b)
	}
	if i := firstUnsafe(string(b), true); i >= 0 {
		t.Errorf("unsafe byte at %d: %q", i, b)
	}
	for _, want := range []string{`\u007f`, `\u0085`, `\u202e`, `\u2028`, `é`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %s", b, want)
		}
	}
}
