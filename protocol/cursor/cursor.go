package cursor

import (
	"strings"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsonx"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/internal/hostkit"
)

// Name is Cursor's --host name.
const Name = "cursor"

// Protocol is Cursor's hook protocol.
type Protocol struct {
	protocol.Table
}

var _ protocol.Protocol = (*Protocol)(nil)

// New returns Cursor's protocol.
func New() *Protocol {
	return &Protocol{Table: protocol.Table{
		Shell:    protocol.ShellPowerShell, // how it runs a command line on Windows
		HostName: Name, HostTitle: "Cursor", EventField: "hook_event_name",
		EventMap: map[string]protocol.Mapping{
			"preToolUse":           {Event: "PreToolUse"},
			"beforeShellExecution": {Event: "PreToolUse", Narrow: true, Tool: "Shell", Input: []string{"command", "cwd"}},
			"beforeMCPExecution":   {Event: "PreToolUse", Narrow: true},
			"beforeReadFile":       {Event: "PreToolUse", Narrow: true, Tool: "Read", Input: []string{"file_path", "content"}},
			"postToolUse":          {Event: "PostToolUse"},
			"postToolUseFailure":   {Event: "PostToolUseFailure"},
			"afterShellExecution":  {Event: "PostToolUse", Narrow: true, Tool: "Shell", Input: []string{"command", "output:tool_response"}},
			"afterMCPExecution":    {Event: "PostToolUse", Narrow: true},
			"afterFileEdit":        {Event: "PostToolUse", Narrow: true, Tool: "Edit", Input: []string{"file_path", "edits"}},
			"beforeSubmitPrompt":   {Event: "UserPromptSubmit"},
			"stop":                 {Event: "Stop"},
			"sessionStart":         {Event: "SessionStart"},
			"sessionEnd":           {Event: "SessionEnd"},
			"subagentStart":        {Event: "SubagentStart"},
			"subagentStop":         {Event: "SubagentStop"},
			"preCompact":           {Event: "PreCompact"},
			"afterAgentResponse":   {Event: "afterAgentResponse"},
			"afterAgentThought":    {Event: "afterAgentThought"},
		},
		Fields: map[string]string{"conversation_id": "session_id"},
		Exit:   2, Ask: true,
		Encode: reply,
		// On every tool gate: Cursor's reply denies a rewritten call on
		// the gates that cannot take updated_input, saying what to run.
		Carries: protocol.CarriesToolInput,
		// timeout in seconds; Cursor's documentation calls the default
		// "the platform default" without a number: 30 s is assumed, and
		// install always writes the timeout.
		Timeout:      30 * time.Second,
		ProjectFiles: []string{".cursor/hooks.json"}, UserFiles: []string{".cursor/hooks.json"},
	}}
}

// Decode maps a Cursor payload onto the catalog.
func (p *Protocol) Decode(raw map[string]any, event string) (*protocol.Event, error) {
	return p.DecodeAs(p, raw, event)
}

// Detect: Cursor's own fields, then its event names.
func (p *Protocol) Detect(raw map[string]any, _ func(string) string) (protocol.Hint, bool) {
	for _, k := range []string{"conversation_id", "workspace_roots", "generation_id"} {
		if _, ok := raw[k]; ok {
			return protocol.Hint{Rank: protocol.RankOwnFields, Why: "the payload has conversation_id/workspace_roots (Cursor)"}, true
		}
	}
	return p.EventHint(raw, protocol.RankEventName)
}

// Limitations of Cursor.
func (p *Protocol) Limitations() []string {
	return []string{
		"no defer: a defer is an ask",
		"beforeReadFile cannot ask: an ask there is a deny",
		"only preToolUse takes a rewritten input: elsewhere a rewrite is a deny that tells the agent what to run instead",
		"afterAgentResponse and afterAgentThought have no catalog event: reported",
		"no context for the model on the tool gates (preToolUse, beforeShellExecution, ...): additional_context is said on stderr",
	}
}

// reply is Cursor's flat reply; the gates always answer.
func reply(ev *protocol.Event, out engine.Outcome) protocol.Reply {
	top := map[string]any{}
	msg := hostkit.Message(out)
	switch ev.Name {
	case "PreToolUse":
		perm := "allow"
		switch {
		case !out.Continue || out.Blocked || out.Decision == engine.DecisionDeny:
			perm = "deny"
		case out.Decision == engine.DecisionAsk && ev.HostEvent != "beforeReadFile":
			perm = "ask"
		case out.Decision == engine.DecisionAsk:
			perm = "deny" // beforeReadFile cannot ask
		}
		if _, changed := protocol.Rewritten(ev, &out); perm != "deny" && changed && ev.HostEvent != "preToolUse" {
			// Only preToolUse takes updated_input: elsewhere a rewrite
			// cannot be applied, and running the call unrewritten would
			// ignore the hook. The agent is told what to run instead.
			perm = "deny"
			b, _ := jsonx.Marshal(out.UpdatedInput)
			out.Reason = "hookctl rewrote this call, which Cursor cannot apply on " + ev.HostEvent + "; run it as " + string(b) + " instead"
		}
		top["permission"] = perm
		if perm != "allow" {
			r := hostkit.ReasonOr(out.Reason, hostkit.ReasonOr(out.StopReason, "blocked by a hook"))
			top["user_message"], top["agent_message"] = r, r
		}
		if perm != "deny" && out.UpdatedInput != nil && ev.HostEvent == "preToolUse" {
			// With an ask too: the user is asked about the call the
			// hooks judged, the rewrite.
			top["updated_input"] = out.UpdatedInput
		}
		if msg != "" && perm == "allow" {
			top["user_message"] = msg
		}
		r := hostkit.Marshal(top, true)
		if out.AdditionalContext != "" {
			r = hostkit.WithStderr(r, hostkit.DroppedContext("Cursor", ev.HostEvent, out.AdditionalContext))
		}
		return r
	case "UserPromptSubmit":
		top["continue"] = out.Continue && !out.Blocked
		if out.Blocked {
			top["user_message"] = hostkit.ReasonOr(out.Reason, "blocked by a hook")
		} else if msg != "" {
			top["user_message"] = msg
		}
		return hostkit.Marshal(top, true)
	case "Stop", "SubagentStop":
		if out.Blocked {
			// A follow-up message makes the agent go on.
			top["followup_message"] = hostkit.ReasonOr(out.Reason, "continue")
		}
	}
	if out.AdditionalContext != "" {
		top["additional_context"] = out.AdditionalContext
	}
	if msg != "" {
		top["user_message"] = msg
	}
	return hostkit.Marshal(top, true)
}

// ReadReply reads a Cursor script's answer: exit 2 denies, another
// non-zero status is a failure, the flat reply on stdout.
func (p *Protocol) ReadReply(event string, _ map[string]any, code int, stdout, stderr []byte, _ string) (engine.Result, error) {
	errText := strings.TrimSpace(string(stderr))
	if code == 2 {
		return engine.Result{"decision": "deny", "reason": hostkit.OrText(errText, "blocked by hook")}, nil
	}
	if code != 0 {
		return nil, &protocol.ExitError{Code: code, Stderr: hostkit.FirstLine(errText)}
	}
	raw, err := hostkit.DecodeReply(stdout)
	if raw == nil {
		return nil, err
	}
	res := engine.Result{}
	str := func(k string) string { s, _ := raw[k].(string); return s }
	switch str("permission") {
	case "allow", "deny", "ask":
		res["decision"] = hostkit.ReadDecision(event, str("permission"))
	}
	if r := hostkit.OrText(str("agent_message"), str("user_message")); r != "" && res["decision"] != nil {
		res["reason"] = r
	}
	if in, ok := raw["updated_input"].(map[string]any); ok {
		res["updated_input"] = in
	}
	if c, ok := raw["continue"].(bool); ok && !c && event == "UserPromptSubmit" {
		res["decision"], res["reason"] = "block", hostkit.OrText(str("user_message"), "blocked by hook")
	}
	if f := str("followup_message"); f != "" && (event == "Stop" || event == "SubagentStop") {
		res["decision"], res["reason"] = "block", f
	}
	if c := str("additional_context"); c != "" {
		res["additional_context"] = c
	}
	return hostkit.Result(res), nil
}

// ConfigPath is Cursor's project hook file.
func (p *Protocol) ConfigPath() string { return ".cursor/hooks.json" }

// Install registers command as Cursor's hook of the events.
func (p *Protocol) Install(existing []byte, req protocol.InstallRequest) (*protocol.Installed, error) {
	return p.InstallWith(p.ConfigPath(), existing, req, p.HookCommand, func(_, command string, d time.Duration) any {
		return map[string]any{"command": command, "timeout": p.EntryTimeout(d)}
	}, map[string]any{"version": 1})
}

// ToClaudeSettings imports Cursor's hooks: flat entries with a command.
func (p *Protocol) ToClaudeSettings(data []byte) ([]byte, []string, error) {
	return p.ImportWith(data, func(e map[string]any) ([]any, bool) { return hostkit.FlatHandler(e, Name, "command") })
}
