package engine

import "time"

// Source names used in the built-in catalog.
const (
	SourceClaudeCode = "claude-code"
	SourceOpenClaw   = "openclaw"
	SourceSeed       = "seed"
	SourceCustom     = "custom"
)

// Claude Code's default hook timeouts (reference: claude-code-hooks.md §4).
const (
	claudeTimeout      = 600 * time.Second
	claudeShortTimeout = 30 * time.Second
)

// Shorthands that keep the catalog table readable.
var (
	concat = FieldRule{Rule: MergeConcat}
	first  = FieldRule{Rule: MergeFirst}
	last   = FieldRule{Rule: MergeLast}
	sticky = FieldRule{Rule: MergeSticky}
	union  = FieldRule{Rule: MergeUnion}
	appnd  = FieldRule{Rule: MergeAppend}
	inter  = FieldRule{Rule: MergeIntersect}
	mrg    = FieldRule{Rule: MergeMerge}
	// stop is a sticky flag that ends the chain and blocks (OpenClaw's
	// block and cancel).
	stop = FieldRule{Rule: MergeSticky, Terminal: true, Blocks: true}
	// claimed is a sticky flag that ends the chain without blocking
	// (OpenClaw's claim hooks: the first handled=true wins).
	claimed = FieldRule{Rule: MergeSticky, Terminal: true}
)

func chain(target string) FieldRule { return FieldRule{Rule: MergeChain, Target: target} }

func restrictive(order ...string) FieldRule {
	return FieldRule{Rule: MergeRestrictive, Order: order}
}

func fields(kv ...any) map[string]FieldRule {
	m := make(map[string]FieldRule, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(FieldRule)
	}
	return m
}

// toolPreMerge is PreToolUse's table: Claude Code's fields plus the
// OpenClaw before_tool_call vocabulary that fires the same point.
func toolPreMerge() map[string]FieldRule {
	return fields(
		"additional_context", concat,
		"block", stop,
		"block_reason", last,
		"params", FieldRule{Rule: MergeChain, Target: "params", FreezeAfter: "require_approval", Input: true},
		// The same rewrite in Claude Code's spelling: frozen alike once a
		// hook asked for approval.
		"updated_input", FieldRule{Rule: MergeChain, Target: "tool_input", FreezeAfter: "require_approval"},
		"require_approval", FieldRule{Rule: MergeFirst, Ask: true},
	)
}

// ignore drops a field the event does not honour.
var ignore = FieldRule{Rule: MergeIgnore}

// BuiltinEvents returns a fresh copy of the built-in catalog: every Claude
// Code hook event (canonical names), every OpenClaw typed and internal hook
// (an alias where it is the same point, its own event otherwise) and the
// seed documents' event names.
func BuiltinEvents() []EventSpec {
	return []EventSpec{
		// ---- Claude Code: 33 events -------------------------------------
		{Name: "SessionStart", Source: SourceClaudeCode, Strategy: Modifying, MatcherField: "source",
			Aliases:     []string{"session_start", "session.start", "session:start", "sessionStart"},
			Merge:       fields("initial_user_message", first, "session_title", first, "watch_paths", union, "reload_skills", sticky),
			Description: "a session starts, resumes, is cleared, compacted or forked"},
		{Name: "Setup", Source: SourceClaudeCode, Strategy: Modifying, MatcherField: "trigger",
			Description: "repository setup (--init-only, --init, --maintenance)"},
		{Name: "InstructionsLoaded", Source: SourceClaudeCode, Strategy: Void, MatcherField: "load_reason",
			Description: "a CLAUDE.md or rules file is loaded"},
		{Name: "UserPromptSubmit", Source: SourceClaudeCode, Strategy: Modifying,
			Aliases:        []string{"turn:pre", "BeforeAgent", "beforeSubmitPrompt", "userPromptSubmitted"},
			Decisions:      []string{"block"},
			Merge:          fields("prompt", chain("prompt"), "session_title", first, "suppress_original_prompt", sticky),
			DefaultTimeout: claudeShortTimeout,
			Description:    "a prompt is submitted, before the model sees it"},
		{Name: "UserPromptExpansion", Source: SourceClaudeCode, Strategy: Modifying, MatcherField: "command_name",
			Decisions:   []string{"block"},
			Description: "a /command or MCP prompt expands"},
		{Name: "MessageDisplay", Source: SourceClaudeCode, Strategy: Modifying,
			Merge:          fields("display_content", chain("delta")),
			DefaultTimeout: 10 * time.Second,
			Description:    "assistant text is about to be shown (display only)"},
		{Name: "PreToolUse", Source: SourceClaudeCode, Strategy: Modifying, MatcherField: "tool_name",
			Aliases:     []string{"before_tool_call", "tool.pre", "tool:pre", "BeforeTool", "preToolUse"},
			Decisions:   []string{"deny", "defer", "ask", "allow"},
			Merge:       toolPreMerge(),
			Description: "a tool call is about to run"},
		{Name: "PermissionRequest", Source: SourceClaudeCode, Strategy: Modifying, MatcherField: "tool_name",
			Decisions:   []string{"deny", "allow"},
			Merge:       fields("updated_permissions", appnd, "message", first, "interrupt", sticky),
			Description: "a permission prompt is about to show"},
		{Name: "PermissionDenied", Source: SourceClaudeCode, Strategy: Modifying, MatcherField: "tool_name",
			Merge:       fields("retry", sticky),
			Description: "the auto-mode classifier denied a tool call"},
		{Name: "PostToolUse", Source: SourceClaudeCode, Strategy: Modifying, MatcherField: "tool_name",
			Aliases:     []string{"after_tool_call", "tool.post", "tool:post", "AfterTool", "postToolUse"},
			Decisions:   []string{"block"},
			Merge:       fields("classifier_context", concat),
			Description: "a tool call succeeded"},
		{Name: "PostToolUseFailure", Source: SourceClaudeCode, Strategy: Modifying, MatcherField: "tool_name",
			Aliases:     []string{"tool:error", "postToolUseFailure"},
			Description: "a tool call failed"},
		{Name: "PostToolBatch", Source: SourceClaudeCode, Strategy: Modifying,
			Decisions:   []string{"block"},
			Description: "a batch of parallel tool calls resolved, before the next model call"},
		{Name: "Notification", Source: SourceClaudeCode, Strategy: Void, MatcherField: "notification_type",
			Description: "the agent sends a notification"},
		{Name: "SubagentStart", Source: SourceClaudeCode, Strategy: Modifying, MatcherField: "agent_type",
			Aliases:     []string{"subagent_spawned", "subagent:start", "subagentStart"},
			Description: "a subagent is spawned"},
		{Name: "SubagentStop", Source: SourceClaudeCode, Strategy: Modifying, MatcherField: "agent_type",
			Aliases:     []string{"subagent_ended", "subagent:stop", "subagentStop"},
			Decisions:   []string{"block"},
			StopGuard:   true,
			Description: "a subagent finished its response (block = keep working)"},
		{Name: "TaskCreated", Source: SourceClaudeCode, Strategy: Modifying,
			Decisions:   []string{"block"},
			Merge:       fields("continue", ignore, "stop_reason", ignore),
			Description: "a task is being created"},
		{Name: "TaskCompleted", Source: SourceClaudeCode, Strategy: Modifying,
			Decisions:   []string{"block"},
			Description: "a task is marked complete"},
		{Name: "Stop", Source: SourceClaudeCode, Strategy: Modifying,
			Aliases:     []string{"turn:post", "AfterAgent", "stop"},
			Decisions:   []string{"block"},
			StopGuard:   true,
			Description: "the main agent finished responding (block = keep working)"},
		{Name: "StopFailure", Source: SourceClaudeCode, Strategy: Void, MatcherField: "error", MatcherMode: MatcherNarrow,
			Aliases:     []string{"error", "errorOccurred"},
			Description: "a turn ended with an API error"},
		{Name: "TeammateIdle", Source: SourceClaudeCode, Strategy: Modifying,
			Decisions:   []string{"block"},
			Description: "an agent-team teammate is about to go idle"},
		{Name: "ConfigChange", Source: SourceClaudeCode, Strategy: Modifying, MatcherField: "source",
			Decisions:   []string{"block"},
			Description: "a settings or skill file changed mid-session"},
		{Name: "CwdChanged", Source: SourceClaudeCode, Strategy: Modifying,
			Merge:       fields("watch_paths", last),
			Description: "the working directory changed"},
		{Name: "DirectoryAdded", Source: SourceClaudeCode, Strategy: Void, MatcherField: "source",
			Description: "a directory was added to the workspace"},
		{Name: "FileChanged", Source: SourceClaudeCode, Strategy: Modifying, MatcherField: "file_path", MatchBasename: true, MatcherMode: MatcherLiteral,
			Merge:       fields("watch_paths", last),
			Description: "a watched file changed on disk"},
		{Name: "WorktreeCreate", Source: SourceClaudeCode, Strategy: Modifying,
			Decisions:   []string{"block"},
			Merge:       fields("worktree_path", first),
			Description: "a worktree is about to be created"},
		{Name: "WorktreeRemove", Source: SourceClaudeCode, Strategy: Void,
			Description: "a worktree was removed"},
		{Name: "PreCompact", Source: SourceClaudeCode, Strategy: Modifying, MatcherField: "trigger",
			Aliases:     []string{"before_compaction", "session:compact:before", "compact:pre", "PreCompress", "preCompact"},
			Decisions:   []string{"block"},
			Description: "the context is about to be compacted"},
		{Name: "PostCompact", Source: SourceClaudeCode, Strategy: Void, MatcherField: "trigger",
			Aliases:     []string{"after_compaction", "session:compact:after", "compact", "compact:post"},
			Description: "the context was compacted"},
		{Name: "PreModelSwitch", Source: SourceClaudeCode, Strategy: Modifying, MatcherField: "to_model",
			Decisions:      []string{"deny", "ask", "allow"},
			Merge:          fields("additional_context", ignore, "updated_input", ignore),
			DefaultTimeout: claudeShortTimeout,
			FailClosed:     true,
			Description:    "a requested model switch, before it happens (fails closed)"},
		{Name: "PostModelSwitch", Source: SourceClaudeCode, Strategy: Modifying, MatcherField: "to_model",
			DefaultTimeout: claudeShortTimeout,
			Description:    "the model changed"},
		{Name: "Elicitation", Source: SourceClaudeCode, Strategy: Modifying, MatcherField: "mcp_server_name",
			Merge:       fields("action", restrictive("cancel", "decline", "accept"), "content", last),
			Description: "an MCP server asks the user for input"},
		{Name: "ElicitationResult", Source: SourceClaudeCode, Strategy: Modifying, MatcherField: "mcp_server_name",
			Merge:       fields("action", restrictive("cancel", "decline", "accept"), "content", last),
			Description: "the user answered an MCP elicitation"},
		{Name: "SessionEnd", Source: SourceClaudeCode, Strategy: Void, MatcherField: "reason",
			Aliases:     []string{"session_end", "session.end", "session:end", "sessionEnd"},
			Description: "a session ends"},

		// ---- OpenClaw typed plugin hooks with no Claude Code twin --------
		{Name: "before_model_resolve", Source: SourceOpenClaw, Strategy: Modifying,
			Merge:       fields("model_override", first, "provider_override", first),
			Description: "before the model is resolved for a run"},
		{Name: "agent_turn_prepare", Source: SourceOpenClaw, Strategy: Modifying,
			Merge:       fields("prepend_context", concat, "append_context", concat),
			Description: "plugin turn injections are drained"},
		{Name: "before_prompt_build", Source: SourceOpenClaw, Strategy: Modifying, DefaultTimeout: 15 * time.Second,
			Merge: fields("system_prompt", first, "prepend_context", concat, "append_context", concat,
				"prepend_system_context", concat, "append_system_context", concat, "tools_allow", inter),
			Description: "before the prompt is assembled"},
		{Name: "before_agent_start", Source: SourceOpenClaw, Strategy: Modifying,
			Merge: fields("system_prompt", first, "prepend_context", concat, "append_context", concat,
				"model_override", first, "provider_override", first),
			Description: "legacy: before the agent starts (prompt build + model resolve)"},
		{Name: "before_agent_reply", Source: SourceOpenClaw, Strategy: Modifying,
			Merge:       fields("handled", claimed, "reply", first),
			Description: "claim: a plugin may answer instead of the agent"},
		{Name: "before_agent_run", Source: SourceOpenClaw, Strategy: Modifying, DefaultTimeout: 15 * time.Second, FailClosed: true,
			Decisions: []string{"block", "pass"}, DecisionField: "outcome", StrictDecisions: true,
			Merge:       fields("message", first, "category", first, "metadata", mrg),
			Description: "gate: the first block stops the run (fails closed)"},
		{Name: "model_call_started", Source: SourceOpenClaw, Strategy: Void, Description: "a model call started"},
		{Name: "model_call_ended", Source: SourceOpenClaw, Strategy: Void, Description: "a model call ended"},
		{Name: "llm_input", Source: SourceOpenClaw, Strategy: Void, Description: "the input sent to the model"},
		{Name: "llm_output", Source: SourceOpenClaw, Strategy: Void, Description: "the model's output"},
		{Name: "before_agent_finalize", Source: SourceOpenClaw, Strategy: Modifying, DefaultTimeout: 15 * time.Second,
			Decisions: []string{"finalize", "revise", "continue"}, DecisionField: "action", JoinReasons: []string{"revise"},
			Merge:       fields("retry", first),
			Description: "before the answer goes out: continue, revise or finalize"},
		{Name: "agent_end", Source: SourceOpenClaw, Strategy: Void, DefaultTimeout: 30 * time.Second,
			Description: "an agent run ended"},
		{Name: "heartbeat_prompt_contribution", Source: SourceOpenClaw, Strategy: Modifying,
			Merge:       fields("prepend_context", concat, "append_context", concat),
			Description: "a heartbeat prompt is built"},
		{Name: "before_reset", Source: SourceOpenClaw, Strategy: Void, Description: "a session is about to be reset"},
		{Name: "inbound_claim", Source: SourceOpenClaw, Strategy: Modifying,
			Merge:       fields("handled", claimed, "reply", first),
			Description: "claim: an inbound message may be handled by a plugin"},
		{Name: "channel_pairing_requested", Source: SourceOpenClaw, Strategy: Void, DefaultTimeout: 2 * time.Second,
			Description: "a channel pairing was requested"},
		{Name: "message_received", Source: SourceOpenClaw, Strategy: Void,
			Aliases:     []string{"message:received"},
			Description: "an inbound message arrived"},
		{Name: "message_sending", Source: SourceOpenClaw, Strategy: Modifying, DefaultTimeout: 15 * time.Second,
			Decisions:   []string{"cancel"},
			Merge:       fields("cancel", stop, "content", last, "cancel_reason", last, "metadata", last),
			Description: "an outbound message is about to be sent (cancel is terminal)"},
		{Name: "reply_payload_sending", Source: SourceOpenClaw, Strategy: Modifying, DefaultTimeout: 15 * time.Second,
			Decisions:   []string{"cancel"},
			Merge:       fields("payload", chain("payload"), "cancel", stop, "reason", last),
			Description: "a reply payload is about to be sent"},
		{Name: "message_sent", Source: SourceOpenClaw, Strategy: Void,
			Aliases:     []string{"message:sent"},
			Description: "an outbound message was sent"},
		{Name: "before_dispatch", Source: SourceOpenClaw, Strategy: Modifying,
			Merge:       fields("handled", claimed, "text", first),
			Description: "claim: before a message is dispatched to the agent"},
		{Name: "reply_dispatch", Source: SourceOpenClaw, Strategy: Modifying,
			Merge:       fields("handled", claimed, "queued_final", first, "counts", first),
			Description: "claim: a finalized reply is dispatched"},
		{Name: "resolve_exec_env", Source: SourceOpenClaw, Strategy: Modifying, DefaultTimeout: 15 * time.Second,
			Merge:       fields("env", mrg),
			Description: "environment variables for an exec tool call"},
		{Name: "tool_result_persist", Source: SourceOpenClaw, Strategy: Sync,
			Merge:       fields("message", chain("message")),
			Description: "a tool result is about to be written to the transcript (sync hot path)"},
		{Name: "before_message_write", Source: SourceOpenClaw, Strategy: Sync,
			Decisions:   []string{"block"},
			Merge:       fields("block", stop, "message", chain("message")),
			Description: "a message is about to be written (sync gate)"},
		{Name: "subagent_spawning", Source: SourceOpenClaw, Strategy: Modifying,
			Merge:       fields("status", restrictive("error", "ok"), "thread_binding_ready", sticky),
			Description: "deprecated: a subagent is being spawned"},
		{Name: "subagent_delivery_target", Source: SourceOpenClaw, Strategy: Modifying,
			Merge:       fields("origin", first),
			Description: "where a subagent's completion is delivered"},
		{Name: "subagent_progress", Source: SourceOpenClaw, Strategy: Void, Description: "a subagent reported progress"},
		{Name: "gateway_start", Source: SourceOpenClaw, Strategy: Void,
			Aliases:     []string{"gateway:startup"},
			Description: "the gateway started"},
		{Name: "gateway_stop", Source: SourceOpenClaw, Strategy: Void, DefaultTimeout: 5 * time.Second,
			Aliases:     []string{"deactivate", "gateway:shutdown"},
			Description: "the gateway is stopping"},
		{Name: "cron_reconciled", Source: SourceOpenClaw, Strategy: Void, Description: "cron jobs were reconciled"},
		{Name: "cron_changed", Source: SourceOpenClaw, Strategy: Void, Description: "a cron job changed"},
		{Name: "before_install", Source: SourceOpenClaw, Strategy: Modifying, DefaultTimeout: 15 * time.Second, FailClosed: true,
			Decisions:   []string{"block"},
			Merge:       fields("findings", appnd, "block", stop, "block_reason", last),
			Description: "a skill or plugin is about to be installed (fails closed)"},
		{Name: "skill_proposal_evaluate", Source: SourceOpenClaw, Strategy: Void, DefaultTimeout: 120 * time.Second,
			Description: "evaluators score a skill proposal"},
		{Name: "skill_proposal_changed", Source: SourceOpenClaw, Strategy: Void, DefaultTimeout: 30 * time.Second,
			Description: "a skill proposal changed"},
		{Name: "skill_changed", Source: SourceOpenClaw, Strategy: Void, DefaultTimeout: 30 * time.Second,
			Description: "a skill changed"},
		{Name: "secret_env_authorize", Source: SourceOpenClaw, Strategy: Modifying, DefaultTimeout: 15 * time.Second, FailClosed: true,
			Decisions:   []string{"block"},
			Merge:       fields("allowed_names", inter),
			Description: "gate: which secret env vars a tool may see (intersection)"},
		{Name: "after_tools_resolved", Source: SourceOpenClaw, Strategy: Void, Description: "the tool list after policy"},
		{Name: "before_model_call", Source: SourceOpenClaw, Strategy: Modifying, DefaultTimeout: 15 * time.Second, FailClosed: true,
			Decisions:   []string{"block"},
			Merge:       fields("block", stop),
			Description: "gate: before a model call"},

		// ---- OpenClaw internal hooks (type:action) -----------------------
		{Name: "command:new", Source: SourceOpenClaw, Strategy: Void, Description: "the /new command"},
		{Name: "command:reset", Source: SourceOpenClaw, Strategy: Void, Description: "the /reset command"},
		{Name: "command:stop", Source: SourceOpenClaw, Strategy: Void, Description: "the /stop command"},
		{Name: "session:patch", Source: SourceOpenClaw, Strategy: Void, Description: "a session was patched"},
		{Name: "session:auto-reset", Source: SourceOpenClaw, Strategy: Void, Description: "a session was reset automatically"},
		{Name: "agent:bootstrap", Source: SourceOpenClaw, Strategy: Modifying,
			Merge:       fields("bootstrap_files", appnd),
			Description: "agent bootstrap files are assembled"},
		{Name: "gateway:pre-restart", Source: SourceOpenClaw, Strategy: Void, Description: "the gateway is about to restart"},
		{Name: "message:transcribed", Source: SourceOpenClaw, Strategy: Void, Description: "an audio message was transcribed"},
		{Name: "message:preprocessed", Source: SourceOpenClaw, Strategy: Void, Description: "an inbound message was preprocessed"},
	}
}
