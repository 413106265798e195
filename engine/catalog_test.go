package engine_test

import (
	"slices"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
)

// claudeEvents is Claude Code's hook event list (late 2026) with each
// event's matcher field.
var claudeEvents = map[string]string{
	"SessionStart": "source", "Setup": "trigger", "InstructionsLoaded": "load_reason",
	"UserPromptSubmit": "", "UserPromptExpansion": "command_name", "MessageDisplay": "",
	"PreToolUse": "tool_name", "PermissionRequest": "tool_name", "PermissionDenied": "tool_name",
	"PostToolUse": "tool_name", "PostToolUseFailure": "tool_name", "PostToolBatch": "",
	"Notification": "notification_type", "SubagentStart": "agent_type", "SubagentStop": "agent_type",
	"TaskCreated": "", "TaskCompleted": "", "Stop": "", "StopFailure": "error", "TeammateIdle": "",
	"ConfigChange": "source", "CwdChanged": "", "DirectoryAdded": "source", "FileChanged": "file_path",
	"WorktreeCreate": "", "WorktreeRemove": "", "PreCompact": "trigger", "PostCompact": "trigger",
	"PreModelSwitch": "to_model", "PostModelSwitch": "to_model", "Elicitation": "mcp_server_name",
	"ElicitationResult": "mcp_server_name", "SessionEnd": "reason",
}

func TestCatalogHasEveryClaudeCodeEvent(t *testing.T) {
	if len(claudeEvents) != 33 {
		t.Fatalf("the table lists %d events", len(claudeEvents))
	}
	e := newEngine(t)
	n := 0
	for _, spec := range e.Events() {
		if spec.Source != engine.SourceClaudeCode {
			continue
		}
		n++
		field, ok := claudeEvents[spec.Name]
		if !ok {
			t.Errorf("unexpected Claude Code event %s", spec.Name)
			continue
		}
		if spec.MatcherField != field {
			t.Errorf("%s: matcher field %q, want %q", spec.Name, spec.MatcherField, field)
		}
		if err := spec.Validate(); err != nil {
			t.Error(err)
		}
	}
	if n != 33 {
		t.Fatalf("%d Claude Code events in the catalog, want 33", n)
	}
	pre, _ := e.Event("PreToolUse")
	if !slices.Equal(pre.Decisions, []string{"deny", "defer", "ask", "allow"}) {
		t.Fatalf("PreToolUse decisions %v", pre.Decisions)
	}
	sw, _ := e.Event("PreModelSwitch")
	if !slices.Equal(sw.Decisions, []string{"deny", "ask", "allow"}) || !sw.FailClosed || sw.DefaultTimeout != 30*time.Second {
		t.Fatalf("PreModelSwitch %+v", sw)
	}
	for _, name := range []string{"Stop", "SubagentStop"} {
		if s, _ := e.Event(name); !s.StopGuard || !slices.Equal(s.Decisions, []string{"block"}) {
			t.Fatalf("%s %+v", name, s)
		}
	}
	if s, _ := e.Event("UserPromptSubmit"); s.DefaultTimeout != 30*time.Second {
		t.Fatalf("UserPromptSubmit timeout %s", s.DefaultTimeout)
	}
}

func TestCatalogOpenClawAndSeedNames(t *testing.T) {
	e := newEngine(t)
	aliases := map[string]string{
		"before_tool_call": "PreToolUse", "after_tool_call": "PostToolUse",
		"session_start": "SessionStart", "session_end": "SessionEnd",
		"before_compaction": "PreCompact", "after_compaction": "PostCompact",
		"subagent_spawned": "SubagentStart", "subagent_ended": "SubagentStop",
		"deactivate": "gateway_stop", "gateway:startup": "gateway_start",
		// Opta's seed events.
		"session.start": "SessionStart", "session.end": "SessionEnd", "tool.pre": "PreToolUse",
		"tool.post": "PostToolUse", "compact": "PostCompact", "error": "StopFailure",
		// The gate engine's points.
		"turn:pre": "UserPromptSubmit", "turn:post": "Stop",
	}
	for alias, canonical := range aliases {
		spec, err := e.Event(alias)
		if err != nil || spec.Name != canonical {
			t.Errorf("%s: got %q, %v; want %s", alias, spec.Name, err, canonical)
		}
	}
	own := map[string]engine.Strategy{
		"before_model_resolve": engine.Modifying, "before_prompt_build": engine.Modifying,
		"before_agent_run": engine.Modifying, "message_sending": engine.Modifying,
		"message_received": engine.Void, "llm_input": engine.Void, "agent_end": engine.Void,
		"tool_result_persist": engine.Sync, "before_message_write": engine.Sync,
		"before_install": engine.Modifying, "resolve_exec_env": engine.Modifying,
		"gateway_start": engine.Void, "inbound_claim": engine.Modifying,
	}
	for name, strat := range own {
		spec, err := e.Event(name)
		if err != nil || spec.Name != name || spec.Strategy != strat || spec.Source != engine.SourceOpenClaw {
			t.Errorf("%s: %+v %v", name, spec, err)
		}
	}
	if s, _ := e.Event("before_agent_run"); !s.FailClosed {
		t.Error("before_agent_run must fail closed")
	}
	// Every name of the catalog resolves to exactly one event.
	seen := map[string]string{}
	for _, spec := range e.Events() {
		for _, n := range append([]string{spec.Name}, spec.Aliases...) {
			if prev, dup := seen[n]; dup {
				t.Errorf("name %s used by %s and %s", n, prev, spec.Name)
			}
			seen[n] = spec.Name
		}
	}
}

func TestEventSpecValidation(t *testing.T) {
	bad := []engine.EventSpec{
		{Name: "", Strategy: engine.Void},
		{Name: "x y", Strategy: engine.Void},
		{Name: "x"},
		{Name: "x", Strategy: engine.Modifying, Decisions: []string{"a", "a"}},
		{Name: "x", Strategy: engine.Modifying, Merge: map[string]engine.FieldRule{"decision": {}}},
		{Name: "x", Strategy: engine.Modifying, Merge: map[string]engine.FieldRule{"f": {Rule: engine.MergeRestrictive}}},
		{Name: "x", Strategy: engine.Modifying, Merge: map[string]engine.FieldRule{"f": {Rule: engine.MergeChain}}},
	}
	for i, s := range bad {
		if err := s.Validate(); err == nil {
			t.Errorf("case %d accepted: %+v", i, s)
		}
	}
	for _, name := range []string{"last", "restrictive", "sticky", "first", "concat", "chain", "merge", "append", "intersect", "union"} {
		r, err := engine.ParseMergeRule(name)
		if err != nil || r.String() != name {
			t.Errorf("%s: %v %v", name, r, err)
		}
	}
	if _, err := engine.ParseMergeRule("nope"); err == nil {
		t.Error("unknown rule accepted")
	}
}

// TestBuiltinEventsValidate: every built-in event is valid (New registers
// them without validating), and BuiltinEvents shares nothing between
// calls (New registers them without copying).
func TestBuiltinEventsValidate(t *testing.T) {
	a, b := engine.BuiltinEvents(), engine.BuiltinEvents()
	for i := range a {
		if err := a[i].Validate(); err != nil {
			t.Error(err)
		}
		for k := range a[i].Merge {
			delete(a[i].Merge, k)
		}
		if len(a[i].Aliases) > 0 {
			a[i].Aliases[0] = "changed"
		}
		if len(a[i].Decisions) > 0 {
			a[i].Decisions[0] = "changed"
		}
	}
	for i := range b {
		if len(b[i].Aliases) > 0 && b[i].Aliases[0] == "changed" || len(b[i].Decisions) > 0 && b[i].Decisions[0] == "changed" {
			t.Fatalf("%s: a slice is shared between calls", b[i].Name)
		}
	}
	if pre := b[slices.IndexFunc(b, func(s engine.EventSpec) bool { return s.Name == "PreToolUse" })]; len(pre.Merge) == 0 {
		t.Fatal("PreToolUse's merge table is shared between calls")
	}
}
