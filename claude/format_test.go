package claude_test

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/claude"
	"github.com/hookctl/hookctl/engine"
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
