package hosts

import (
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/claude"
	"github.com/hookctl/hookctl/protocol/codex"
	"github.com/hookctl/hookctl/protocol/copilot"
	"github.com/hookctl/hookctl/protocol/crush"
	"github.com/hookctl/hookctl/protocol/cursor"
	"github.com/hookctl/hookctl/protocol/gemini"
	"github.com/hookctl/hookctl/protocol/opta"
)

// New returns a registry of every protocol hookctl ships, in the order
// hookctl lists them (agent-hosts.md in the project's reference has the
// sources of each).
func New() *protocol.Registry {
	return protocol.NewRegistry(
		claude.New(),  // Claude Code; a payload that looks like no other host's is its
		crush.New(),   // crush
		codex.New(),   // Codex
		gemini.New(),  // Gemini CLI
		cursor.New(),  // Cursor
		copilot.New(), // GitHub Copilot CLI
		opta.New(),    // the OpenClaw (opta) convention of command hooks only
	)
}
