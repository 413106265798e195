package crush

import (
	"maps"
	"strings"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsonx"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/claude"
	"github.com/hookctl/hookctl/protocol/internal/hostkit"
)

// Name is crush's --host name.
const Name = "crush"

// Protocol is crush's hook protocol.
type Protocol struct {
	protocol.Table
}

var _ protocol.Protocol = (*Protocol)(nil)

// New returns crush's protocol.
func New() *Protocol {
	return &Protocol{Table: protocol.Table{
		HostName: Name, HostTitle: "crush", EventField: "event",
		EventMap: map[string]protocol.Mapping{"PreToolUse": {Event: "PreToolUse"}},
		Exit:     2,
		Encode:   reply,
		Carries:  protocol.CarriesToolInput,
		// timeout in seconds, 30 by default (crush's hooks config;
		// agent-hosts.md).
		Timeout:      30 * time.Second,
		ProjectFiles: []string{"crush.json", ".crush.json"}, UserFiles: []string{".config/crush/crush.json"},
	}}
}

// Decode maps a crush payload onto the catalog.
func (p *Protocol) Decode(raw map[string]any, event string) (*protocol.Event, error) {
	return p.DecodeAs(p, raw, event)
}

// Detect: crush names its event in "event", and sets CRUSH for its hooks.
func (p *Protocol) Detect(raw map[string]any, getenv func(string) string) (protocol.Hint, bool) {
	_, event := raw["event"]
	_, claudeShaped := raw["hook_event_name"]
	switch {
	case event && !claudeShaped:
		return protocol.Hint{Rank: protocol.RankEventField, Why: `the payload names its event in "event" (crush)`}, true
	case event && (getenv("CRUSH") != "" || getenv("AGENT") == Name):
		// Without crush's event field the payload is another host's,
		// whatever the environment says.
		return protocol.Hint{Rank: protocol.RankEnvironment, Why: "CRUSH is set in the environment"}, true
	}
	return protocol.Hint{}, false
}

// Limitations of crush.
func (p *Protocol) Limitations() []string {
	return []string{
		"no defer: a defer is an ask, and so mapped by --on-ask (deny by default)",
		"only PreToolUse: every other event has no crush event",
		"no ask: an ask is mapped by --on-ask (deny by default)",
		"no message for the user: what the user should see goes to the model as context",
	}
}

// reply is crush's envelope on PreToolUse.
func reply(ev *protocol.Event, out engine.Outcome) protocol.Reply {
	if ev.Name != "PreToolUse" {
		return protocol.Reply{}
	}
	top := map[string]any{"version": 1}
	switch {
	case !out.Continue:
		// halt ends the whole turn.
		top["decision"], top["halt"] = "deny", true
		top["reason"] = hostkit.ReasonOr(out.StopReason, hostkit.ReasonOr(out.Reason, "halted by a hook"))
	case out.Decision == engine.DecisionDeny || out.Decision == engine.DecisionAsk || out.Blocked:
		top["decision"], top["reason"] = "deny", hostkit.ReasonOr(out.Reason, "blocked by a hook")
	case out.Decision == engine.DecisionAllow:
		top["decision"] = "allow"
		if out.Reason != "" {
			top["reason"] = out.Reason
		}
	}
	if out.UpdatedInput != nil && top["decision"] != "deny" {
		top["updated_input"] = out.UpdatedInput
	}
	// crush has no user-facing message: what the user should see goes
	// to the model with the context.
	if ctx := strings.Join(hostkit.NonEmpty(out.AdditionalContext, hostkit.Message(out)), "\n\n"); ctx != "" {
		top["context"] = ctx
	}
	if len(top) == 1 {
		return protocol.Reply{}
	}
	return hostkit.Marshal(top, true)
}

// EncodePayload writes the payload as crush sends it: the event in
// "event".
func (p *Protocol) EncodePayload(event string, payload map[string]any) ([]byte, error) {
	name, pl := p.HostPayload(event, payload)
	pl["event"] = name
	delete(pl, "hook_event_name")
	return protocol.MarshalPayload(pl)
}

// ReadReply reads a crush script's answer: exit 2 denies, 49 halts the
// turn, its envelope or Claude Code's shape on stdout.
func (p *Protocol) ReadReply(event string, payload map[string]any, code int, stdout, stderr []byte, _ string) (engine.Result, error) {
	errText := strings.TrimSpace(string(stderr))
	switch code {
	case 0:
	case 2:
		return engine.Result{"decision": "deny", "reason": hostkit.OrText(errText, "blocked by hook")}, nil
	case 49:
		r := hostkit.OrText(errText, "turn halted by hook")
		return engine.Result{"decision": "deny", "reason": r, "continue": false, "stop_reason": r}, nil
	default:
		return nil, &protocol.ExitError{Code: code, Stderr: hostkit.FirstLine(errText)}
	}
	if !protocol.IsJSONOutput(stdout) {
		return nil, nil
	}
	// Numbers as in payloads: an updated input keeps its integers exact.
	raw, err := jsonx.DecodeObject(stdout)
	if err != nil {
		return nil, &protocol.OutputError{Err: err, Snippet: hostkit.FirstLine(string(stdout))}
	}
	if _, ok := raw["hookSpecificOutput"]; ok {
		// crush also reads Claude Code's shape.
		return claude.ParseOutputFor(event, stdout)
	}
	res := engine.Result{}
	str := func(k string) string { s, _ := raw[k].(string); return s }
	if d := hostkit.ReadDecision(event, str("decision")); d != "" {
		res["decision"] = d
	}
	if r := str("reason"); r != "" {
		res["reason"] = r
	}
	if c := str("context"); c != "" {
		res["additional_context"] = c
	}
	if patch, ok := raw["updated_input"].(map[string]any); ok {
		// crush shallow-merges the patch onto the tool input.
		in, _ := payload["tool_input"].(map[string]any)
		merged := maps.Clone(in)
		if merged == nil {
			merged = map[string]any{}
		}
		maps.Copy(merged, patch)
		res["updated_input"] = merged
	}
	if halt, _ := raw["halt"].(bool); halt {
		res["continue"] = false
		res["stop_reason"] = hostkit.OrText(str("reason"), "turn halted by hook")
	}
	if len(res) == 0 {
		return nil, nil
	}
	return res, nil
}

// ConfigPath is crush's project configuration.
func (p *Protocol) ConfigPath() string { return "crush.json" }

// Install registers command as crush's hook of the events.
func (p *Protocol) Install(existing []byte, req protocol.InstallRequest) (*protocol.Installed, error) {
	return p.InstallWith(p.ConfigPath(), existing, req, p.HookCommand, func(_, command string, d time.Duration) any {
		return map[string]any{"name": "hookctl", "command": command, "timeout": p.EntryTimeout(d)}
	}, nil)
}

// ToClaudeSettings imports crush.json's hooks: flat entries with a
// command.
func (p *Protocol) ToClaudeSettings(data []byte) ([]byte, []string, error) {
	return p.ImportWith(data, func(e map[string]any) ([]any, bool) { return hostkit.FlatHandler(e, Name, "command") })
}
