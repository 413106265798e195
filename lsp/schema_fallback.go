package lsp

import (
	"maps"
	"slices"
)

// fallbackSchema is a small built-in payload vocabulary: Claude Code's
// common fields, the root fields of the events whose payload is known and
// the inputs of the main tools.
type fallbackSchema struct{}

func defaultSchema() PayloadSchema { return fallbackSchema{} }

var commonFields = []Field{
	{Name: "session_id", Type: "string", Doc: "The session's id."},
	{Name: "transcript_path", Type: "string", Doc: "Path of the session's transcript (JSONL)."},
	{Name: "cwd", Type: "string", Doc: "The agent's working directory."},
	{Name: "hook_event_name", Type: "string", Doc: "The event's name as the host sent it."},
	{Name: "permission_mode", Type: "string", Optional: true, Doc: "The permission mode (default, plan, acceptEdits, bypassPermissions...)."},
}

var toolFields = []Field{
	{Name: "tool", Type: "string", Doc: "The canonical (Claude Code) tool name hookctl adds: Bash for bash, run_shell_command, shell..."},
	{Name: "tool_name", Type: "string", Doc: "The tool's name as the host sent it."},
	{Name: "tool_input", Type: "object", Open: true, Doc: "The tool's arguments; their fields depend on the tool."},
	{Name: "tool_use_id", Type: "string", Optional: true, Doc: "The id of the tool call."},
}

var eventFields = map[string][]Field{
	"PreToolUse":        toolFields,
	"PermissionRequest": toolFields,
	"PostToolUse": append(slices.Clone(toolFields),
		Field{Name: "tool_response", Type: "any", Doc: "What the tool returned."}),
	"UserPromptSubmit": {{Name: "prompt", Type: "string", Doc: "The prompt the user submitted."}},
	"Stop":             {{Name: "stop_hook_active", Type: "boolean", Doc: "True when a Stop hook already blocked this stop."}},
	"SessionStart":     {{Name: "source", Type: "string", TS: `"startup" | "resume" | "clear" | "compact"`, Doc: "Why the session starts."}},
	"SessionEnd":       {{Name: "reason", Type: "string", Doc: "Why the session ends."}},
}

var toolInputs = map[string][]Field{
	"Bash": {
		{Name: "command", Type: "string", Doc: "The shell command to run."},
		{Name: "description", Type: "string", Optional: true, Doc: "What the command does, in a few words."},
		{Name: "timeout", Type: "number", Optional: true, Doc: "Timeout in milliseconds."},
		{Name: "run_in_background", Type: "boolean", Optional: true, Doc: "Run the command in the background."},
	},
	"Write": {
		{Name: "file_path", Type: "string", Doc: "Absolute path of the file to write."},
		{Name: "content", Type: "string", Doc: "The file's new content."},
	},
	"Edit": {
		{Name: "file_path", Type: "string", Doc: "Absolute path of the file to edit."},
		{Name: "old_string", Type: "string", Doc: "The text to replace."},
		{Name: "new_string", Type: "string", Doc: "The replacement."},
		{Name: "replace_all", Type: "boolean", Optional: true, Doc: "Replace every occurrence."},
	},
	"Read": {
		{Name: "file_path", Type: "string", Doc: "Absolute path of the file to read."},
		{Name: "offset", Type: "number", Optional: true, Doc: "Line to start at."},
		{Name: "limit", Type: "number", Optional: true, Doc: "Number of lines to read."},
	},
}

func (fallbackSchema) Payload(event string) (Field, bool) {
	own, ok := eventFields[event]
	if !ok {
		return Field{}, false
	}
	return Field{Name: event, Type: "object", Open: true, Fields: append(slices.Clone(commonFields), own...)}, true
}

func (fallbackSchema) ToolInput(tool string) (Field, bool) {
	fs, ok := toolInputs[tool]
	if !ok {
		return Field{}, false
	}
	return Field{Name: "tool_input", Type: "object", Fields: fs}, true
}

func (fallbackSchema) Tools() []string { return slices.Sorted(maps.Keys(toolInputs)) }
