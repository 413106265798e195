package hosts_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/hosts"
)

// TestRewritesCarriedOrRefused: a rewrite a hook returns (a prompt, a
// tool input, a tool output, the text shown) is either in the host's
// reply, as the value the hook returned, or refused where the hooks after
// it judged it: on a gate the host's block, saying why, since the host
// would go ahead with the original, which those hooks never saw (a
// project hook's prompt rewrite hid the prompt from a managed guard);
// elsewhere a line on stderr. It is never dropped unsaid. Each host, each
// of its event names for each rewritable event, with and without a
// decision.
func TestRewritesCarriedOrRefused(t *testing.T) {
	values := map[string]any{
		"prompt":          "REWRITTEN prompt",
		"updated_input":   map[string]any{"command": "REWRITTEN command"},
		"updated_output":  map[string]any{"stdout": "REWRITTEN output"},
		"display_content": "REWRITTEN display",
	}
	originals := map[string]any{
		"prompt":        "the original prompt",
		"tool_input":    map[string]any{"command": "ls"},
		"tool_response": map[string]any{"stdout": "a.go"},
		"delta":         "the original text",
	}
	checked := 0
	for _, p := range hosts.New().All() {
		for _, event := range []string{"UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse", "MessageDisplay"} {
			rw, ok := protocol.RewriteOf(event)
			if !ok {
				t.Fatalf("%s: no rewrite", event)
			}
			for _, he := range hostEvents(p, event) {
				for _, decision := range []engine.Decision{"", engine.DecisionAllow} {
					if decision != "" && !slices.Contains(eventDecisions(event), string(decision)) {
						continue
					}
					ev := &protocol.Event{Protocol: p, HostEvent: he, Name: event,
						Payload: map[string]any{"hook_event_name": he, rw.Target: originals[rw.Target]}}
					v := values[rw.Field]
					out := engine.Outcome{Event: event, Continue: true, Decision: decision, Output: map[string]any{rw.Field: v}}
					if rw.Field == "updated_input" {
						out.UpdatedInput = v.(map[string]any)
					}
					r := p.Reply(ev, out, protocol.Options{})
					name := p.Name() + "/" + he + "/" + string(decision)
					checked++
					switch {
					case carried(r.Stdout, v):
					case rw.Gate:
						blk := p.Block(ev, "hookctl: a message long enough to be read as text, not a word")
						if shapeOf(r) != shapeOf(blk) || !strings.Contains(string(r.Stdout)+r.Stderr, "cannot apply") {
							t.Errorf("%s: the %s rewrite the reply does not carry is not refused: %q, stderr %q (the block: %q)", name, rw.Field, r.Stdout, r.Stderr, blk.Stdout)
						}
					default:
						if !strings.Contains(r.Stderr, "cannot apply") || !strings.Contains(r.Stderr, rw.Field) {
							t.Errorf("%s: the %s rewrite the reply does not carry is not said: %q, stderr %q", name, rw.Field, r.Stdout, r.Stderr)
						}
					}
					// The value it was given is no rewrite: nothing is
					// refused or said.
					same := out
					same.Output = map[string]any{rw.Field: originals[rw.Target]}
					if rw.Field == "updated_input" {
						same.UpdatedInput = originals[rw.Target].(map[string]any)
					}
					if r := p.Reply(ev, same, protocol.Options{}); strings.Contains(string(r.Stdout)+r.Stderr, "cannot apply") {
						t.Errorf("%s: the original value refused as a rewrite: %q, stderr %q", name, r.Stdout, r.Stderr)
					}
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d replies checked", checked)
	}
}

// hostEvents are the host's names for a catalog event it supports.
func hostEvents(p protocol.Protocol, event string) []string {
	var out []string
	for name, m := range p.Events() {
		if m.Event == event && !m.Unsupported {
			out = append(out, name)
		}
	}
	if len(out) == 0 && p.Name() == "claude" {
		out = append(out, event)
	}
	slices.Sort(out)
	return out
}

func eventDecisions(event string) []string {
	for _, s := range engine.BuiltinEvents() {
		if s.Name == event {
			return s.Decisions
		}
	}
	return nil
}

// carried reports whether the reply's JSON holds v as one of its values.
func carried(stdout []byte, v any) bool {
	var doc any
	if json.Unmarshal(stdout, &doc) != nil {
		return false
	}
	want, _ := json.Marshal(v)
	var norm any
	_ = json.Unmarshal(want, &norm)
	var walk func(x any) bool
	walk = func(x any) bool {
		if reflect.DeepEqual(x, norm) {
			return true
		}
		switch x := x.(type) {
		case map[string]any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(doc)
}

// shapeOf is a reply with every text (a string of more than 20
// characters) made one: a block's shape, whatever its reason.
func shapeOf(r protocol.Reply) string {
	var doc any
	if json.Unmarshal(r.Stdout, &doc) != nil {
		return string(r.Stdout) + "|" + string(rune('0'+r.ExitCode))
	}
	var norm func(x any) any
	norm = func(x any) any {
		switch x := x.(type) {
		case map[string]any:
			for k, e := range x {
				x[k] = norm(e)
			}
		case []any:
			for i, e := range x {
				x[i] = norm(e)
			}
		case string:
			if len(x) > 20 {
				return "<text>"
			}
		}
		return x
	}
	b, _ := json.Marshal(norm(doc))
	return string(b) + "|" + string(rune('0'+r.ExitCode))
}
