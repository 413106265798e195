// Package crush is crush's hook protocol (v0.90.0): PreToolUse only;
// payloads {event, session_id, cwd, tool_name, tool_input} with lower-case
// tool names; its envelope {decision, reason, context, updated_input,
// halt}; exit 2 denies with the reason on stderr, exit 49 halts the turn;
// no ask.
package crush
