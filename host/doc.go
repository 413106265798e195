// Package host answers the command hooks of every agent host hookctl
// serves — Claude Code, Codex, Gemini CLI, Cursor, Copilot CLI and crush —
// from one configuration.
//
// Each Host is data: where its payload names the event (crush: "event"),
// its event names as catalog events (Gemini CLI's BeforeTool is
// PreToolUse, Cursor's beforeShellExecution is PreToolUse on the shell
// tool), its payload field names (Copilot CLI's toolName, toolArgs), the
// exit status that blocks, whether it can ask, and its reply format per
// event. Tool names are made canonical by the engine (crush's bash is
// Bash), so one policy matches on every host.
//
// A decision a host cannot express is mapped by a stated policy and said
// on stderr: an ask on crush or Codex is a deny by default (AskDeny),
// because a guard that cannot ask must not allow. An event the catalog
// does not have is reported, never silently allowed.
package host
