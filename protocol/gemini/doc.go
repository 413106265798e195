// Package gemini is Gemini CLI's hook protocol: its own event names
// (BeforeTool is PreToolUse), a top-level decision, a rewrite as
// hookSpecificOutput.tool_input, exit 2 blocks, timeouts in milliseconds.
package gemini
