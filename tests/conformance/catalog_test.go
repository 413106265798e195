package conformance_test

import (
	"slices"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
)

// catalogRow is the expected catalog entry of one event name, per the
// reference that defines the event.
type catalogRow struct {
	rule string
	cite string
	// name is fired by; canonical is the spec it must resolve to.
	name, canonical string
	strategy        engine.Strategy
	matcherField    string
	decisions       []string // most restrictive first (nil: takes none)
	timeout         time.Duration
	failClosed      bool
	stopGuard       bool
}

// TestCatalog checks the data-driven catalog against the references:
// canonical names, aliases, strategy, matcher field, decisions and their
// precedence, default timeouts and fail-closed defaults.
func TestCatalog(t *testing.T) {
	const (
		ccTable = "claude-code-hooks.md §1"
		ocTable = "openclaw-hooks.md §1 (Kind, DT, FC)"
	)
	mod, void, syn := engine.Modifying, engine.Void, engine.Sync
	s := time.Second
	rows := []catalogRow{
		{"Claude Code PreToolUse: tool_name, deny > defer > ask > allow, fails open", ccTable + "; " + ccCombine, "PreToolUse", "PreToolUse", mod, "tool_name", []string{"deny", "defer", "ask", "allow"}, 0, false, false},
		{"Claude Code PermissionRequest: tool_name, deny > allow", ccTable + " (decision.behavior allow|deny)", "PermissionRequest", "PermissionRequest", mod, "tool_name", []string{"deny", "allow"}, 0, false, false},
		{"Claude Code PreModelSwitch: to_model, deny > ask > allow, 30 s, fails closed", ccTable + "; " + ccOutput + " (timeout blocks)", "PreModelSwitch", "PreModelSwitch", mod, "to_model", []string{"deny", "ask", "allow"}, 30 * s, true, false},
		{"Claude Code PostModelSwitch: to_model, no decision, 30 s", ccTable, "PostModelSwitch", "PostModelSwitch", mod, "to_model", nil, 30 * s, false, false},
		{"Claude Code UserPromptSubmit: no matcher, block, 30 s", ccTable, "UserPromptSubmit", "UserPromptSubmit", mod, "", []string{"block"}, 30 * s, false, false},
		{"Claude Code UserPromptExpansion: command_name, block", ccTable, "UserPromptExpansion", "UserPromptExpansion", mod, "command_name", []string{"block"}, 0, false, false},
		{"Claude Code MessageDisplay: 10 s", ccTable, "MessageDisplay", "MessageDisplay", mod, "", nil, 10 * s, false, false},
		{"Claude Code PostToolUse: tool_name, block", ccTable, "PostToolUse", "PostToolUse", mod, "tool_name", []string{"block"}, 0, false, false},
		{"Claude Code PostToolBatch: no matcher, block", ccTable, "PostToolBatch", "PostToolBatch", mod, "", []string{"block"}, 0, false, false},
		{"Claude Code Stop: block = keep working, loop guard", ccTable + "; " + ccLoop, "Stop", "Stop", mod, "", []string{"block"}, 0, false, true},
		{"Claude Code SubagentStop: agent_type, block = keep working, loop guard", ccTable + "; " + ccLoop, "SubagentStop", "SubagentStop", mod, "agent_type", []string{"block"}, 0, false, true},
		{"Claude Code SubagentStart: agent_type, context only", ccTable, "SubagentStart", "SubagentStart", mod, "agent_type", nil, 0, false, false},
		{"Claude Code SessionStart: source, context only", ccTable, "SessionStart", "SessionStart", mod, "source", nil, 0, false, false},
		{"Claude Code Setup: trigger, context only", ccTable, "Setup", "Setup", mod, "trigger", nil, 0, false, false},
		{"Claude Code PreCompact: trigger, block", ccTable, "PreCompact", "PreCompact", mod, "trigger", []string{"block"}, 0, false, false},
		{"Claude Code ConfigChange: source, block", ccTable, "ConfigChange", "ConfigChange", mod, "source", []string{"block"}, 0, false, false},
		{"Claude Code TaskCreated: block", ccTable, "TaskCreated", "TaskCreated", mod, "", []string{"block"}, 0, false, false},
		{"Claude Code FileChanged: file_path (base name)", ccTable, "FileChanged", "FileChanged", mod, "file_path", nil, 0, false, false},
		{"Claude Code Elicitation: mcp_server_name", ccTable, "Elicitation", "Elicitation", mod, "mcp_server_name", nil, 0, false, false},
		{"Claude Code Notification: notification_type, void", ccTable + "; " + ccOutput + " (Nothing)", "Notification", "Notification", void, "notification_type", nil, 0, false, false},
		{"Claude Code SessionEnd: reason, void", ccTable + "; " + ccOutput + " (Nothing)", "SessionEnd", "SessionEnd", void, "reason", nil, 0, false, false},
		{"Claude Code PostCompact: trigger, void", ccTable + "; " + ccOutput + " (Nothing)", "PostCompact", "PostCompact", void, "trigger", nil, 0, false, false},
		{"Claude Code InstructionsLoaded: load_reason, void", ccTable + "; " + ccOutput + " (Nothing)", "InstructionsLoaded", "InstructionsLoaded", void, "load_reason", nil, 0, false, false},
		{"Claude Code StopFailure: error, void", ccTable + "; " + ccOutput + " (Nothing)", "StopFailure", "StopFailure", void, "error", nil, 0, false, false},
		{"Claude Code WorktreeRemove: void", ccTable + "; " + ccOutput + " (Nothing)", "WorktreeRemove", "WorktreeRemove", void, "", nil, 0, false, false},
		{"Claude Code DirectoryAdded: source, void", ccTable + "; " + ccOutput + " (Nothing)", "DirectoryAdded", "DirectoryAdded", void, "source", nil, 0, false, false},

		{"OpenClaw before_tool_call is PreToolUse", "SPEC §2 Events", "before_tool_call", "PreToolUse", mod, "tool_name", []string{"deny", "defer", "ask", "allow"}, 0, false, false},
		{"OpenClaw after_tool_call is PostToolUse", "SPEC §2 Events", "after_tool_call", "PostToolUse", mod, "tool_name", []string{"block"}, 0, false, false},
		{"OpenClaw session_start is SessionStart", "SPEC §2 Events", "session_start", "SessionStart", mod, "source", nil, 0, false, false},
		{"OpenClaw session_end is SessionEnd", "SPEC §2 Events", "session_end", "SessionEnd", void, "reason", nil, 0, false, false},
		{"OpenClaw before_compaction is PreCompact", "SPEC §2 Events", "before_compaction", "PreCompact", mod, "trigger", []string{"block"}, 0, false, false},
		{"OpenClaw after_compaction is PostCompact", "SPEC §2 Events", "after_compaction", "PostCompact", void, "trigger", nil, 0, false, false},
		{"OpenClaw deactivate is gateway_stop (void, 5 s)", ocTable, "deactivate", "gateway_stop", void, "", nil, 5 * s, false, false},
		{"OpenClaw before_model_resolve: modify", ocTable, "before_model_resolve", "before_model_resolve", mod, "", nil, 0, false, false},
		{"OpenClaw before_prompt_build: modify, 15 s", ocTable, "before_prompt_build", "before_prompt_build", mod, "", nil, 15 * s, false, false},
		{"OpenClaw before_agent_run: gate, 15 s, fails closed", ocTable, "before_agent_run", "before_agent_run", mod, "", []string{"block", "pass"}, 15 * s, true, false},
		{"OpenClaw before_agent_finalize: modify, 15 s", ocTable, "before_agent_finalize", "before_agent_finalize", mod, "", []string{"finalize", "revise", "continue"}, 15 * s, false, false},
		{"OpenClaw message_sending: modify/gate, 15 s, cancel", ocTable, "message_sending", "message_sending", mod, "", []string{"cancel"}, 15 * s, false, false},
		{"OpenClaw reply_payload_sending: modify/gate, 15 s, cancel", ocTable, "reply_payload_sending", "reply_payload_sending", mod, "", []string{"cancel"}, 15 * s, false, false},
		{"OpenClaw resolve_exec_env: modify, 15 s", ocTable, "resolve_exec_env", "resolve_exec_env", mod, "", nil, 15 * s, false, false},
		{"OpenClaw before_install: modify/gate, 15 s, fails closed", ocTable, "before_install", "before_install", mod, "", []string{"block"}, 15 * s, true, false},
		{"OpenClaw tool_result_persist: sync", ocTable, "tool_result_persist", "tool_result_persist", syn, "", nil, 0, false, false},
		{"OpenClaw before_message_write: sync gate", ocTable, "before_message_write", "before_message_write", syn, "", []string{"block"}, 0, false, false},
		{"OpenClaw inbound_claim: claim (modifying chain)", ocTable, "inbound_claim", "inbound_claim", mod, "", nil, 0, false, false},
		{"OpenClaw before_agent_reply: claim (modifying chain)", ocTable, "before_agent_reply", "before_agent_reply", mod, "", nil, 0, false, false},
		{"OpenClaw message_received: observe", ocTable, "message_received", "message_received", void, "", nil, 0, false, false},
		{"OpenClaw llm_output: observe", ocTable, "llm_output", "llm_output", void, "", nil, 0, false, false},
		{"OpenClaw agent_end: observe, 30 s", ocTable, "agent_end", "agent_end", void, "", nil, 30 * s, false, false},
		{"OpenClaw channel_pairing_requested: observe, 2 s", ocTable, "channel_pairing_requested", "channel_pairing_requested", void, "", nil, 2 * s, false, false},
		{"OpenClaw skill_proposal_evaluate: 120 s", ocTable, "skill_proposal_evaluate", "skill_proposal_evaluate", void, "", nil, 120 * s, false, false},
	}
	e := newEngine(t)
	for _, r := range rows {
		t.Run(r.rule, func(t *testing.T) {
			spec, err := e.Event(r.name)
			if err != nil {
				t.Fatalf("[%s] %s: %v", r.cite, r.name, err)
			}
			if spec.Name != r.canonical {
				t.Errorf("[%s] %s resolves to %s, want %s", r.cite, r.name, spec.Name, r.canonical)
			}
			if spec.Strategy != r.strategy {
				t.Errorf("[%s] %s: strategy %s, want %s", r.cite, r.name, spec.Strategy, r.strategy)
			}
			if spec.MatcherField != r.matcherField {
				t.Errorf("[%s] %s: matcher field %q, want %q", r.cite, r.name, spec.MatcherField, r.matcherField)
			}
			if !slices.Equal(spec.Decisions, r.decisions) {
				t.Errorf("[%s] %s: decisions %v, want %v", r.cite, r.name, spec.Decisions, r.decisions)
			}
			if spec.DefaultTimeout != r.timeout {
				t.Errorf("[%s] %s: default timeout %s, want %s", r.cite, r.name, spec.DefaultTimeout, r.timeout)
			}
			if spec.FailClosed != r.failClosed {
				t.Errorf("[%s] %s: fail closed %v, want %v", r.cite, r.name, spec.FailClosed, r.failClosed)
			}
			if spec.StopGuard != r.stopGuard {
				t.Errorf("[%s] %s: stop guard %v, want %v", r.cite, r.name, spec.StopGuard, r.stopGuard)
			}
		})
	}
}

// TestCatalogHasEveryClaudeCodeEvent checks that all 33 Claude Code events
// are in the catalog under their Claude Code names.
func TestCatalogHasEveryClaudeCodeEvent(t *testing.T) {
	names := []string{
		"SessionStart", "Setup", "InstructionsLoaded", "UserPromptSubmit", "UserPromptExpansion",
		"MessageDisplay", "PreToolUse", "PermissionRequest", "PermissionDenied", "PostToolUse",
		"PostToolUseFailure", "PostToolBatch", "Notification", "SubagentStart", "SubagentStop",
		"TaskCreated", "TaskCompleted", "Stop", "StopFailure", "TeammateIdle", "ConfigChange",
		"CwdChanged", "DirectoryAdded", "FileChanged", "WorktreeCreate", "WorktreeRemove",
		"PreCompact", "PostCompact", "PreModelSwitch", "PostModelSwitch", "Elicitation",
		"ElicitationResult", "SessionEnd",
	}
	if len(names) != 33 {
		t.Fatalf("the table lists %d events, want 33 (claude-code-hooks.md §0)", len(names))
	}
	e := newEngine(t)
	for _, n := range names {
		spec, err := e.Event(n)
		if err != nil {
			t.Errorf("[claude-code-hooks.md §1] %s: %v", n, err)
			continue
		}
		if spec.Name != n || spec.Source != engine.SourceClaudeCode {
			t.Errorf("[claude-code-hooks.md §1] %s: canonical %s, source %s", n, spec.Name, spec.Source)
		}
	}
}
