package gemini

import (
	"fmt"
	"strings"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/internal/hostkit"
)

// Name is Gemini CLI's --host name.
const Name = "gemini"

// Protocol is Gemini CLI's hook protocol.
type Protocol struct {
	protocol.Table
}

var _ protocol.Protocol = (*Protocol)(nil)

// New returns Gemini CLI's protocol.
func New() *Protocol {
	return &Protocol{Table: protocol.Table{
		HostName: Name, HostTitle: "Gemini CLI", EventField: "hook_event_name",
		EventMap: map[string]protocol.Mapping{
			"BeforeTool": {Event: "PreToolUse"}, "AfterTool": {Event: "PostToolUse"},
			"BeforeAgent": {Event: "UserPromptSubmit"}, "AfterAgent": {Event: "Stop"},
			"PreCompress": {Event: "PreCompact"}, "SessionStart": {Event: "SessionStart"},
			"SessionEnd": {Event: "SessionEnd"}, "Notification": {Event: "Notification"},
			// No catalog event: reported, never a silent allow.
			"BeforeModel": {Event: "BeforeModel"}, "AfterModel": {Event: "AfterModel"},
			"BeforeToolSelection": {Event: "BeforeToolSelection"},
		},
		Exit: 2, Ask: true,
		Encode: reply,
	}}
}

// Decode maps a Gemini CLI payload onto the catalog.
func (p *Protocol) Decode(raw map[string]any, event string) (*protocol.Event, error) {
	return p.DecodeAs(p, raw, event)
}

// Detect: Gemini CLI's event names, and the variables it sets for its
// hooks.
func (p *Protocol) Detect(raw map[string]any, getenv func(string) string) (protocol.Hint, bool) {
	if name, _ := raw["hook_event_name"].(string); name != "" {
		if _, ok := p.EventMap[name]; ok {
			return protocol.Hint{Rank: protocol.RankEventNameLater, Why: fmt.Sprintf("%q is a Gemini CLI event", name)}, true
		}
	}
	if getenv("GEMINI_PROJECT_DIR") != "" || getenv("GEMINI_SESSION_ID") != "" {
		return protocol.Hint{Rank: protocol.RankProjectEnv, Why: "GEMINI_PROJECT_DIR is set in the environment"}, true
	}
	return protocol.Hint{}, false
}

// Limitations of Gemini CLI.
func (p *Protocol) Limitations() []string {
	return []string{
		"BeforeModel, AfterModel and BeforeToolSelection have no catalog event: reported, answered with an empty reply",
		"a rewrite is applied on BeforeTool only",
	}
}

// reply is Gemini CLI's reply: a top-level decision.
func reply(ev *protocol.Event, out engine.Outcome) protocol.Reply {
	top := map[string]any{}
	hso := map[string]any{}
	switch out.Decision {
	case engine.DecisionDeny, engine.DecisionAsk, engine.DecisionAllow:
		top["decision"] = string(out.Decision)
	case "block":
		top["decision"] = "block"
	}
	if _, ok := top["decision"]; ok && out.Reason != "" || out.Blocked {
		top["reason"] = hostkit.ReasonOr(out.Reason, "blocked by a hook")
	}
	if out.UpdatedInput != nil && ev.Name == "PreToolUse" && !out.Blocked {
		hso["tool_input"] = out.UpdatedInput
	}
	if out.AdditionalContext != "" {
		hso["additionalContext"] = out.AdditionalContext
	}
	if !out.Continue {
		top["continue"] = false
		if out.StopReason != "" {
			top["stopReason"] = out.StopReason
		}
	}
	if msg := hostkit.Message(out); msg != "" {
		top["systemMessage"] = msg
	}
	if len(hso) > 0 {
		hso["hookEventName"] = ev.HostEvent
		top["hookSpecificOutput"] = hso
	}
	return hostkit.Marshal(top, false)
}

// ReadReply reads a Gemini CLI script's answer: exit 2 (or any status
// but 1 without JSON) blocks with stderr as the reason, JSON may come on
// stderr, exit 1 is a failure.
func (p *Protocol) ReadReply(event string, _ map[string]any, code int, stdout, stderr []byte, _ string) (engine.Result, error) {
	errText := strings.TrimSpace(string(stderr))
	if code != 0 && !protocol.IsJSONOutput(stdout) {
		switch {
		case protocol.IsJSONOutput(stderr):
			stdout = stderr
		case code == 1:
			return nil, &protocol.ExitError{Code: code, Stderr: hostkit.FirstLine(errText)}
		default:
			return engine.Result{"decision": "block", "reason": hostkit.OrText(errText, fmt.Sprintf("blocked by hook (exit status %d)", code))}, nil
		}
	}
	raw, err := hostkit.DecodeReply(stdout)
	if raw == nil {
		return nil, err
	}
	res := engine.Result{}
	str := func(k string) string { s, _ := raw[k].(string); return s }
	if d := hostkit.ReadDecision(event, str("decision")); d != "" {
		res["decision"] = d
	}
	if r := str("reason"); r != "" {
		res["reason"] = r
	}
	if hso, ok := raw["hookSpecificOutput"].(map[string]any); ok {
		if in, ok := hso["tool_input"].(map[string]any); ok {
			res["updated_input"] = in
		}
		if c, _ := hso["additionalContext"].(string); c != "" {
			res["additional_context"] = c
		}
	}
	hostkit.ReadUniversal(raw, res)
	return hostkit.Result(res), nil
}

// ConfigPath is Gemini CLI's project settings.
func (p *Protocol) ConfigPath() string { return ".gemini/settings.json" }

// Install registers command in Gemini CLI's shape (timeouts in
// milliseconds).
func (p *Protocol) Install(existing []byte, req protocol.InstallRequest) (*protocol.Installed, error) {
	return p.InstallWith(p.ConfigPath(), existing, req, p.HookCommand, func(_, command string) any {
		return hostkit.GroupEntry(command, map[string]any{"name": "hookctl", "timeout": 60000})
	}, nil)
}

// ToClaudeSettings imports Gemini CLI's hooks: Claude-shaped groups,
// timeouts in milliseconds.
func (p *Protocol) ToClaudeSettings(data []byte) ([]byte, []string, error) {
	return p.ImportWith(data, func(e map[string]any) ([]any, bool) { return hostkit.GroupHandlers(e, Name, 1000), true })
}
