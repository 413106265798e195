package host

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsonx"
	"github.com/hookctl/hookctl/protocol"
	claudeproto "github.com/hookctl/hookctl/protocol/claude"
)

// A host's own hook scripts speak its protocol: they read its payload
// shape and answer in its reply format. A command hook with protocol =
// "<host>" runs such a script unchanged: the payload is written in the
// host's shape and the reply read as the host reads it (what hookctl
// import --host writes for the scripts it imports).

// hostEvent is the host's name for a catalog event (and tool), the first
// mapping that fires it.
func (h *Host) hostEvent(event string, tool string) string {
	best := ""
	for name, m := range h.Events {
		if m.Event != event {
			continue
		}
		if m.Tool != "" {
			if engine.CanonicalTool(m.Tool) == tool && tool != "" {
				return name
			}
			continue
		}
		if best == "" || name < best {
			best = name
		}
	}
	if best == "" {
		return event
	}
	return best
}

// EncodePayload writes the payload of a catalog event as the host sends it.
func (h *Host) EncodePayload(event string, payload map[string]any) ([]byte, error) {
	p := maps.Clone(payload)
	if p == nil {
		p = map[string]any{}
	}
	tool, _ := p[engine.ToolField].(string)
	if raw, ok := p["tool_name"].(string); ok && tool == "" {
		tool = engine.CanonicalTool(raw)
	}
	name := h.hostEvent(event, tool)
	if m, ok := h.Events[name]; ok && m.Tool != "" {
		// A tool call in disguise: its tool_input fields at the top.
		in, _ := p["tool_input"].(map[string]any)
		for _, f := range m.Input {
			from, to, ok := strings.Cut(f, ":")
			if !ok {
				to = from
			}
			if v, ok := in[to]; ok {
				p[from] = v
			}
		}
	}
	switch h.Name {
	case "crush":
		p["event"] = name
		delete(p, "hook_event_name")
	case "copilot":
		for from, to := range h.Fields {
			if v, ok := p[to]; ok && to != "hook_event_name" {
				p[from] = v
				delete(p, to)
			}
		}
		if args, ok := p["toolArgs"]; ok {
			b, err := json.Marshal(args)
			if err != nil {
				return nil, fmt.Errorf("payload: %w", err)
			}
			p["toolArgs"] = string(b)
		}
		p["hook_event_name"] = name
	default:
		p["hook_event_name"] = name
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("payload: %w", err)
	}
	return b, nil
}

// ReadReply reads what a host's own script answered (its exit status,
// stdout and stderr) as that host would, in hookctl's result vocabulary.
func (h *Host) ReadReply(event string, payload map[string]any, code int, stdout, stderr []byte, argv0 string) (engine.Result, error) {
	errText := strings.TrimSpace(string(stderr))
	switch h.Name {
	case "claude", "codex":
		return claudeproto.Interpret(event, code, stdout, stderr, argv0)
	case "crush":
		switch code {
		case 0:
		case 2:
			return engine.Result{"decision": "deny", "reason": orText(errText, "blocked by hook")}, nil
		case 49:
			r := orText(errText, "turn halted by hook")
			return engine.Result{"decision": "deny", "reason": r, "continue": false, "stop_reason": r}, nil
		default:
			return nil, &protocol.ExitError{Code: code, Stderr: firstLine(errText)}
		}
	case "gemini":
		if code != 0 && !protocol.IsJSONOutput(stdout) {
			if protocol.IsJSONOutput(stderr) {
				stdout = stderr
			} else if code == 1 {
				return nil, &protocol.ExitError{Code: code, Stderr: firstLine(errText)}
			} else {
				return engine.Result{"decision": "block", "reason": orText(errText, fmt.Sprintf("blocked by hook (exit status %d)", code))}, nil
			}
		}
	case "cursor":
		if code == 2 {
			return engine.Result{"decision": "deny", "reason": orText(errText, "blocked by hook")}, nil
		}
		if code != 0 {
			return nil, &protocol.ExitError{Code: code, Stderr: firstLine(errText)}
		}
	case "copilot":
		if code != 0 {
			return nil, &protocol.ExitError{Code: code, Stderr: firstLine(errText)}
		}
	}
	if !protocol.IsJSONOutput(stdout) {
		return nil, nil
	}
	// Numbers as in payloads: an updated input keeps its integers exact.
	raw, err := jsonx.DecodeObject(stdout)
	if err != nil {
		return nil, &protocol.OutputError{Err: err, Snippet: firstLine(string(stdout))}
	}
	if _, ok := raw["hookSpecificOutput"]; ok && h.Name == "crush" {
		// crush also reads Claude Code's shape.
		return claudeproto.ParseOutputFor(event, stdout)
	}
	return h.readFields(event, payload, raw), nil
}

// readFields maps a host's reply fields onto results.
func (h *Host) readFields(event string, payload map[string]any, raw map[string]any) engine.Result {
	res := engine.Result{}
	str := func(k string) string { s, _ := raw[k].(string); return s }
	setDecision := func(d string) {
		switch d {
		case "approve":
			d = "allow"
		case "block":
			if event == "PreToolUse" || event == "PermissionRequest" {
				d = "deny"
			}
		}
		if d != "" {
			res["decision"] = d
		}
	}
	switch h.Name {
	case "crush":
		setDecision(str("decision"))
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
			res["stop_reason"] = orText(str("reason"), "turn halted by hook")
		}
	case "gemini":
		setDecision(str("decision"))
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
		universal(raw, res)
	case "cursor":
		switch str("permission") {
		case "allow", "deny", "ask":
			setDecision(str("permission"))
		}
		if r := orText(str("agent_message"), str("user_message")); r != "" && res["decision"] != nil {
			res["reason"] = r
		}
		if in, ok := raw["updated_input"].(map[string]any); ok {
			res["updated_input"] = in
		}
		if c, ok := raw["continue"].(bool); ok && !c && event == "UserPromptSubmit" {
			res["decision"], res["reason"] = "block", orText(str("user_message"), "blocked by hook")
		}
		if f := str("followup_message"); f != "" && (event == "Stop" || event == "SubagentStop") {
			res["decision"], res["reason"] = "block", f
		}
		if c := str("additional_context"); c != "" {
			res["additional_context"] = c
		}
	case "copilot":
		setDecision(str("permissionDecision"))
		if r := str("permissionDecisionReason"); r != "" {
			res["reason"] = r
		}
		if in, ok := raw["modifiedArgs"].(map[string]any); ok {
			res["updated_input"] = in
		}
	}
	if len(res) == 0 {
		return nil
	}
	return res
}

// universal reads continue, stopReason and systemMessage.
func universal(raw map[string]any, res engine.Result) {
	if c, ok := raw["continue"].(bool); ok && !c {
		res["continue"] = false
		if s, _ := raw["stopReason"].(string); s != "" {
			res["stop_reason"] = s
		}
	}
	if s, _ := raw["systemMessage"].(string); s != "" {
		res["system_message"] = s
	}
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
