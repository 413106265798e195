package engine

import (
	"maps"
	"slices"
)

// The canonical tool vocabulary: one policy for every agent host. Hosts
// name the same tools differently (crush and Copilot CLI "bash", Gemini CLI
// "run_shell_command", Codex "apply_patch" for every file edit); hookctl
// names each tool as Claude Code does. Matchers on a tool event match the
// raw tool_name or its canonical name, and the engine puts the canonical
// name in the payload's "tool" field, so that conditions, scripts and
// built-ins can say tool == "Bash" once for every host.

// ToolField is the payload field that holds the canonical tool name on
// tool events. The engine sets it from tool_name (or toolName) on the
// fires of an event whose matcher field is tool_name, when a hook may read
// it (a condition that names it, a handler that is not ToolAware); a value
// the caller put there is replaced.
const ToolField = "tool"

// ToolAware is implemented by handlers that give their code the canonical
// tool name themselves (JavaScript hooks see event.tool, command hooks get
// it in their JSON, the built-ins call CanonicalTool), so that the engine
// need not copy the payload to add ToolField for them. Handlers that do
// not implement it get ToolField in Call.Payload.
type ToolAware interface {
	ToolAware() bool
}

// toolNames maps the tool names of the hosts hookctl serves to Claude
// Code's. A name that is not listed is its own canonical name (Claude
// Code's names, MCP tools, a host's tools that have no Claude Code peer).
var toolNames = map[string]string{
	// Shell.
	"bash": "Bash", "shell": "Bash", "local_shell": "Bash", "exec_command": "Bash", "shell_command": "Bash", "container.exec": "Bash",
	"run_shell_command": "Bash", "Shell": "Bash", "run_terminal_cmd": "Bash",
	"powershell": "PowerShell",
	// Writing a whole file.
	"write": "Write", "write_file": "Write", "create": "Write", "create_file": "Write",
	// Editing a file.
	"edit": "Edit", "multiedit": "Edit", "MultiEdit": "Edit", "replace": "Edit", "apply_patch": "Edit",
	"edit_file": "Edit", "str_replace": "Edit", "patch": "Edit", "search_replace": "Edit",
	// Reading.
	"view": "Read", "read": "Read", "read_file": "Read", "read_many_files": "Read",
	// Listing and searching.
	"ls": "LS", "list": "LS", "list_directory": "LS", "list_dir": "LS",
	"glob": "Glob", "file_search": "Glob",
	"grep": "Grep", "search_file_content": "Grep", "grep_search": "Grep", "codebase_search": "Grep",
	// The web.
	"fetch": "WebFetch", "web_fetch": "WebFetch", "webfetch": "WebFetch", "download": "WebFetch",
	"google_web_search": "WebSearch", "web_search": "WebSearch", "websearch": "WebSearch",
	// Sub-agents and todos.
	"agent": "Agent", "task": "Agent", "Task": "Agent",
	"todowrite": "TodoWrite", "todo_write": "TodoWrite", "write_todos": "TodoWrite",
}

// toolAlsoMatches lists raw names that matchers naming another canonical
// tool match as well: Codex's apply_patch both writes and edits files, so
// a matcher "Write" guards it too.
var toolAlsoMatches = map[string][]string{
	"apply_patch": {"Write"},
	"patch":       {"Write"},
}

// CanonicalTool returns the canonical (Claude Code) name of a host's tool:
// "bash", "run_shell_command" and "shell" are "Bash"; "write_file" and
// "create" are "Write"; "apply_patch", "replace" and "multiedit" are
// "Edit"; "view" and "read_file" are "Read". A name it does not know is
// returned as it is.
func CanonicalTool(name string) string {
	if c, ok := toolNames[name]; ok {
		return c
	}
	return name
}

// HostToolNames returns the host tool names CanonicalTool knows, sorted.
func HostToolNames() []string {
	return slices.Sorted(maps.Keys(toolNames))
}

// KnownToolName reports whether name is a tool name of one of the hosts
// hookctl knows (raw or canonical), for validate's warnings.
func KnownToolName(name string) bool {
	if _, ok := toolNames[name]; ok {
		return true
	}
	for _, c := range toolNames {
		if c == name {
			return true
		}
	}
	return false
}

// matchTool tests a tool matcher against the raw name, its canonical name
// and the names it also answers to. Another host's name for the tool is
// not tried: as in Claude Code, a matcher "bash" does not match Claude
// Code's Bash (matchers are case-sensitive names), while it does match
// crush's bash.
func (m *Matcher) matchTool(raw string) bool {
	if m.Match(raw) {
		return true
	}
	c, ok := toolNames[raw]
	if ok && c != raw && m.Match(c) {
		return true
	}
	for _, n := range toolAlsoMatches[raw] {
		if m.Match(n) {
			return true
		}
	}
	return false
}

// withTool returns payload with ToolField set to the canonical name of its
// tool_name (or toolName). It copies the payload only when the field is
// missing or differs; a payload without a tool name is returned as it is.
func withTool(payload map[string]any) map[string]any {
	raw, ok := payload["tool_name"].(string)
	if !ok {
		if raw, ok = payload["toolName"].(string); !ok {
			return payload
		}
	}
	c := CanonicalTool(raw)
	if cur, ok := payload[ToolField].(string); ok && cur == c {
		return payload
	}
	out := make(map[string]any, len(payload)+1)
	for k, v := range payload {
		out[k] = v
	}
	out[ToolField] = c
	return out
}
