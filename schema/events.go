package schema

import "strings"

// The payloads of the Claude Code events: the fields Claude Code sends (a
// command hook's stdin, recorded from the real CLI, and its documented
// inputs) and those hookctl adds (tool, loop_count).

// common are the fields every event's payload carries.
var common = []Field{
	{Name: "tool", Type: String, Optional: true, Doc: "The canonical tool name on tool events (Bash, Edit, ...), whatever the host called it."},
	{Name: "session_id", Type: String},
	{Name: "transcript_path", Type: String, Optional: true},
	{Name: "cwd", Type: String},
	{Name: "hook_event_name", Type: String},
	{Name: "prompt_id", Type: String, Optional: true},
	{Name: "permission_mode", Type: String, Optional: true, TS: `"default" | "plan" | "acceptEdits" | "auto" | "dontAsk" | "bypassPermissions"`},
	{Name: "effort", Type: Object, Optional: true, Open: true, Fields: []Field{
		{Name: "level", Type: String, TS: `"low" | "medium" | "high" | "xhigh" | "max"`},
	}},
	{Name: "agent_id", Type: String, Optional: true},
	{Name: "agent_type", Type: String, Optional: true},
}

// p is a field written by its TypeScript type, from which its Type is
// inferred.
func p(name, ts string, optional bool, doc string) Field {
	f := Field{Name: name, Optional: optional, Doc: doc, TS: ts}
	switch {
	case ts == "string" || ts == "number" || ts == "boolean":
		f.Type, f.TS = Type(ts), ""
	case ts == "unknown":
		f.Type, f.TS = Any, ""
	case ts == "ToolInput":
		f.Type, f.Open = Object, true
	case ts == "{ name: string; source?: string }":
		f.Type, f.Open, f.TS = Object, true, ""
		f.Fields = []Field{{Name: "name", Type: String}, {Name: "source", Type: String, Optional: true}}
	case strings.HasPrefix(ts, "Array<{"):
		f.Type = Array
		f.Elem = &Field{Type: Object, Open: true, Fields: []Field{
			{Name: "tool_name", Type: String},
			{Name: "tool_input", Type: Object, Open: true, TS: "ToolInput"},
			{Name: "tool_use_id", Type: String},
			{Name: "tool_response", Type: Any},
		}}
	case strings.HasSuffix(ts, "[]"):
		elem := p("", strings.TrimSuffix(ts, "[]"), false, "")
		f.Type, f.Elem = Array, &elem
		if elem.TS == "" {
			f.TS = ""
		}
	default:
		// A union of strings ("a" | "b" | string), string | null.
		f.Type = String
	}
	return f
}

var (
	toolCall = []Field{
		p("tool_name", "string", false, "Bash, Edit, Write, Read, Glob, Grep, Agent, WebFetch, mcp__server__tool, ..."),
		p("tool_input", "ToolInput", false, ""),
	}
	stopFields = []Field{
		p("stop_hook_active", "boolean", false, "True while the agent continues because a Stop hook blocked."),
		p("loop_count", "number", false, "Consecutive Stop blocks so far (hookctl's loop guard)."),
		p("last_assistant_message", "string", true, ""),
		p("background_tasks", "unknown[]", true, ""),
		p("session_crons", "unknown[]", true, ""),
	}
	taskFields = []Field{
		p("task_id", "string", false, ""),
		p("task_subject", "string", false, ""),
		p("task_description", "string", true, ""),
		p("teammate_name", "string", true, ""),
		p("team_name", "string", true, "Deprecated."),
	}
	modelSwitch = []Field{
		p("from_model", "string", false, ""),
		p("to_model", "string", false, ""),
		p("requested_model", "string", true, ""),
		p("source", `"command" | "picker" | "sdk" | "auto" | "resume" | string`, false, ""),
		p("context_tokens", "number", true, ""),
		p("prompt_cache_warm", "boolean", true, ""),
		p("cache_ttl", `"5m" | "1h" | string`, true, ""),
		p("estimated_cache_write_usd", "number", true, ""),
		p("pricing", "unknown", true, ""),
	}
)

var events = map[string][]Field{
	"SessionStart": {
		p("source", `"startup" | "resume" | "clear" | "compact" | "fork"`, false, ""),
		p("model", "string", true, ""),
		p("session_title", "string", true, ""),
		p("seconds_since_last_response", "number", true, "On resume and fork."),
		p("context_tokens", "number", true, "On resume and fork."),
		p("prompt_cache_likely_expired", "boolean", true, "On resume and fork."),
		p("estimated_cache_write_usd", "number", true, "On resume and fork."),
	},
	"Setup": {
		p("trigger", `"init" | "maintenance"`, false, ""),
	},
	"InstructionsLoaded": {
		p("file_path", "string", false, ""),
		p("memory_type", `"User" | "Project" | "Local" | "Managed" | string`, false, ""),
		p("load_reason", `"session_start" | "nested_traversal" | "path_glob_match" | "include" | "compact" | string`, false, ""),
		p("globs", "string[]", true, ""),
		p("trigger_file_path", "string", true, ""),
		p("parent_file_path", "string", true, ""),
	},
	"UserPromptSubmit": {
		p("prompt", "string", false, ""),
		p("session_title", "string", true, ""),
	},
	"UserPromptExpansion": {
		p("expansion_type", `"slash_command" | "mcp_prompt"`, false, ""),
		p("command_name", "string", false, ""),
		p("command_args", "string", false, ""),
		p("command_source", "string", false, ""),
		p("prompt", "string", false, ""),
	},
	"MessageDisplay": {
		p("turn_id", "string", false, ""),
		p("message_id", "string", false, ""),
		p("index", "number", false, ""),
		p("final", "boolean", false, ""),
		p("delta", "string", false, "The text about to be shown."),
	},
	"PreToolUse": append(toolCall[:2:2],
		p("tool_use_id", "string", false, ""),
		p("mcp_server", "{ name: string; source?: string }", true, "For MCP tools.")),
	"PermissionRequest": append(toolCall[:2:2],
		p("permission_suggestions", "unknown[]", true, "")),
	"PermissionDenied": append(toolCall[:2:2],
		p("tool_use_id", "string", false, ""),
		p("reason", "string", false, "")),
	"PostToolUse": append(toolCall[:2:2],
		p("tool_response", "unknown", false, ""),
		p("tool_use_id", "string", false, ""),
		p("duration_ms", "number", true, "")),
	"PostToolUseFailure": append(toolCall[:2:2],
		p("tool_use_id", "string", false, ""),
		p("error", "string", false, `The first line is "Exit code N" for shells.`),
		p("is_interrupt", "boolean", true, ""),
		p("duration_ms", "number", true, "")),
	"PostToolBatch": {
		p("tool_calls", "Array<{ tool_name: string; tool_input: ToolInput; tool_use_id: string; tool_response: unknown }>", false, ""),
	},
	"Notification": {
		p("message", "string", false, ""),
		p("title", "string", true, ""),
		p("notification_type", `"permission_prompt" | "idle_prompt" | "auth_success" | "elicitation_dialog" | "agent_needs_input" | "agent_completed" | string`, false, ""),
	},
	"SubagentStart": {
		p("agent_id", "string", false, ""),
		p("agent_type", "string", false, ""),
	},
	"SubagentStop": append([]Field{
		p("agent_id", "string", false, ""),
		p("agent_type", "string", false, ""),
		p("agent_transcript_path", "string", true, ""),
	}, stopFields...),
	"TaskCreated":   taskFields,
	"TaskCompleted": taskFields,
	"Stop":          stopFields,
	"StopFailure": {
		p("error", `"rate_limit" | "overloaded" | "authentication_failed" | "billing_error" | "invalid_request" | "model_not_found" | "server_error" | "max_output_tokens" | "unknown" | string`, false, ""),
		p("error_details", "string", true, ""),
		p("last_assistant_message", "string", true, "The API error text."),
	},
	"TeammateIdle": {
		p("teammate_name", "string", false, ""),
		p("team_name", "string", true, "Deprecated."),
	},
	"ConfigChange": {
		p("source", `"user_settings" | "project_settings" | "local_settings" | "policy_settings" | "skills"`, false, ""),
		p("file_path", "string", true, ""),
	},
	"CwdChanged": {
		p("old_cwd", "string", false, ""),
		p("new_cwd", "string", false, ""),
	},
	"DirectoryAdded": {
		p("directory", "string", false, ""),
		p("source", `"slash_command" | "register_repo_root" | string`, false, ""),
	},
	"FileChanged": {
		p("file_path", "string", false, ""),
		p("event", `"change" | "add" | "unlink"`, false, ""),
	},
	"WorktreeCreate": {
		p("name", "string", false, ""),
	},
	"WorktreeRemove": {
		p("worktree_path", "string", false, ""),
	},
	"PreCompact": {
		p("trigger", `"manual" | "auto"`, false, ""),
		p("custom_instructions", "string | null", true, ""),
	},
	"PostCompact": {
		p("trigger", `"manual" | "auto"`, false, ""),
		p("compact_summary", "string", false, ""),
	},
	"PreModelSwitch":  modelSwitch,
	"PostModelSwitch": modelSwitch,
	"Elicitation": {
		p("mcp_server_name", "string", false, ""),
		p("message", "string", false, ""),
		p("mode", `"form" | "url"`, true, ""),
		p("url", "string", true, ""),
		p("elicitation_id", "string", true, ""),
		p("requested_schema", "unknown", true, ""),
	},
	"ElicitationResult": {
		p("mcp_server_name", "string", false, ""),
		p("action", `"accept" | "decline" | "cancel"`, false, ""),
		p("content", "unknown", true, ""),
		p("mode", `"form" | "url"`, true, ""),
		p("elicitation_id", "string", true, ""),
	},
	"SessionEnd": {
		p("reason", `"clear" | "resume" | "logout" | "prompt_input_exit" | "other"`, false, ""),
	},
}
