package dtsgen

// field is a payload field of an event, in TypeScript.
type field struct {
	name     string
	ts       string // its type
	optional bool
	doc      string
}

// Payload fields are not in the catalog (it knows each event's matcher
// field, its decisions and its result fields): these come from the
// payloads Claude Code sends (a command hook's stdin, recorded from the
// real CLI) and its documented inputs. The fields every event carries
// are HookEventBase's, in the hand-written part of hookctl.d.ts.
var (
	toolCall = []field{
		{"tool_name", "string", false, "Bash, Edit, Write, Read, Glob, Grep, Agent, WebFetch, mcp__server__tool, ..."},
		{"tool_input", "ToolInput", false, ""},
	}
	stopFields = []field{
		{"stop_hook_active", "boolean", false, "True while the agent continues because a Stop hook blocked."},
		{"loop_count", "number", false, "Consecutive Stop blocks so far (hookctl's loop guard)."},
		{"last_assistant_message", "string", true, ""},
		{"background_tasks", "unknown[]", true, ""},
		{"session_crons", "unknown[]", true, ""},
	}
	taskFields = []field{
		{"task_id", "string", false, ""},
		{"task_subject", "string", false, ""},
		{"task_description", "string", true, ""},
		{"teammate_name", "string", true, ""},
		{"team_name", "string", true, "Deprecated."},
	}
	modelSwitch = []field{
		{"from_model", "string", false, ""},
		{"to_model", "string", false, ""},
		{"requested_model", "string", true, ""},
		{"source", `"command" | "picker" | "sdk" | "auto" | "resume" | string`, false, ""},
		{"context_tokens", "number", true, ""},
		{"prompt_cache_warm", "boolean", true, ""},
		{"cache_ttl", `"5m" | "1h" | string`, true, ""},
		{"estimated_cache_write_usd", "number", true, ""},
		{"pricing", "unknown", true, ""},
	}
)

var payloadFields = map[string][]field{
	"SessionStart": {
		{"source", `"startup" | "resume" | "clear" | "compact" | "fork"`, false, ""},
		{"model", "string", true, ""},
		{"session_title", "string", true, ""},
		{"seconds_since_last_response", "number", true, "On resume and fork."},
		{"context_tokens", "number", true, "On resume and fork."},
		{"prompt_cache_likely_expired", "boolean", true, "On resume and fork."},
		{"estimated_cache_write_usd", "number", true, "On resume and fork."},
	},
	"Setup": {
		{"trigger", `"init" | "maintenance"`, false, ""},
	},
	"InstructionsLoaded": {
		{"file_path", "string", false, ""},
		{"memory_type", `"User" | "Project" | "Local" | "Managed" | string`, false, ""},
		{"load_reason", `"session_start" | "nested_traversal" | "path_glob_match" | "include" | "compact" | string`, false, ""},
		{"globs", "string[]", true, ""},
		{"trigger_file_path", "string", true, ""},
		{"parent_file_path", "string", true, ""},
	},
	"UserPromptSubmit": {
		{"prompt", "string", false, ""},
		{"session_title", "string", true, ""},
	},
	"UserPromptExpansion": {
		{"expansion_type", `"slash_command" | "mcp_prompt"`, false, ""},
		{"command_name", "string", false, ""},
		{"command_args", "string", false, ""},
		{"command_source", "string", false, ""},
		{"prompt", "string", false, ""},
	},
	"MessageDisplay": {
		{"turn_id", "string", false, ""},
		{"message_id", "string", false, ""},
		{"index", "number", false, ""},
		{"final", "boolean", false, ""},
		{"delta", "string", false, "The text about to be shown."},
	},
	"PreToolUse": append(toolCall[:2:2],
		field{"tool_use_id", "string", false, ""},
		field{"mcp_server", "{ name: string; source?: string }", true, "For MCP tools."}),
	"PermissionRequest": append(toolCall[:2:2],
		field{"permission_suggestions", "unknown[]", true, ""}),
	"PermissionDenied": append(toolCall[:2:2],
		field{"tool_use_id", "string", false, ""},
		field{"reason", "string", false, ""}),
	"PostToolUse": append(toolCall[:2:2],
		field{"tool_response", "unknown", false, ""},
		field{"tool_use_id", "string", false, ""},
		field{"duration_ms", "number", true, ""}),
	"PostToolUseFailure": append(toolCall[:2:2],
		field{"tool_use_id", "string", false, ""},
		field{"error", "string", false, `The first line is "Exit code N" for shells.`},
		field{"is_interrupt", "boolean", true, ""},
		field{"duration_ms", "number", true, ""}),
	"PostToolBatch": {
		{"tool_calls", "Array<{ tool_name: string; tool_input: ToolInput; tool_use_id: string; tool_response: unknown }>", false, ""},
	},
	"Notification": {
		{"message", "string", false, ""},
		{"title", "string", true, ""},
		{"notification_type", `"permission_prompt" | "idle_prompt" | "auth_success" | "elicitation_dialog" | "agent_needs_input" | "agent_completed" | string`, false, ""},
	},
	"SubagentStart": {
		{"agent_id", "string", false, ""},
		{"agent_type", "string", false, ""},
	},
	"SubagentStop": append([]field{
		{"agent_id", "string", false, ""},
		{"agent_type", "string", false, ""},
		{"agent_transcript_path", "string", true, ""},
	}, stopFields...),
	"TaskCreated":   taskFields,
	"TaskCompleted": taskFields,
	"Stop":          stopFields,
	"StopFailure": {
		{"error", `"rate_limit" | "overloaded" | "authentication_failed" | "billing_error" | "invalid_request" | "model_not_found" | "server_error" | "max_output_tokens" | "unknown" | string`, false, ""},
		{"error_details", "string", true, ""},
		{"last_assistant_message", "string", true, "The API error text."},
	},
	"TeammateIdle": {
		{"teammate_name", "string", false, ""},
		{"team_name", "string", true, "Deprecated."},
	},
	"ConfigChange": {
		{"source", `"user_settings" | "project_settings" | "local_settings" | "policy_settings" | "skills"`, false, ""},
		{"file_path", "string", true, ""},
	},
	"CwdChanged": {
		{"old_cwd", "string", false, ""},
		{"new_cwd", "string", false, ""},
	},
	"DirectoryAdded": {
		{"directory", "string", false, ""},
		{"source", `"slash_command" | "register_repo_root" | string`, false, ""},
	},
	"FileChanged": {
		{"file_path", "string", false, ""},
		{"event", `"change" | "add" | "unlink"`, false, ""},
	},
	"WorktreeCreate": {
		{"name", "string", false, ""},
	},
	"WorktreeRemove": {
		{"worktree_path", "string", false, ""},
	},
	"PreCompact": {
		{"trigger", `"manual" | "auto"`, false, ""},
		{"custom_instructions", "string | null", true, ""},
	},
	"PostCompact": {
		{"trigger", `"manual" | "auto"`, false, ""},
		{"compact_summary", "string", false, ""},
	},
	"PreModelSwitch":  modelSwitch,
	"PostModelSwitch": modelSwitch,
	"Elicitation": {
		{"mcp_server_name", "string", false, ""},
		{"message", "string", false, ""},
		{"mode", `"form" | "url"`, true, ""},
		{"url", "string", true, ""},
		{"elicitation_id", "string", true, ""},
		{"requested_schema", "unknown", true, ""},
	},
	"ElicitationResult": {
		{"mcp_server_name", "string", false, ""},
		{"action", `"accept" | "decline" | "cancel"`, false, ""},
		{"content", "unknown", true, ""},
		{"mode", `"form" | "url"`, true, ""},
		{"elicitation_id", "string", true, ""},
	},
	"SessionEnd": {
		{"reason", `"clear" | "resume" | "logout" | "prompt_input_exit" | "other"`, false, ""},
	},
}

// resultTypes gives result fields a type where the merge rule alone says
// too little.
var resultTypes = map[string]string{
	"watch_paths":          "string[]",
	"initial_user_message": "string",
	"session_title":        "string",
	"prompt":               "string",
	"display_content":      "string",
	"additional_context":   "string",
	"classifier_context":   "string",
	"block_reason":         "string",
	"params":               "Record<string, unknown>",
	"worktree_path":        "string",
	"content":              "unknown",
	"model_override":       "string",
	"provider_override":    "string",
	"system_prompt":        "string",
	"reply":                "string",
	"text":                 "string",
	"cancel_reason":        "string",
	"reason":               "string",
	"env":                  "Record<string, string>",
	"allowed_names":        "string[]",
	"tools_allow":          "string[]",
	"bootstrap_files":      "unknown[]",
	"findings":             "unknown[]",
	"updated_permissions":  "unknown[]",
	"metadata":             "Record<string, unknown>",
	"category":             "string",
}
