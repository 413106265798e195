package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
)

func TestCanonicalTool(t *testing.T) {
	cases := map[string]string{
		"bash": "Bash", "run_shell_command": "Bash", "shell": "Bash", "Bash": "Bash",
		"write": "Write", "write_file": "Write", "create": "Write",
		"edit": "Edit", "multiedit": "Edit", "replace": "Edit", "apply_patch": "Edit",
		"view": "Read", "read_file": "Read",
		"agent": "Agent", "task": "Agent",
		"mcp__memory__create": "mcp__memory__create", "SomeNewTool": "SomeNewTool",
	}
	for raw, want := range cases {
		if got := engine.CanonicalTool(raw); got != want {
			t.Errorf("CanonicalTool(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestOnePolicyEveryHostsToolNames: a matcher "Bash" and a condition on the
// canonical tool field guard every host's shell tool; a matcher naming a
// raw host name matches that name only (as in Claude Code, "bash" is not
// Claude Code's Bash).
func TestOnePolicyEveryHostsToolNames(t *testing.T) {
	e := newEngine(t)
	register(t, e,
		engine.Hook{ID: "no-rm", Event: "PreToolUse", Matcher: "Bash", When: `tool_input.command contains "rm -rf"`,
			Handler: engine.Static(engine.Deny("rm -rf is not allowed"))},
		engine.Hook{ID: "writes", Event: "PreToolUse", Matcher: "Write", Handler: engine.Static(engine.Context("a write"))},
		engine.Hook{ID: "by-field", Event: "PreToolUse", When: `tool == "Read"`, Handler: engine.Static(engine.Context("a read"))},
		engine.Hook{ID: "crush-name", Event: "PreToolUse", Matcher: "bash", Handler: engine.Static(engine.Result{"system_message": "crush's bash"})},
		engine.Hook{ID: "not-a-shell", Event: "PreToolUse", Matcher: "^(view|glob)$", Handler: engine.Static(engine.Result{"system_message": "wrong"})},
	)
	for _, raw := range []string{"Bash", "bash", "run_shell_command", "shell", "exec_command"} {
		p := map[string]any{"tool_name": raw, "tool_input": map[string]any{"command": "rm -rf /"}}
		out := fire(t, e, "PreToolUse", p)
		if out.Decision != engine.DecisionDeny {
			t.Errorf("%s: rm -rf not denied: %+v", raw, out)
		}
		if _, set := p["tool"]; set {
			t.Errorf("%s: the caller's payload was modified", raw)
		}
		// The deny ends the chain: the raw matcher is tried with ls.
		out = fire(t, e, "PreToolUse", map[string]any{"tool_name": raw, "tool_input": map[string]any{"command": "ls"}})
		if strings.Contains(out.SystemMessage, "wrong") {
			t.Errorf("%s: a matcher for other tools matched", raw)
		}
		if got := out.SystemMessage != ""; got != (raw == "bash") {
			t.Errorf("%s: raw matcher bash matched = %v", raw, got)
		}
	}
	for _, raw := range []string{"Write", "write", "write_file", "create", "apply_patch"} {
		if out := fire(t, e, "PreToolUse", map[string]any{"tool_name": raw}); out.AdditionalContext != "a write" {
			t.Errorf("%s: matcher Write did not match: %+v", raw, out)
		}
	}
	for _, raw := range []string{"Read", "view", "read_file"} {
		if out := fire(t, e, "PreToolUse", map[string]any{"tool_name": raw}); out.AdditionalContext != "a read" {
			t.Errorf("%s: tool == \"Read\" did not hold: %+v", raw, out)
		}
	}
	// OpenClaw spells it toolName.
	if out := fire(t, e, "before_tool_call", map[string]any{"toolName": "bash", "params": map[string]any{"command": "ls"}}); out.SystemMessage == "" {
		t.Errorf("toolName: %+v", out)
	}
}

// TestToolFieldIsCanonical: handlers see the canonical name in "tool", the
// raw one in tool_name, and a stale "tool" from the caller is replaced.
func TestToolFieldIsCanonical(t *testing.T) {
	e := newEngine(t)
	var seen []string
	register(t, e, engine.Hook{ID: "see", Event: "PostToolUse", Handler: fn(func(_ context.Context, c *engine.Call) (engine.Result, error) {
		seen = append(seen, c.Payload["tool"].(string)+"/"+c.Payload["tool_name"].(string))
		return nil, nil
	})})
	fire(t, e, "PostToolUse", map[string]any{"tool_name": "replace"})
	fire(t, e, "PostToolUse", map[string]any{"tool_name": "view", "tool": "Bash"})
	if len(seen) != 2 || seen[0] != "Edit/replace" || seen[1] != "Read/view" {
		t.Fatalf("%v", seen)
	}
}

// awareHandler is a handler that finds the canonical tool name itself.
type awareHandler struct{ sawTool *bool }

func (a awareHandler) Handle(_ context.Context, c *engine.Call) (engine.Result, error) {
	_, *a.sawTool = c.Payload[engine.ToolField]
	return nil, nil
}
func (awareHandler) ToolAware() bool { return true }

// TestToolFieldOnlyWhenRead: the payload is copied to add the tool field
// only when a hook may read it: not for declarative hooks whose condition
// does not name it nor for ToolAware handlers; yes for a condition that
// names it.
func TestToolFieldOnlyWhenRead(t *testing.T) {
	var saw bool
	e := newEngine(t)
	register(t, e,
		engine.Hook{ID: "aware", Event: "PreToolUse", Handler: awareHandler{&saw}},
		engine.Hook{ID: "decl", Event: "PreToolUse", When: `tool_name == "x"`, Handler: engine.Static(engine.Deny("x"))},
	)
	fire(t, e, "PreToolUse", map[string]any{"tool_name": "bash"})
	if saw {
		t.Fatal("the payload was copied for hooks that do not read the tool field")
	}
	register(t, e, engine.Hook{ID: "reads", Event: "PreToolUse", When: `tool == "Write"`, Handler: engine.Static(engine.Deny("w"))})
	fire(t, e, "PreToolUse", map[string]any{"tool_name": "bash"})
	if !saw {
		t.Fatal("a condition naming tool did not get the tool field")
	}
}
