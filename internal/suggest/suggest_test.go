package suggest_test

import (
	"testing"

	"github.com/hookctl/hookctl/internal/suggest"
)

func TestClosest(t *testing.T) {
	names := []string{"PreToolUse", "PostToolUse", "Stop", "SubagentStop"}
	for in, want := range map[string]string{
		"PreToolUs": "PreToolUse", "pretooluse": "PreToolUse", "stop": "Stop", "Stpo": "Stop", "Nothing": "", "": "",
	} {
		if got := suggest.Closest(in, names); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
