package claude_test

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol/claude"
)

var updateFormat = flag.Bool("update-format", false, "rewrite testdata/format.golden")

// formatCases are outcomes every event is formatted with: each decision,
// a rewrite, context, a stop, messages and every event-specific field.
func formatCases(ev string) map[string]engine.Outcome {
	base := func() engine.Outcome { return engine.Outcome{Event: ev, Continue: true, Output: map[string]any{}} }
	dec := func(d, reason string, blocked bool) engine.Outcome {
		o := base()
		o.Decision, o.Reason, o.Blocked = engine.Decision(d), reason, blocked
		o.Output["decision"] = d
		if reason != "" {
			o.Output["reason"] = reason
		}
		return o
	}
	cases := map[string]engine.Outcome{
		"0-none":          base(),
		"deny":            dec("deny", "no rm", true),
		"deny-no-reason":  dec("deny", "", true),
		"allow":           dec("allow", "fine", false),
		"ask":             dec("ask", "a human decides", false),
		"defer":           dec("defer", "later", false),
		"block":           dec("block", "keep going", true),
		"block-no-reason": dec("block", "", true),
		"continue-false": func() engine.Outcome {
			o := base()
			o.Continue, o.StopReason, o.Blocked = false, "stop now", true
			return o
		}(),
		"context":         func() engine.Outcome { o := base(); o.AdditionalContext = "run the tests"; return o }(),
		"system-message":  func() engine.Outcome { o := base(); o.SystemMessage = "heads up"; return o }(),
		"suppress-output": func() engine.Outcome { o := base(); o.Output["suppress_output"] = true; return o }(),
		"stop-guard": func() engine.Outcome {
			o := base()
			o.Reason = "released"
			o.SystemMessage = "msg"
			o.StopGuard = &engine.StopGuard{Released: true}
			return o
		}(),
		"allow-rewrite": func() engine.Outcome {
			o := dec("allow", "", false)
			o.UpdatedInput = map[string]any{"command": "uv pip install x"}
			return o
		}(),
		"deny-with-fields": func() engine.Outcome {
			o := dec("deny", "nope", true)
			o.Output["message"] = "custom message"
			o.Output["interrupt"] = true
			o.Output["updated_permissions"] = []any{map[string]any{"type": "setMode", "mode": "plan"}}
			return o
		}(),
		"fields": func() engine.Outcome {
			o := base()
			for k, v := range map[string]any{
				"initial_user_message": "hi", "session_title": "t", "watch_paths": []any{"a"}, "reload_skills": true,
				"suppress_original_prompt": true, "updated_output": "out", "classifier_context": "cc",
				"terminal_sequence": "\a", "worktree_path": "/tmp/wt", "action": "accept", "content": map[string]any{"x": 1},
				"display_content": "shown", "retry": true,
			} {
				o.Output[k] = v
			}
			return o
		}(),
	}
	return cases
}

// TestFormatGolden pins Claude Code's reply for every event of the
// catalog and every kind of outcome: stdout, stderr and exit status.
func TestFormatGolden(t *testing.T) {
	var b strings.Builder
	for _, spec := range engine.BuiltinEvents() {
		if spec.Source != engine.SourceClaudeCode {
			continue
		}
		cases := formatCases(spec.Name)
		names := make([]string, 0, len(cases))
		for n := range cases {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			r := claude.Format(cases[n])
			fmt.Fprintf(&b, "%s %s: exit=%d stderr=%q stdout=%s\n", spec.Name, n, r.ExitCode, r.Stderr, strings.TrimSpace(string(r.Stdout)))
		}
	}
	const golden = "testdata/format.golden"
	if *updateFormat {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("line %d differs (-update-format to accept):\n got: %s\nwant: %s", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%d lines, want %d (-update-format to accept)", len(gl), len(wl))
	}
}

// TestFormatPerEvent checks the shape of the answer for each kind of
// event (claude-code-hooks.md §3).
func TestFormatPerEvent(t *testing.T) {
	cases := []struct {
		name string
		out  engine.Outcome
		want string
		code int
	}{
		{"PreToolUse deny", engine.Outcome{Event: "PreToolUse", Decision: "deny", Reason: "no", Continue: true},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`, 0},
		{"PreToolUse rewrite with context", engine.Outcome{Event: "PreToolUse", Decision: "allow", Continue: true, UpdatedInput: map[string]any{"command": "ls"}, AdditionalContext: "c"},
			`{"hookSpecificOutput":{"additionalContext":"c","hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"}}}`, 0},
		{"PermissionRequest", engine.Outcome{Event: "PermissionRequest", Decision: "deny", Reason: "r", Continue: true, Output: map[string]any{"interrupt": true}},
			`{"hookSpecificOutput":{"decision":{"behavior":"deny","interrupt":true,"message":"r"},"hookEventName":"PermissionRequest"}}`, 0},
		{"Stop block", engine.Outcome{Event: "Stop", Decision: "block", Reason: "keep going", Continue: true},
			`{"decision":"block","reason":"keep going"}`, 0},
		{"UserPromptSubmit context", engine.Outcome{Event: "UserPromptSubmit", Continue: true, AdditionalContext: "ctx"},
			`{"hookSpecificOutput":{"additionalContext":"ctx","hookEventName":"UserPromptSubmit"}}`, 0},
		{"continue false", engine.Outcome{Event: "PostToolUse", Continue: false, StopReason: "budget", SystemMessage: "m"},
			`{"continue":false,"stopReason":"budget","systemMessage":"m"}`, 0},
		{"PostToolUse updated output", engine.Outcome{Event: "PostToolUse", Continue: true, Output: map[string]any{"updated_output": map[string]any{"x": 1}}},
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"x":1}}}`, 0},
		{"SessionStart title", engine.Outcome{Event: "SessionStart", Continue: true, Output: map[string]any{"session_title": "t"}},
			`{"hookSpecificOutput":{"hookEventName":"SessionStart","sessionTitle":"t"}}`, 0},
		{"PreModelSwitch", engine.Outcome{Event: "PreModelSwitch", Decision: "deny", Continue: true, AdditionalContext: "ignored"},
			`{"hookSpecificOutput":{"hookEventName":"PreModelSwitch","permissionDecision":"deny"}}`, 0},
		{"Notification has no decision channel", engine.Outcome{Event: "Notification", Continue: true, Decision: "block"}, ``, 0},
		{"nothing", engine.Outcome{Event: "PreToolUse", Continue: true}, ``, 0},
		{"Stop released by the guard", engine.Outcome{Event: "Stop", Continue: true, Reason: "stop hook block cap reached", StopGuard: &engine.StopGuard{Released: true}},
			`{"systemMessage":"stop hook block cap reached"}`, 0},
		{"Stop block the guard could not count", engine.Outcome{Event: "Stop", Decision: "block", Reason: "keep going", Continue: true, StopGuard: &engine.StopGuard{Cap: 3, Error: "reading the loop count: NATS unavailable"}},
			`{"decision":"block","reason":"keep going","systemMessage":"hookctl: the Stop loop guard could not count (reading the loop count: NATS unavailable): the hooks' decision stands, and a block is not counted toward stop_block_cap 3"}`, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := claude.Format(tc.out)
			if got := strings.TrimSpace(string(r.Stdout)); got != tc.want || r.ExitCode != tc.code {
				t.Fatalf("got %s (exit %d)\nwant %s (exit %d)", got, r.ExitCode, tc.want, tc.code)
			}
		})
	}
	r := claude.Format(engine.Outcome{Event: "TaskCompleted", Decision: "block", Reason: "tests fail", Continue: true})
	if r.ExitCode != 2 || r.Stderr != "tests fail" || len(r.Stdout) != 0 {
		t.Fatalf("%+v", r)
	}
}
