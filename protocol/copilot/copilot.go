package copilot

import (
	"fmt"
	"strings"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsonx"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/internal/hostkit"
)

// Name is Copilot CLI's --host name.
const Name = "copilot"

// Protocol is Copilot CLI's hook protocol.
type Protocol struct {
	protocol.Table
}

var _ protocol.Protocol = (*Protocol)(nil)

// New returns Copilot CLI's protocol.
func New() *Protocol {
	return &Protocol{Table: protocol.Table{
		Shell:    protocol.ShellPowerShell, // how it runs a command line on Windows
		HostName: Name, HostTitle: "Copilot CLI", EventField: "hook_event_name",
		EventMap: map[string]protocol.Mapping{
			"sessionStart": {Event: "SessionStart"}, "sessionEnd": {Event: "SessionEnd"},
			"userPromptSubmitted": {Event: "UserPromptSubmit"}, "preToolUse": {Event: "PreToolUse"},
			"postToolUse": {Event: "PostToolUse"}, "postToolUseFailure": {Event: "PostToolUseFailure"},
			"agentStop": {Event: "Stop"}, "subagentStart": {Event: "SubagentStart"},
			"subagentStop": {Event: "SubagentStop"}, "errorOccurred": {Event: "StopFailure"},
			"preCompact": {Event: "PreCompact"}, "permissionRequest": {Event: "PermissionRequest"},
			"notification": {Event: "Notification"},
		},
		Fields: map[string]string{
			"sessionId": "session_id", "toolName": "tool_name", "toolArgs": "tool_input",
			"toolResult": "tool_response", "hookEventName": "hook_event_name",
		},
		JSONFields: []string{"toolArgs"},
		Ask:        true,
		Encode:     reply,
		Carries: func(ev *protocol.Event, _ *engine.Outcome, field string) bool {
			return protocol.IsToolGate(ev.Name) && field == "updated_input"
		},
		// timeoutSec, 30 by default (GitHub's hooks configuration
		// reference; claude-code-hooks.md).
		Timeout:      30 * time.Second,
		ProjectFiles: []string{".github/hooks/*.json"}, UserFiles: []string{".copilot/hooks/*.json"},
	}}
}

// Decode maps a Copilot CLI payload onto the catalog.
func (p *Protocol) Decode(raw map[string]any, event string) (*protocol.Event, error) {
	return p.DecodeAs(p, raw, event)
}

// Detect: camelCase field names first; its event names only after every
// other host's (Cursor shares some).
func (p *Protocol) Detect(raw map[string]any, _ func(string) string) (protocol.Hint, bool) {
	for _, k := range []string{"toolName", "sessionId", "toolArgs"} {
		if _, ok := raw[k]; ok {
			return protocol.Hint{Rank: protocol.RankFieldNames, Why: "the payload's fields are camelCase (toolName, sessionId: Copilot CLI)"}, true
		}
	}
	return p.EventHint(raw, protocol.RankSharedEvent)
}

// Limitations of Copilot CLI.
func (p *Protocol) Limitations() []string {
	return []string{
		"no defer: a defer is an ask",
		"no exit status blocks: input that cannot be read gets a deny reply",
		"only the tool gates take a decision: a block elsewhere is reported on stderr only",
		"no context for the model on the tool gates: additional_context is said on stderr",
	}
}

// reply is Copilot CLI's: top-level permissionDecision on the tool gates.
func reply(ev *protocol.Event, out engine.Outcome) protocol.Reply {
	top := map[string]any{}
	if protocol.IsToolGate(ev.Name) {
		switch {
		case !out.Continue || out.Blocked || out.Decision == engine.DecisionDeny:
			top["permissionDecision"] = "deny"
			top["permissionDecisionReason"] = hostkit.ReasonOr(out.Reason, hostkit.ReasonOr(out.StopReason, "blocked by a hook"))
		case out.Decision == engine.DecisionAsk || out.Decision == engine.DecisionAllow:
			top["permissionDecision"] = string(out.Decision)
			if out.Reason != "" {
				top["permissionDecisionReason"] = out.Reason
			}
		}
		if out.UpdatedInput != nil && !out.Blocked {
			top["modifiedArgs"] = out.UpdatedInput
		}
	}
	r := hostkit.Marshal(top, false)
	if out.Blocked && len(top) == 0 {
		r.Stderr = "hookctl: Copilot CLI cannot block " + ev.HostEvent + "; the hooks' block is reported only: " + hostkit.ReasonOr(out.Reason, "blocked by a hook")
	}
	if msg := hostkit.Message(out); msg != "" {
		// Copilot CLI has no message for the user in a reply: what the
		// user should see (a warning, the hooks that failed) is said on
		// stderr, never dropped.
		r.Stderr = strings.TrimSpace(r.Stderr + "\n" + msg)
	}
	if out.AdditionalContext != "" && protocol.IsToolGate(ev.Name) {
		r = hostkit.WithStderr(r, hostkit.DroppedContext("Copilot CLI", ev.HostEvent, out.AdditionalContext))
	}
	return r
}

// EncodePayload writes the payload as Copilot CLI sends it: camelCase
// fields, toolArgs a JSON string.
func (p *Protocol) EncodePayload(event string, payload map[string]any) ([]byte, error) {
	name, pl := p.HostPayload(event, payload)
	for from, to := range p.Fields {
		if v, ok := pl[to]; ok && to != "hook_event_name" {
			pl[from] = v
			delete(pl, to)
		}
	}
	if args, ok := pl["toolArgs"]; ok {
		b, err := jsonx.Marshal(args)
		if err != nil {
			return nil, fmt.Errorf("payload: %w", err)
		}
		pl["toolArgs"] = string(b)
	}
	pl["hook_event_name"] = name
	return protocol.MarshalPayload(pl)
}

// ReadReply reads a Copilot CLI script's answer: any non-zero status is a
// failure; permissionDecision and modifiedArgs on stdout.
func (p *Protocol) ReadReply(event string, _ map[string]any, code int, stdout, stderr []byte, _ string) (engine.Result, error) {
	if code != 0 {
		return nil, &protocol.ExitError{Code: code, Stderr: hostkit.FirstLine(strings.TrimSpace(string(stderr)))}
	}
	raw, err := hostkit.DecodeReply(stdout)
	if raw == nil {
		return nil, err
	}
	res := engine.Result{}
	str := func(k string) string { s, _ := raw[k].(string); return s }
	if d := hostkit.ReadDecision(event, str("permissionDecision")); d != "" {
		res["decision"] = d
	}
	if r := str("permissionDecisionReason"); r != "" {
		res["reason"] = r
	}
	if in, ok := raw["modifiedArgs"].(map[string]any); ok {
		res["updated_input"] = in
	}
	return hostkit.Result(res), nil
}

// ConfigPath is the file Copilot CLI reads hooks from in the project.
func (p *Protocol) ConfigPath() string { return ".github/hooks/hookctl.json" }

// Install registers command as Copilot CLI's hook of the events (the
// event given on the command line: its payload may not name it): the
// "bash" command quoted for POSIX shells, and the "powershell" one that
// Copilot CLI runs on Windows quoted for PowerShell; both end with
// --host-timeout, the entry's timeoutSec.
func (p *Protocol) Install(existing []byte, req protocol.InstallRequest) (*protocol.Installed, error) {
	ps, err := p.powershellCommand(req)
	if err != nil {
		return nil, err
	}
	return p.InstallWith(p.ConfigPath(), existing, req, p.HookCommand, func(event, command string, d time.Duration) any {
		e := map[string]any{"type": "command", "bash": command + " --event " + event, "timeoutSec": p.EntryTimeout(d)}
		if ps != "" {
			e["powershell"] = ps + " --host-timeout " + protocol.FormatTimeout(d) + " --event " + event
		}
		return e
	}, map[string]any{"version": 1})
}

// ToClaudeSettings imports Copilot CLI's hooks: flat entries whose
// command is "bash".
func (p *Protocol) ToClaudeSettings(data []byte) ([]byte, []string, error) {
	return p.ImportWith(data, func(e map[string]any) ([]any, bool) { return hostkit.FlatHandler(e, Name, "bash") })
}
