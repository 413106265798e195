package protocol_test

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/protocol"
)

// TestEventNameIn: the event of input that cannot be read whole is read
// from its top level only, as the decoder would read it.
func TestEventNameIn(t *testing.T) {
	deep := strings.Repeat("[", 5000)
	for _, c := range []struct{ in, want string }{
		{`{"hook_event_name":"PreToolUse","tool_input":{"a":` + deep, "PreToolUse"},
		{`{"tool_input":{"hook_event_name":"Notification"},"hook_event_name":"PreToolUse"}`, "PreToolUse"},
		{`{"tool_input":{"hook_event_name":"Notification"},"x":` + deep, ""},
		{`{"hook_event_name":"Stop","hook_event_name":"PreToolUse"}`, "PreToolUse"},
		{`{"hook_event_nam\u0065":"PreToolUse"}`, "PreToolUse"},
		{`{"hook_event_name":{"x":"PreToolUse"},"y":1}`, ""},
		{`{"hook_event_name":5}`, ""},
		{`{"session_id":"s","hook_event_name":"PreTo`, ""},
		{`[{"hook_event_name":"PreToolUse"}]`, ""},
		{`not json`, ""},
		{``, ""},
		{`{"a":[1,{"b":[]}],"hook_event_name":"UserPromptSubmit"`, "UserPromptSubmit"},
		{`{"pad":"` + strings.Repeat("x", 70<<10) + `","hook_event_name":"PreToolUse"}`, ""}, // past the part read
	} {
		if got := protocol.EventNameIn([]byte(c.in), "hook_event_name"); got != c.want {
			t.Errorf("%.80s: %q, want %q", c.in, got, c.want)
		}
	}
}
