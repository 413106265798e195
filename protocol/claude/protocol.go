package claude

import (
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/internal/hostkit"
)

// Name is Claude Code's --host name, and the protocol of a command hook
// that speaks Claude Code's exit codes and JSON output (the default).
const Name = "claude"

// Protocol is Claude Code's hook protocol: payloads and replies as
// claude-code-hooks.md describes them (Format, ParseOutputFor), the shape
// every other host copies.
type Protocol struct {
	protocol.Table
}

// New returns Claude Code's protocol.
func New() *Protocol {
	return &Protocol{Table: protocol.Table{
		HostName: Name, HostTitle: "Claude Code", EventField: "hook_event_name",
		Exit: 2, Ask: true, Defer: true,
		Encode:  func(_ *protocol.Event, out engine.Outcome) protocol.Reply { return Format(out) },
		Carries: Carries,
		// timeout in seconds; a command hook's default is 600 s, 30 s on
		// UserPromptSubmit, PreModelSwitch and PostModelSwitch, 10 s on
		// MessageDisplay (claude-code-hooks.md, section 4). SessionEnd
		// hooks share a 1.5 s budget raised to their largest timeout, at
		// most 60 s: install writes 60.
		Timeout: 600 * time.Second,
		Timeouts: map[string]time.Duration{"UserPromptSubmit": 30 * time.Second, "PreModelSwitch": 30 * time.Second,
			"PostModelSwitch": 30 * time.Second, "MessageDisplay": 10 * time.Second, "SessionEnd": 60 * time.Second},
		ProjectFiles: []string{".claude/settings.json", ".claude/settings.local.json"},
		UserFiles:    []string{".claude/settings.json"},
		ProjectEnv:   []string{"CLAUDE_PROJECT_DIR"},
	}}
}

// Decode returns a Claude Code payload as it is, with its event.
func (p *Protocol) Decode(raw map[string]any, event string) (*protocol.Event, error) {
	return p.DecodeAs(p, raw, event)
}

// EncodePayload is what a command or http hook receives (PayloadJSON).
func (p *Protocol) EncodePayload(event string, payload map[string]any) ([]byte, error) {
	return PayloadJSON(event, payload)
}

// ReadReply applies Claude Code's exit-status and output rules
// (Interpret).
func (p *Protocol) ReadReply(event string, _ map[string]any, code int, stdout, stderr []byte, argv0 string) (engine.Result, error) {
	return Interpret(event, code, stdout, stderr, argv0)
}

// Detect takes every payload: Claude Code's is the shape other hosts
// copy, so a payload that looks like no other host's is its.
func (p *Protocol) Detect(map[string]any, func(string) string) (protocol.Hint, bool) {
	return protocol.Hint{Rank: protocol.RankFallback, Why: "a Claude Code payload"}, true
}

// Limitations: Claude Code expresses every decision hookctl makes.
func (p *Protocol) Limitations() []string { return nil }

// ConfigPath is the project settings file.
func (p *Protocol) ConfigPath() string { return ".claude/settings.json" }

// HookCommand is hookctl claude, Claude Code's own command.
func (p *Protocol) HookCommand(prog string) string { return prog + " " + Name }

// Install registers command in the settings' hooks, one matcher group
// per event.
func (p *Protocol) Install(existing []byte, req protocol.InstallRequest) (*protocol.Installed, error) {
	return p.InstallWith(p.ConfigPath(), existing, req, p.HookCommand, func(_, command string, d time.Duration) any {
		return hostkit.GroupEntry(command, map[string]any{"timeout": p.EntryTimeout(d)})
	}, nil)
}

// ToClaudeSettings returns Claude Code's own settings as they are.
func (p *Protocol) ToClaudeSettings(data []byte) ([]byte, []string, error) { return data, nil, nil }

var _ protocol.Protocol = (*Protocol)(nil)
