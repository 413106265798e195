package hosts_test

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/hosts"
)

// TestRepliesAreNotHTMLEscaped: every host's reply (a deny with a reason,
// a rewrite, a message, a block for hooks that could not run) writes
// `&&`, `<`, `>` as they are, not as \u0026, \u003c, \u003e.
func TestRepliesAreNotHTMLEscaped(t *testing.T) {
	const text = "a && b <c> -> d"
	reg := hosts.New()
	for _, name := range reg.Names() {
		h, _ := reg.Lookup(name)
		raw, event := shellPayload(t, name, "cmd && more <in >out")
		ev, err := h.Decode(raw, event)
		if err != nil {
			t.Fatalf("%s: decode: %v", name, err)
		}
		replies := map[string]protocol.Reply{
			"deny": h.Reply(ev, engine.Outcome{Event: ev.Name, Continue: true, Decision: "deny", Reason: text, Blocked: true,
				SystemMessage: text}, protocol.Options{}),
			"rewrite": h.Reply(ev, engine.Outcome{Event: ev.Name, Continue: true, Decision: "allow", Reason: text,
				UpdatedInput: map[string]any{"command": text}, AdditionalContext: text}, protocol.Options{}),
			"block": h.Block(ev, text),
			"no ev": h.Block(nil, text),
			"warn":  h.Warn(ev, text),
		}
		for what, r := range replies {
			out := string(r.Stdout)
			if strings.Contains(out, `\u0026`) || strings.Contains(out, `\u003c`) || strings.Contains(out, `\u003e`) {
				t.Errorf("%s %s: HTML-escaped reply: %s", name, what, out)
			}
		}
	}
}
