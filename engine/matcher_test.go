package engine_test

import (
	"context"
	"errors"
	"testing"

	"github.com/hookctl/hookctl/engine"
)

func TestMatcherSyntax(t *testing.T) {
	cases := []struct {
		matcher string
		value   string
		want    bool
	}{
		{"", "Anything", true},
		{"*", "Anything", true},
		{"Bash", "Bash", true},
		{"Bash", "bash", false},  // case-sensitive
		{"Bash", "BashX", false}, // exact, not a prefix
		{"Edit|Write", "Write", true},
		{"Edit|Write", "MultiEdit", false},
		{"Edit, Write", "Write", true}, // comma lists, spaces trimmed
		{"code-reviewer", "code-reviewer", true},
		{"code-reviewer", "code", false},
		{"Edit.*", "NotebookEdit", true}, // unanchored regex
		{"^Edit$", "NotebookEdit", false},
		{"mcp__memory__.*", "mcp__memory__create", true},
		{"mcp__memory", "mcp__memory__create", false}, // exact name
		{"^plugin:reviewer$", "plugin:reviewer", true},
	}
	for _, tc := range cases {
		m, err := engine.CompileMatcher(tc.matcher)
		if err != nil {
			t.Fatalf("%q: %v", tc.matcher, err)
		}
		if got := m.Match(tc.value); got != tc.want {
			t.Errorf("matcher %q on %q = %v, want %v", tc.matcher, tc.value, got, tc.want)
		}
	}
	var me *engine.MatcherError
	if _, err := engine.CompileMatcher("Bash("); !errors.As(err, &me) {
		t.Fatalf("bad regex: %v", err)
	}
}

func TestMatcherOnEventField(t *testing.T) {
	e := newEngine(t)
	register(t, e,
		engine.Hook{ID: "compact-only", Event: "SessionStart", Matcher: "compact|resume", Handler: engine.Static(engine.Context("restored"))},
		engine.Hook{ID: "env-file", Event: "FileChanged", Matcher: ".envrc|.env", Handler: engine.Static(engine.Result{"system_message": "env changed"})},
		// UserPromptSubmit has no matcher field: like Claude Code, the matcher is ignored.
		engine.Hook{ID: "prompt", Event: "UserPromptSubmit", Matcher: "Bash", Handler: engine.Static(engine.Context("always"))},
	)
	if out := fire(t, e, "SessionStart", map[string]any{"source": "startup"}); out.AdditionalContext != "" {
		t.Fatalf("%+v", out)
	}
	if out := fire(t, e, "SessionStart", map[string]any{"source": "compact"}); out.AdditionalContext != "restored" {
		t.Fatalf("%+v", out)
	}
	if out := fire(t, e, "FileChanged", map[string]any{"file_path": "/home/u/proj/.envrc"}); out.SystemMessage != "env changed" {
		t.Fatalf("basename matching: %+v", out)
	}
	if out := fire(t, e, "UserPromptSubmit", map[string]any{"prompt": "x"}); out.AdditionalContext != "always" {
		t.Fatalf("%+v", out)
	}
	// A missing matcher field does not match an exact matcher.
	out := fire(t, e, "SessionStart", map[string]any{})
	if tr := traceOf(t, out, "compact-only"); tr.SkipReason != engine.SkipMatcher {
		t.Fatalf("%+v", tr)
	}
}

func TestConditionsInHooks(t *testing.T) {
	e := newEngine(t)
	calls := 0
	counting := fn(func(_ context.Context, _ *engine.Call) (engine.Result, error) {
		calls++
		return engine.Deny("matched"), nil
	})
	register(t, e, engine.Hook{ID: "gate", Event: "PreToolUse",
		When:    "tool_name == 'Bash' and (tool_input.command contains 'sudo' or tool_input.command startsWith 'rm ') and not (cwd startsWith '/tmp')",
		Handler: counting})
	cases := []struct {
		payload map[string]any
		want    bool
	}{
		{map[string]any{"tool_name": "Bash", "cwd": "/home", "tool_input": map[string]any{"command": "sudo ls"}}, true},
		{map[string]any{"tool_name": "Bash", "cwd": "/home", "tool_input": map[string]any{"command": "rm -f x"}}, true},
		{map[string]any{"tool_name": "Bash", "cwd": "/tmp/x", "tool_input": map[string]any{"command": "rm -f x"}}, false},
		{map[string]any{"tool_name": "Bash", "cwd": "/home", "tool_input": map[string]any{"command": "ls"}}, false},
		{map[string]any{"tool_name": "Write"}, false},
		{map[string]any{}, false}, // every field missing: nil, not a crash
	}
	for i, tc := range cases {
		before := calls
		out := fire(t, e, "PreToolUse", tc.payload)
		ran := calls > before
		if ran != tc.want {
			t.Fatalf("case %d: handler ran=%v, want %v (%+v)", i, ran, tc.want, out.Hooks)
		}
		if !tc.want {
			if tr := traceOf(t, out, "gate"); tr.Status != engine.StatusSkipped || tr.SkipReason != engine.SkipCondition {
				t.Fatalf("case %d: %+v", i, tr)
			}
		}
	}
}

func TestConditionRuntimeErrorIsAHookFailure(t *testing.T) {
	e := newEngine(t)
	register(t, e, engine.Hook{ID: "strict", Event: "PreToolUse", When: "tool_name", OnError: engine.OnError{Policy: engine.ErrorBlock},
		Handler: engine.Static(engine.Allow(""))})
	out := fire(t, e, "PreToolUse", bash("ls"))
	tr := traceOf(t, out, "strict")
	if tr.Status != engine.StatusError || !out.Blocked {
		t.Fatalf("%+v / %+v", tr, out)
	}
}
