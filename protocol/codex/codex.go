package codex

import (
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/claude"
	"github.com/hookctl/hookctl/protocol/internal/hostkit"
)

// Name is Codex's --host name.
const Name = "codex"

// Protocol is Codex's hook protocol.
type Protocol struct {
	protocol.Table
}

var _ protocol.Protocol = (*Protocol)(nil)

// New returns Codex's protocol.
func New() *Protocol {
	return &Protocol{Table: protocol.Table{
		HostName: Name, HostTitle: "Codex", EventField: "hook_event_name",
		EventMap: identity("SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse",
			"PreCompact", "PostCompact", "Stop", "StopFailure", "SubagentStart", "SubagentStop"),
		Exit:   2,
		Encode: reply,
	}}
}

// identity maps events that keep their catalog names.
func identity(events ...string) map[string]protocol.Mapping {
	m := make(map[string]protocol.Mapping, len(events))
	for _, e := range events {
		m[e] = protocol.Mapping{Event: e}
	}
	return m
}

// Decode maps a Codex payload onto the catalog.
func (p *Protocol) Decode(raw map[string]any, event string) (*protocol.Event, error) {
	return p.DecodeAs(p, raw, event)
}

// Detect: Codex adds turn_id to Claude Code's shape.
func (p *Protocol) Detect(raw map[string]any, _ func(string) string) (protocol.Hint, bool) {
	if _, ok := raw["turn_id"]; ok {
		return protocol.Hint{Rank: protocol.RankPayloadField, Why: "the payload has turn_id (Codex)"}, true
	}
	return protocol.Hint{}, false
}

// Limitations of Codex.
func (p *Protocol) Limitations() []string {
	return []string{
		"no ask on PreToolUse: an ask is mapped by --on-ask (deny by default)",
		"PreToolUse takes allow only with updatedInput: a plain allow is no opinion",
		"continue:false on PreToolUse would run the tool: it is a deny",
	}
}

// reply is Claude Code's reply with Codex's PreToolUse rules.
func reply(ev *protocol.Event, out engine.Outcome) protocol.Reply {
	if ev.Name != "PreToolUse" {
		return claude.Format(out)
	}
	hso := map[string]any{"hookEventName": "PreToolUse"}
	top := map[string]any{}
	switch {
	case !out.Continue:
		// continue:false would mark the hook failed and run the tool.
		hso["permissionDecision"] = "deny"
		hso["permissionDecisionReason"] = hostkit.ReasonOr(out.StopReason, hostkit.ReasonOr(out.Reason, "stopped by a hook"))
	case out.Decision == engine.DecisionDeny || out.Blocked:
		hso["permissionDecision"] = "deny"
		hso["permissionDecisionReason"] = hostkit.ReasonOr(out.Reason, "blocked by a hook")
	case out.UpdatedInput != nil:
		// allow is valid only with updatedInput.
		hso["permissionDecision"] = "allow"
		hso["updatedInput"] = out.UpdatedInput
		if out.Reason != "" {
			hso["permissionDecisionReason"] = out.Reason
		}
	}
	if msg := hostkit.Message(out); msg != "" {
		top["systemMessage"] = msg
	}
	if len(hso) > 1 {
		top["hookSpecificOutput"] = hso
	}
	return hostkit.Marshal(top, false)
}

// ReadReply reads a Codex script's answer by Claude Code's rules.
func (p *Protocol) ReadReply(event string, _ map[string]any, code int, stdout, stderr []byte, argv0 string) (engine.Result, error) {
	return claude.Interpret(event, code, stdout, stderr, argv0)
}

// ConfigPath is Codex's project hook file.
func (p *Protocol) ConfigPath() string { return ".codex/hooks.json" }

// Install registers command in Claude Code's shape, with notes on
// Codex's hook review and project trust (without them the hooks never
// run).
func (p *Protocol) Install(existing []byte, req protocol.InstallRequest) (*protocol.Installed, error) {
	res, err := p.InstallWith(p.ConfigPath(), existing, req, p.HookCommand, func(_, command string) any {
		return hostkit.GroupEntry(command, nil)
	}, nil)
	if err == nil {
		res.Notes = append(res.Notes, installNotes...)
	}
	return res, err
}

// ToClaudeSettings imports Codex's hooks: Claude-shaped groups, timeouts
// in seconds.
func (p *Protocol) ToClaudeSettings(data []byte) ([]byte, []string, error) {
	return p.ImportWith(data, func(e map[string]any) ([]any, bool) { return hostkit.GroupHandlers(e, Name, 1), true })
}
