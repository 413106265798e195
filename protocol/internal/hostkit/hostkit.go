// Package hostkit holds what the packages of protocol/ share to write
// replies and read their scripts' answers: small functions, not an API.
package hostkit

import (
	"strings"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsonx"
	"github.com/hookctl/hookctl/protocol"
)

// Marshal is a reply's stdout: the object as one JSON line (nothing for
// an empty object unless always).
func Marshal(top map[string]any, always bool) protocol.Reply {
	if len(top) == 0 && !always {
		return protocol.Reply{}
	}
	b, _ := jsonx.Marshal(top)
	return protocol.Reply{Stdout: append(b, '\n')}
}

// Message is what the user should see besides the decision: the system
// message and the hooks that failed.
func Message(out engine.Outcome) string {
	return strings.TrimSpace(strings.Join(NonEmpty(out.SystemMessage, protocol.HookFailures(out)), "\n\n"))
}

// NonEmpty returns the strings of s that are not empty.
func NonEmpty(s ...string) []string {
	var out []string
	for _, v := range s {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// ReasonOr is r, or def when r is blank.
func ReasonOr(r, def string) string {
	if strings.TrimSpace(r) == "" {
		return def
	}
	return r
}

// OrText is s, or def when s is empty.
func OrText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// FirstLine is the first line of s, trimmed.
func FirstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// ReadDecision is a decision a host's script wrote, in hookctl's words:
// the legacy approve is allow, and block on a tool gate is deny.
func ReadDecision(event, d string) string {
	switch d {
	case "approve":
		d = "allow"
	case "block":
		if protocol.IsToolGate(event) {
			d = "deny"
		}
	}
	return d
}

// ReadUniversal reads the fields every Claude-shaped reply may carry:
// continue, stopReason and systemMessage.
func ReadUniversal(raw map[string]any, res engine.Result) {
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

// DecodeReply decodes a script's JSON reply with the payload decoder (an
// updated input keeps its integers exact); nil when stdout is not JSON.
func DecodeReply(stdout []byte) (map[string]any, error) {
	if !protocol.IsJSONOutput(stdout) {
		return nil, nil
	}
	raw, err := jsonx.DecodeObject(stdout)
	if err != nil {
		return nil, &protocol.OutputError{Err: err, Snippet: FirstLine(string(stdout))}
	}
	return raw, nil
}

// Result is res, or nil when it is empty.
func Result(res engine.Result) engine.Result {
	if len(res) == 0 {
		return nil
	}
	return res
}

// GroupHandlers are the handlers of an entry in Claude Code's shape (a
// matcher group with "hooks"), each a command in the protocol name, its
// timeout divided by perSecond (1000 for a host counting milliseconds).
func GroupHandlers(e map[string]any, name string, perSecond float64) []any {
	var handlers []any
	inner, _ := e["hooks"].([]any)
	for _, x := range inner {
		hm, _ := x.(map[string]any)
		if hm == nil {
			continue
		}
		c := map[string]any{"type": "command", "command": hm["command"], "protocol": name}
		if t, ok := hm["timeout"].(float64); ok && t > 0 {
			c["timeout"] = t / perSecond
		}
		handlers = append(handlers, c)
	}
	return handlers
}

// FlatHandler is the handler of a flat entry (its command under key, a
// timeout or timeoutSec in seconds) in the protocol name; false when it
// has no command.
func FlatHandler(e map[string]any, name, key string) ([]any, bool) {
	cmd, _ := e[key].(string)
	if cmd == "" {
		return nil, false
	}
	c := map[string]any{"type": "command", "command": cmd, "protocol": name}
	for _, k := range []string{"timeout", "timeoutSec"} {
		if t, ok := e[k].(float64); ok && t > 0 {
			c["timeout"] = t
		}
	}
	return []any{c}, true
}

// GroupEntry is a registration in Claude Code's shape: a matcher group
// with one command handler (extra adds fields to the handler).
func GroupEntry(command string, extra map[string]any) any {
	h := map[string]any{"type": "command", "command": command}
	for k, v := range extra {
		h[k] = v
	}
	return map[string]any{"matcher": "", "hooks": []any{h}}
}

// DroppedContext is the stderr line for the hooks' additional context on
// an event where the host has no field for it: said, never dropped
// silently (its start, for people).
func DroppedContext(title, event, ctx string) string {
	if len(ctx) > 200 {
		ctx = ctx[:200] + "..."
	}
	return "hookctl: " + title + " takes no context for the model on " + event + "; the hooks' additional_context was not passed on: " + ctx
}

// WithStderr adds line to the reply's stderr.
func WithStderr(r protocol.Reply, line string) protocol.Reply {
	r.Stderr = strings.TrimSpace(r.Stderr + "\n" + line)
	return r
}
