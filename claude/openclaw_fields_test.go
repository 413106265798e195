package claude_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/claude"
	"github.com/hookctl/hookctl/engine"
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

// TestOutputFieldsFollowTheEvent: a command hook answering in a channel
// its event does not read is not obeyed, as Claude Code does not obey it:
// permissionDecision "allow" on PermissionRequest approved the request
// before (and the command ran); now it decides nothing and the trace says
// what was ignored. The event's own channel still decides.
func TestOutputFieldsFollowTheEvent(t *testing.T) {
	cases := []struct {
		event, out, decision, ignored string
	}{
		{"PermissionRequest", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","permissionDecision":"allow"}}`, "", "permissionDecision"},
		{"PermissionRequest", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`, "allow", ""},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","decision":{"behavior":"allow"}}}`, "", "decision"},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`, "deny", ""},
		{"Stop", `{"hookSpecificOutput":{"hookEventName":"Stop","permissionDecision":"deny"}}`, "", "permissionDecision"},
		{"Stop", `{"decision":"block","reason":"keep going"}`, "block", ""},
	}
	for _, tc := range cases {
		e := newEngine(t)
		h, err := claude.NewCommand(claude.CommandSpec{Shell: "cat >/dev/null; printf '%s' '" + tc.out + "'", ConfigDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Register(engine.Hook{ID: "h", Event: tc.event, Handler: h}); err != nil {
			t.Fatal(err)
		}
		out, err := e.Fire(context.Background(), engine.Event{Name: tc.event, Payload: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf x"}}})
		if err != nil {
			t.Fatal(err)
		}
		tr, _ := out.Hook("h")
		ignored, _ := json.Marshal(tr.Output["ignored"])
		if string(out.Decision) != tc.decision || (tc.ignored != "" && !strings.Contains(string(ignored), tc.ignored)) || (tc.ignored == "" && tr.Output["ignored"] != nil) {
			t.Errorf("%s %s: decision %q (want %q), ignored %s", tc.event, tc.out, out.Decision, tc.decision, ignored)
		}
	}
}

// TestCommandScriptsAreVerified: with a check, a command hook whose named
// script the check refuses (changed since trusted) does not run, and the
// event is blocked with the reason; an accepted one runs.
func TestCommandScriptsAreVerified(t *testing.T) {
	dir := t.TempDir()
	script := dir + "/guard.sh"
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncat >/dev/null\necho ran > "+dir+"/ran\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	refuse := false
	check := func(path string, content []byte) error {
		if refuse {
			return errors.New(path + " changed since it was trusted")
		}
		return nil
	}
	e := newEngine(t)
	h, err := claude.NewCommand(claude.CommandSpec{Argv: []string{"sh", script}, ConfigDir: dir, Check: check, Files: []string{script}})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Register(engine.Hook{ID: "guard", Event: "PreToolUse", Handler: h}); err != nil {
		t.Fatal(err)
	}
	out, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{"cwd": dir, "tool_name": "Bash"}})
	if err != nil || out.Decision != "" {
		t.Fatalf("accepted script: %v %+v", err, out)
	}
	if _, err := os.Stat(dir + "/ran"); err != nil {
		t.Fatal("the accepted script did not run")
	}
	os.Remove(dir + "/ran")
	refuse = true
	out, _ = e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{"cwd": dir, "tool_name": "Bash"}})
	if out.Decision != engine.DecisionDeny || !strings.Contains(out.Reason, "changed since it was trusted") {
		t.Fatalf("refused script: %+v", out)
	}
	if _, err := os.Stat(dir + "/ran"); err == nil {
		t.Fatal("the refused script ran")
	}
	// On an event where exit status 2 means nothing, the refusal is a
	// failure of the hook (reported in the trace and to the user), not silence.
	if err := e.Register(engine.Hook{ID: "note", Event: "Notification", Handler: h, OnError: engine.OnError{Policy: engine.ErrorBlock}}); err != nil {
		t.Fatal(err)
	}
	out, _ = e.Fire(context.Background(), engine.Event{Name: "Notification", Payload: map[string]any{"cwd": dir, "message": "m"}})
	tr, _ := out.Hook("note")
	if tr.Status != engine.StatusError || !strings.Contains(tr.Error, "changed since it was trusted") {
		t.Fatalf("refused script on Notification: %+v / %+v", out, tr)
	}
	if _, err := os.Stat(dir + "/ran"); err == nil {
		t.Fatal("the refused script ran")
	}
}
