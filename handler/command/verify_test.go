package command_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/handler/command"
)

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
	h, err := command.New(command.Spec{Argv: []string{"sh", script}, ConfigDir: dir, Check: check, Files: []string{script}})
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
		h, err := command.New(command.Spec{Shell: "cat >/dev/null; printf '%s' '" + tc.out + "'", ConfigDir: t.TempDir()})
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
