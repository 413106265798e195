package claude_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol/claude"
)

// TestOpenClawFieldsReachClaudeCode: a before_tool_call hook answering in
// OpenClaw's vocabulary is answered to Claude Code in its own: a block is
// a deny with its reason, params the updatedInput, requireApproval an ask.
// Before, the reply was empty and Claude Code ran the tool.
func TestOpenClawFieldsReachClaudeCode(t *testing.T) {
	cases := []struct {
		name   string
		result engine.Result
		want   map[string]any
	}{
		{"block", engine.Result{"block": true, "blockReason": "exec is not allowed"},
			map[string]any{"permissionDecision": "deny", "permissionDecisionReason": "exec is not allowed"}},
		{"block without a reason", engine.Result{"block": true},
			map[string]any{"permissionDecision": "deny", "permissionDecisionReason": `blocked by hook "h" (block)`}},
		{"params", engine.Result{"params": map[string]any{"command": "uv pip install x"}},
			map[string]any{"updatedInput": map[string]any{"command": "uv pip install x"}}},
		{"requireApproval", engine.Result{"requireApproval": map[string]any{"title": "run it?"}},
			map[string]any{"permissionDecision": "ask", "permissionDecisionReason": "run it?"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEngine(t)
			if err := e.Register(engine.Hook{ID: "h", Event: "before_tool_call", Handler: engine.Static(tc.result)}); err != nil {
				t.Fatal(err)
			}
			payload := map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": "pip install x"}}
			reply, err := claude.Handle(context.Background(), e, payload, "PreToolUse")
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				HSO map[string]any `json:"hookSpecificOutput"`
			}
			if err := json.Unmarshal(reply.Stdout, &got); err != nil {
				t.Fatalf("reply %q: %v", reply.Stdout, err)
			}
			for k, v := range tc.want {
				gb, _ := json.Marshal(got.HSO[k])
				wb, _ := json.Marshal(v)
				if string(gb) != string(wb) {
					t.Errorf("%s = %s, want %s (reply %s)", k, gb, wb, reply.Stdout)
				}
			}
		})
	}
}

// TestHookErrorsAreShown: a hook that fails is named, with its error, in
// the systemMessage Claude Code shows the user, and the other hooks'
// results are kept.
func TestHookErrorsAreShown(t *testing.T) {
	e := newEngine(t)
	boom := engine.HandlerFunc(func(context.Context, *engine.Call) (engine.Result, error) {
		return nil, errors.New("TypeError: cannot read properties of undefined")
	})
	for _, h := range []engine.Hook{
		{ID: "broken-guard", Event: "PreToolUse", Priority: 2, Handler: boom},
		{ID: "context", Event: "PreToolUse", Priority: 1, Handler: engine.Static(engine.Result{"additional_context": "be careful", "system_message": "hello"})},
	} {
		if err := e.Register(h); err != nil {
			t.Fatal(err)
		}
	}
	reply, err := claude.Handle(context.Background(), e, map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}, "PreToolUse")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		SystemMessage string         `json:"systemMessage"`
		HSO           map[string]any `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(reply.Stdout, &got); err != nil {
		t.Fatalf("reply %q: %v", reply.Stdout, err)
	}
	if !strings.Contains(got.SystemMessage, `hook "broken-guard" failed (error): TypeError`) || !strings.HasPrefix(got.SystemMessage, "hello") {
		t.Fatalf("systemMessage %q", got.SystemMessage)
	}
	if got.HSO["additionalContext"] != "be careful" || reply.ExitCode != 0 {
		t.Fatalf("the other hook's result was lost: %s", reply.Stdout)
	}
}
