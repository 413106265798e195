// Package claude is Claude Code's hook protocol, the de facto standard of
// agent hooks (Cursor, Codex, Copilot, Gemini CLI and Kiro copy it): the
// reply of every event (Format, from the Dialect table in dialect.go),
// the reading of a command or http hook's answer in every JSON dialect
// real hooks write (ParseOutput, ParseOutputFor, Interpret: exit 0, 2 or
// other with Claude Code's meaning), the payload such a hook reads
// (PayloadJSON), and the import of a settings file's hooks into hooks.hcl
// (Import). Protocol is all of it behind protocol.Protocol; other hosts
// whose payloads are Claude-shaped (Codex, crush) reuse its pieces.
package claude
