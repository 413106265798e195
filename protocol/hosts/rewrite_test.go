package hosts_test

import (
	"context"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/assemble"
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
			for _, he := range eventNames(p, event) {
				for _, decision := range []engine.Decision{"", engine.DecisionAllow, engine.DecisionAsk, engine.DecisionDefer} {
					if decision != "" && !slices.Contains(eventDecisions(event), string(decision)) {
						continue
					}
					ev := decode(t, p, he, map[string]any{rw.Target: originals[rw.Target]})
					if ev.Name != event {
						t.Fatalf("%s: %s decoded as %s", p.Name(), he, ev.Name)
					}
					if rw.Target == "tool_input" {
						// The tool input as the host's decoder read it.
						values[rw.Field] = maps.Clone(ev.Payload["tool_input"].(map[string]any))
						values[rw.Field].(map[string]any)["command"] = "REWRITTEN command"
						originals[rw.Target] = ev.Payload["tool_input"]
					}
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
						// Refused: the host's block (the hooks' own, or
						// the refusal's, which says why), or where the
						// host cannot block the event, said.
						blk := p.Block(ev, "hookctl: a message long enough to be read as text, not a word")
						if canBlock := len(blk.Stdout) > 0 || blk.ExitCode != 0; canBlock && shapeOf(r) != shapeOf(blk) ||
							!canBlock && !strings.Contains(r.Stderr, "can neither apply nor block") {
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

// eventNames are the names a payload can give a catalog event on a
// host: the host's own (those it supports) and the catalog's name and
// aliases, which every host's command takes.
func eventNames(p protocol.Protocol, event string) []string {
	out := []string{event}
	for name, m := range p.Events() {
		if m.Event == event && !m.Unsupported {
			out = append(out, name)
		}
	}
	for _, s := range engine.BuiltinEvents() {
		if s.Name == event {
			for _, a := range s.Aliases {
				if m, mapped := p.Events()[a]; !mapped || m.Event == event && !m.Unsupported {
					out = append(out, a)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// decode is the host's decoding of a payload naming its event name,
// with the fields given.
func decode(t *testing.T, p protocol.Protocol, name string, fields map[string]any) *protocol.Event {
	t.Helper()
	raw := map[string]any{"session_id": "s", "cwd": "/tmp", "tool_name": "Bash"}
	maps.Copy(raw, fields)
	field := "hook_event_name"
	if f, ok := p.(interface{ PayloadEventField() string }); ok && f.PayloadEventField() != "" {
		field = f.PayloadEventField()
	}
	raw[field] = name
	ev, err := p.Decode(raw, name)
	if err != nil {
		t.Fatalf("%s: decode %s: %v", p.Name(), name, err)
	}
	return ev
}

// TestDenyUnderAnyName: a deny is the host's deny whichever name of the
// event the payload gives (before_tool_call, tool.pre, BeforeTool on
// Cursor, crush and Copilot CLI were answered as no tool gate: an empty
// reply, a go-ahead).
func TestDenyUnderAnyName(t *testing.T) {
	for _, p := range hosts.New().All() {
		for _, he := range eventNames(p, "PreToolUse") {
			ev := decode(t, p, he, map[string]any{"tool_input": map[string]any{"command": "rm -rf ~"}})
			const why = "hookctl: a message long enough to be read as text, not a word"
			out := engine.Outcome{Event: "PreToolUse", Continue: true, Decision: engine.DecisionDeny, Blocked: true, Reason: why}
			r, blk := p.Reply(ev, out, protocol.Options{}), p.Block(ev, why)
			if shapeOf(r) != shapeOf(blk) || !strings.Contains(string(r.Stdout)+r.Stderr, why) || len(r.Stdout) == 0 && r.ExitCode == 0 {
				t.Errorf("%s/%s: deny answered %q (exit %d, stderr %q), the host's block is %q", p.Name(), he, r.Stdout, r.ExitCode, r.Stderr, blk.Stdout)
			}
		}
	}
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

// shapeOf is a reply with every text (a string of more than 12
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
			if len(x) > 12 {
				return "<text>"
			}
		}
		return x
	}
	b, _ := json.Marshal(norm(doc))
	return string(b) + "|" + string(rune('0'+r.ExitCode))
}

// TestGeminiPartialRewriteRefused: Gemini CLI merges a rewritten tool
// input into the call's arguments, so a rewrite that leaves a field out
// runs with that field's original value, which the hooks after it never
// judged ({} left a guard no command, and Gemini CLI ran rm -rf ~): it is
// refused; a rewrite of every field is carried.
func TestGeminiPartialRewriteRefused(t *testing.T) {
	p, _ := hosts.New().Lookup("gemini")
	ev := decode(t, p, "BeforeTool", map[string]any{"tool_name": "run_shell_command",
		"tool_input": map[string]any{"command": "rm -rf ~", "description": "d"}})
	for _, c := range []struct {
		rewrite map[string]any
		carried bool
	}{
		{map[string]any{}, false},
		{map[string]any{"description": "x"}, false},
		{map[string]any{"command": "ls"}, false},
		{map[string]any{"command": nil, "description": "d"}, false},
		{map[string]any{"command": "ls", "description": "d"}, true},
		{map[string]any{"command": "ls", "description": "d", "dir": "/tmp"}, true},
	} {
		out := engine.Outcome{Event: "PreToolUse", Continue: true, UpdatedInput: c.rewrite, Output: map[string]any{"updated_input": c.rewrite}}
		r := p.Reply(ev, out, protocol.Options{})
		blocked := strings.Contains(string(r.Stdout), `"decision":"deny"`) && strings.Contains(string(r.Stdout), "cannot apply")
		if carried(r.Stdout, c.rewrite) == blocked || blocked == c.carried {
			t.Errorf("%v: %s (carried: want %v)", c.rewrite, r.Stdout, c.carried)
		}
	}
}

// TestRewriteReachesTheHostsSpelling: Copilot CLI's payload names the tool
// input toolArgs, which the decoder keeps beside tool_input: a guard that
// reads toolArgs judges a rewrite too (it judged the original while
// Copilot CLI got the rewrite in modifiedArgs).
func TestRewriteReachesTheHostsSpelling(t *testing.T) {
	e, err := assemble.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	hooks := []engine.Hook{
		{ID: "rewrite", Event: "PreToolUse", Priority: 10, Handler: engine.HandlerFunc(func(context.Context, *engine.Call) (engine.Result, error) {
			return engine.Result{"updated_input": map[string]any{"command": "rm -rf ~"}}, nil
		})},
		{ID: "guard", Event: "PreToolUse", Handler: engine.HandlerFunc(func(_ context.Context, c *engine.Call) (engine.Result, error) {
			args, _ := c.Payload["toolArgs"].(map[string]any)
			if cmd, _ := args["command"].(string); strings.Contains(cmd, "rm -rf") {
				return engine.Deny("rm -rf in toolArgs"), nil
			}
			return nil, nil
		})},
	}
	for _, h := range hooks {
		if err := e.Register(h); err != nil {
			t.Fatal(err)
		}
	}
	p, _ := hosts.New().Lookup("copilot")
	ev, err := p.Decode(map[string]any{"sessionId": "s", "hookEventName": "preToolUse", "cwd": "/tmp", "toolName": "bash", "toolArgs": `{"command":"ls"}`}, "")
	if err != nil {
		t.Fatal(err)
	}
	r, err := protocol.Handle(context.Background(), e, ev, protocol.Options{})
	if err != nil || !strings.Contains(string(r.Stdout), `"permissionDecision":"deny"`) {
		t.Fatalf("%s %v", r.Stdout, err)
	}
	if args, _ := ev.Payload["toolArgs"].(map[string]any); args["command"] != "ls" {
		t.Fatalf("the decoded payload was changed: %v", ev.Payload)
	}
}
