package opta

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsonx"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/claude"
	"github.com/hookctl/hookctl/protocol/internal/hostkit"
)

// Name is the convention's name in a command hook's protocol attribute.
const Name = "opta"

// Convention is the opta convention of command hooks.
type Convention struct{}

var (
	_ protocol.Convention = Convention{}
	_ protocol.CommandEnv = Convention{}
)

// New returns the opta convention.
func New() Convention { return Convention{} }

// Name is "opta".
func (Convention) Name() string { return Name }

// Title is the convention's name for people.
func (Convention) Title() string { return "OpenClaw (opta)" }

// EncodePayload is Claude Code's payload.
func (Convention) EncodePayload(event string, payload map[string]any) ([]byte, error) {
	return claude.PayloadJSON(event, payload)
}

// CommandEnv is the OPTA_* variables: OPTA_EVENT, OPTA_TOOL_NAME,
// OPTA_SESSION_ID and OPTA_TOOL_ARGS (the tool arguments as JSON without
// file contents).
func (Convention) CommandEnv(call *engine.Call) map[string]string {
	p := call.Payload
	str := func(k string) string { s, _ := p[k].(string); return s }
	env := map[string]string{
		"OPTA_EVENT":      event(call.Event),
		"OPTA_TOOL_NAME":  hostkit.OrText(str("tool_name"), str("toolName")),
		"OPTA_SESSION_ID": hostkit.OrText(str("session_id"), str("sessionId")),
	}
	if in, ok := p["tool_input"].(map[string]any); ok {
		env["OPTA_TOOL_ARGS"] = metadataJSON(in)
	}
	return env
}

// ReadReply reads an opta hook's exit: on a tool call's gate any non-zero
// exit denies the call with stderr as the reason; elsewhere a non-zero
// exit is a failure. Stdout is not read.
func (Convention) ReadReply(event string, _ map[string]any, code int, _, stderr []byte, _ string) (engine.Result, error) {
	if code == 0 {
		return nil, nil
	}
	msg := strings.TrimSpace(string(stderr))
	if event == "PreToolUse" {
		if msg == "" {
			msg = fmt.Sprintf("cancelled by a hook (exit status %d)", code)
		}
		return engine.Result{"decision": "deny", "reason": msg}, nil
	}
	return nil, &protocol.ExitError{Code: code, Stderr: firstLine(msg)}
}

// events are the opta names of catalog events.
var events = map[string]string{
	"PreToolUse": "tool.pre", "PostToolUse": "tool.post", "SessionStart": "session.start",
	"SessionEnd": "session.end", "Stop": "session.end", "PostCompact": "compact", "StopFailure": "error",
}

func event(name string) string {
	if n, ok := events[name]; ok {
		return n
	}
	return name
}

// contentFields are tool arguments that carry file contents, which the
// opta convention keeps out of the environment.
var contentFields = map[string]bool{
	"content": true, "new_string": true, "old_string": true, "edits": true, "file_text": true,
	"new_source": true, "patch": true, "input": true,
}

// maxArgsEnv bounds OPTA_TOOL_ARGS.
const maxArgsEnv = 16 << 10

// metadataJSON is the tool arguments as JSON without file contents: each
// content field says only its size; past maxArgsEnv, only the names.
func metadataJSON(in map[string]any) string {
	out := make(map[string]any, len(in))
	for k, v := range in {
		if contentFields[k] {
			b, _ := jsonx.Marshal(v)
			out[k] = fmt.Sprintf("(%d bytes omitted)", len(b))
			continue
		}
		out[k] = v
	}
	b, err := jsonx.Marshal(out)
	if err != nil || len(b) > maxArgsEnv {
		keys := slices.Sorted(maps.Keys(in))
		b, _ = jsonx.Marshal(map[string]any{"_omitted": "arguments too large for the environment", "keys": keys})
	}
	return string(b)
}

// firstLine is the first line of s, at most 500 bytes.
func firstLine(s string) string {
	s = hostkit.FirstLine(s)
	if len(s) > 500 {
		s = s[:500]
	}
	return s
}
