package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeHookRoutesAnswerAsHook: POST /hook/{host} answers every host's
// payload as `hookctl hook --host HOST` does on stdout, and a reply that
// blocks by exit status (crush, Codex, Gemini CLI, Claude Code's
// unreadable input) is a 200 {"decision":"block","reason":STDERR}: no
// host's block becomes an HTTP error a host would read as "no objection".
// An unknown host is 404, input that is not the host's event 400.
func TestServeHookRoutesAnswerAsHook(t *testing.T) {
	base := startServe(t)
	cfg := filepath.Join(t.TempDir(), "hooks.hcl")
	if err := os.WriteFile(cfg, []byte(serveHooks), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ host, event, payload string }{
		{"claude", "", rmPayload},
		{"claude", "PreToolUse", rmPayload},
		// The URL's event and the payload's are compared as catalog
		// events: an alias of the same event is that event.
		{"claude", "PreToolUse", strings.Replace(rmPayload, `"PreToolUse"`, `"before_tool_call"`, 1)},
		{"claude", "PreToolUse", strings.Replace(rmPayload, `"PreToolUse"`, `"tool.pre"`, 1)},
		{"claude", "before_tool_call", rmPayload},
		{"claude", "", strings.Replace(rmPayload, "rm -rf /", "ls", 1)},
		{"crush", "", `{"event":"PreToolUse","session_id":"s","tool_name":"bash","tool_input":{"command":"rm -rf /"}}`},
		{"crush", "", `{"event":"PreToolUse","session_id":"s","tool_name":"bash","tool_input":{"command":"ls"}}`},
		{"codex", "", `{"hook_event_name":"PreToolUse","turn_id":"t","session_id":"s","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`},
		{"gemini", "", `{"hook_event_name":"BeforeTool","session_id":"s","tool_name":"run_shell_command","tool_input":{"command":"rm -rf /"}}`},
		{"cursor", "", `{"hook_event_name":"beforeShellExecution","conversation_id":"c","command":"rm -rf /","cwd":"/tmp"}`},
		{"copilot", "", `{"hook_event_name":"preToolUse","sessionId":"s","toolName":"bash","toolArgs":"{\"command\":\"rm -rf /\"}"}`},
		{"copilot", "", `{"hook_event_name":"preToolUse","sessionId":"s","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`},
	}
	for _, c := range cases {
		args := []string{"hook", "--host", c.host, "--config", cfg, "--allow-untrusted"}
		if c.event != "" {
			args = append(args, "--event", c.event)
		}
		var stdout, stderr bytes.Buffer
		code := run(args, strings.NewReader(c.payload), &stdout, &stderr)
		want := stdout.String()
		if code != 0 {
			b, _ := json.Marshal(map[string]any{"decision": "block", "reason": strings.TrimSuffix(stderr.String(), "\n")})
			want = string(b) + "\n"
		}
		route := "/hook/" + c.host
		if c.event != "" {
			route += "/" + c.event
		}
		status, body := post(t, base+route, c.payload)
		if status != http.StatusOK || body != want {
			t.Errorf("%s %s: %d %q\nhookctl hook: exit %d %q %q, want the body %q", route, c.payload, status, body, code, stdout.String(), stderr.String(), want)
		}
		if strings.Contains(c.payload, "rm -rf") && !strings.Contains(body, "rm -rf is not allowed") {
			t.Errorf("%s: the deny did not reach the reply: %s", route, body)
		}
	}
	for _, c := range []struct {
		route, payload string
		status         int
	}{
		{"/hook/nohost", rmPayload, http.StatusNotFound},
		// Input no hook can answer: the host's block, a 200 (any other
		// status is no objection to Claude Code), as hookctl hook exits 2.
		{"/hook/claude", `{"hook_event_name":`, http.StatusOK},
		{"/hook/claude", `[1]`, http.StatusOK},
		{"/hook/claude/Stop", rmPayload, http.StatusOK},
		{"/claude/Stop", strings.Replace(rmPayload, `"PreToolUse"`, `"tool.pre"`, 1), http.StatusOK},
		{"/claude/PreToolUse", strings.Replace(rmPayload, `"PreToolUse"`, `"tool.pre"`, 1), http.StatusOK},
		{"/hook/crush", `{"session_id":"s"}`, http.StatusOK},
	} {
		status, body := post(t, base+c.route, c.payload)
		if status != c.status || status == http.StatusOK && !strings.Contains(body, `"decision":"block"`) && !strings.Contains(body, `"permissionDecision":"deny"`) {
			t.Errorf("%s %s: %d %s, want %d and a block", c.route, c.payload, status, body, c.status)
		}
	}
}
