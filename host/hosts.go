package host

import (
	"encoding/json"
	"strings"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol"
	claudeproto "github.com/hookctl/hookctl/protocol/claude"
)

// hosts is the table of hosts (agent-hosts.md in the project's reference
// has the sources of each line).
var hosts = []*Host{
	{
		Name: "claude", Title: "Claude Code", EventField: "hook_event_name",
		BlockExit: 2, Ask: true,
		encode: func(_ *Host, _ *Event, out engine.Outcome) protocol.Reply { return claudeproto.Format(out) },
	},
	{
		// crush v0.90.0: PreToolUse only; {event, session_id, cwd,
		// tool_name, tool_input}; lower-case tool names; its envelope
		// {decision, reason, context, updated_input, halt}; exit 2 denies
		// with the reason on stderr; no ask.
		Name: "crush", Title: "crush", EventField: "event",
		Events:    map[string]Mapping{"PreToolUse": {Event: "PreToolUse"}},
		BlockExit: 2,
		encode:    crushReply,
	},
	{
		// Codex: Claude-shaped payloads and replies, but PreToolUse
		// rejects allow without updatedInput, any ask and continue:false
		// (the hook is marked failed and the tool runs).
		Name: "codex", Title: "Codex", EventField: "hook_event_name",
		Events: identity("SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse",
			"PreCompact", "PostCompact", "Stop", "StopFailure", "SubagentStart", "SubagentStop"),
		BlockExit: 2,
		encode:    codexReply,
	},
	{
		// Gemini CLI: its own event names; top-level decision; a rewrite
		// is hookSpecificOutput.tool_input; exit 2 blocks.
		Name: "gemini", Title: "Gemini CLI", EventField: "hook_event_name",
		Events: map[string]Mapping{
			"BeforeTool": {Event: "PreToolUse"}, "AfterTool": {Event: "PostToolUse"},
			"BeforeAgent": {Event: "UserPromptSubmit"}, "AfterAgent": {Event: "Stop"},
			"PreCompress": {Event: "PreCompact"}, "SessionStart": {Event: "SessionStart"},
			"SessionEnd": {Event: "SessionEnd"}, "Notification": {Event: "Notification"},
			// No catalog event: reported, never a silent allow.
			"BeforeModel": {Event: "BeforeModel"}, "AfterModel": {Event: "AfterModel"},
			"BeforeToolSelection": {Event: "BeforeToolSelection"},
		},
		BlockExit: 2, Ask: true,
		encode: geminiReply,
	},
	{
		// Cursor: camelCase events, shell and file reads as their own
		// events; a flat permission reply that must always be printed on
		// the gates (empty output blocks there).
		Name: "cursor", Title: "Cursor", EventField: "hook_event_name",
		Events: map[string]Mapping{
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
		Fields:    map[string]string{"conversation_id": "session_id"},
		BlockExit: 2, Ask: true,
		encode: cursorReply,
	},
	{
		// GitHub Copilot CLI: camelCase events get camelCase fields
		// (toolArgs a JSON string); top-level permissionDecision and
		// modifiedArgs; no exit status blocks.
		Name: "copilot", Title: "Copilot CLI", EventField: "hook_event_name",
		Events: map[string]Mapping{
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
		encode:     copilotReply,
	},
}

// identity maps events that keep their catalog names.
func identity(events ...string) map[string]Mapping {
	m := make(map[string]Mapping, len(events))
	for _, e := range events {
		m[e] = Mapping{Event: e}
	}
	return m
}

// marshal is a reply's stdout: the object as one JSON line (nothing for
// an empty object unless always).
func marshal(top map[string]any, always bool) protocol.Reply {
	if len(top) == 0 && !always {
		return protocol.Reply{}
	}
	b, _ := json.Marshal(top)
	return protocol.Reply{Stdout: append(b, '\n')}
}

// message is what the user should see besides the decision: the system
// message and the hooks that failed.
func message(out engine.Outcome) string {
	return strings.TrimSpace(strings.Join(nonEmpty(out.SystemMessage, protocol.HookFailures(out)), "\n\n"))
}

func nonEmpty(s ...string) []string {
	var out []string
	for _, v := range s {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

func reasonOr(r, def string) string {
	if strings.TrimSpace(r) == "" {
		return def
	}
	return r
}

// crushReply is crush's envelope on PreToolUse.
func crushReply(_ *Host, ev *Event, out engine.Outcome) protocol.Reply {
	if ev.Name != "PreToolUse" {
		return protocol.Reply{}
	}
	top := map[string]any{"version": 1}
	switch {
	case !out.Continue:
		// halt ends the whole turn.
		top["decision"], top["halt"] = "deny", true
		top["reason"] = reasonOr(out.StopReason, reasonOr(out.Reason, "halted by a hook"))
	case out.Decision == engine.DecisionDeny || out.Decision == engine.DecisionAsk || out.Blocked:
		top["decision"], top["reason"] = "deny", reasonOr(out.Reason, "blocked by a hook")
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
	if ctx := strings.Join(nonEmpty(out.AdditionalContext, message(out)), "\n\n"); ctx != "" {
		top["context"] = ctx
	}
	if len(top) == 1 {
		return protocol.Reply{}
	}
	return marshal(top, true)
}

// codexReply is Claude Code's reply with Codex's PreToolUse rules.
func codexReply(_ *Host, ev *Event, out engine.Outcome) protocol.Reply {
	if ev.Name != "PreToolUse" {
		return claudeproto.Format(out)
	}
	hso := map[string]any{"hookEventName": "PreToolUse"}
	top := map[string]any{}
	switch {
	case !out.Continue:
		// continue:false would mark the hook failed and run the tool.
		hso["permissionDecision"] = "deny"
		hso["permissionDecisionReason"] = reasonOr(out.StopReason, reasonOr(out.Reason, "stopped by a hook"))
	case out.Decision == engine.DecisionDeny || out.Blocked:
		hso["permissionDecision"] = "deny"
		hso["permissionDecisionReason"] = reasonOr(out.Reason, "blocked by a hook")
	case out.UpdatedInput != nil:
		// allow is valid only with updatedInput.
		hso["permissionDecision"] = "allow"
		hso["updatedInput"] = out.UpdatedInput
		if out.Reason != "" {
			hso["permissionDecisionReason"] = out.Reason
		}
	}
	if msg := message(out); msg != "" {
		top["systemMessage"] = msg
	}
	if len(hso) > 1 {
		top["hookSpecificOutput"] = hso
	}
	return marshal(top, false)
}

// geminiReply is Gemini CLI's reply: a top-level decision.
func geminiReply(_ *Host, ev *Event, out engine.Outcome) protocol.Reply {
	top := map[string]any{}
	hso := map[string]any{}
	switch out.Decision {
	case engine.DecisionDeny, engine.DecisionAsk, engine.DecisionAllow:
		top["decision"] = string(out.Decision)
	case "block":
		top["decision"] = "block"
	}
	if _, ok := top["decision"]; ok && out.Reason != "" || out.Blocked {
		top["reason"] = reasonOr(out.Reason, "blocked by a hook")
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
	if msg := message(out); msg != "" {
		top["systemMessage"] = msg
	}
	if len(hso) > 0 {
		hso["hookEventName"] = ev.HostEvent
		top["hookSpecificOutput"] = hso
	}
	return marshal(top, false)
}

// cursorReply is Cursor's flat reply; the gates always answer.
func cursorReply(_ *Host, ev *Event, out engine.Outcome) protocol.Reply {
	top := map[string]any{}
	msg := message(out)
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
		if perm == "allow" && out.UpdatedInput != nil && ev.HostEvent != "preToolUse" {
			// Only preToolUse takes updated_input: elsewhere a rewrite
			// cannot be applied, and running the call unrewritten would
			// ignore the hook. The agent is told what to run instead.
			perm = "deny"
			b, _ := json.Marshal(out.UpdatedInput)
			out.Reason = "hookctl rewrote this call, which Cursor cannot apply on " + ev.HostEvent + "; run it as " + string(b) + " instead"
		}
		top["permission"] = perm
		if perm != "allow" {
			r := reasonOr(out.Reason, reasonOr(out.StopReason, "blocked by a hook"))
			top["user_message"], top["agent_message"] = r, r
		} else if out.UpdatedInput != nil && ev.HostEvent == "preToolUse" {
			top["updated_input"] = out.UpdatedInput
		}
		if msg != "" && perm == "allow" {
			top["user_message"] = msg
		}
		return marshal(top, true)
	case "UserPromptSubmit":
		top["continue"] = out.Continue && !out.Blocked
		if out.Blocked {
			top["user_message"] = reasonOr(out.Reason, "blocked by a hook")
		} else if msg != "" {
			top["user_message"] = msg
		}
		return marshal(top, true)
	case "Stop", "SubagentStop":
		if out.Blocked {
			// A follow-up message makes the agent go on.
			top["followup_message"] = reasonOr(out.Reason, "continue")
		}
	}
	if out.AdditionalContext != "" {
		top["additional_context"] = out.AdditionalContext
	}
	if msg != "" {
		top["user_message"] = msg
	}
	return marshal(top, true)
}

// copilotReply is Copilot CLI's: top-level permissionDecision on the
// tool gates.
func copilotReply(_ *Host, ev *Event, out engine.Outcome) protocol.Reply {
	top := map[string]any{}
	if ev.Name == "PreToolUse" || ev.Name == "PermissionRequest" {
		switch {
		case !out.Continue || out.Blocked || out.Decision == engine.DecisionDeny:
			top["permissionDecision"] = "deny"
			top["permissionDecisionReason"] = reasonOr(out.Reason, reasonOr(out.StopReason, "blocked by a hook"))
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
	r := marshal(top, false)
	if out.Blocked && len(top) == 0 {
		r.Stderr = "hookctl: Copilot CLI cannot block " + ev.HostEvent + "; the hooks' block is reported only: " + reasonOr(out.Reason, "blocked by a hook")
	}
	return r
}
