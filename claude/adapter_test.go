package claude_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/claude"
	"github.com/hookctl/hookctl/engine"
)

// TestFormatPerEvent checks the shape of the answer for each kind of
// event (claude-code-hooks.md §3).
func TestFormatPerEvent(t *testing.T) {
	cases := []struct {
		name string
		out  engine.Outcome
		want string
		code int
	}{
		{"PreToolUse deny", engine.Outcome{Event: "PreToolUse", Decision: "deny", Reason: "no", Continue: true},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`, 0},
		{"PreToolUse rewrite with context", engine.Outcome{Event: "PreToolUse", Decision: "allow", Continue: true, UpdatedInput: map[string]any{"command": "ls"}, AdditionalContext: "c"},
			`{"hookSpecificOutput":{"additionalContext":"c","hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"}}}`, 0},
		{"PermissionRequest", engine.Outcome{Event: "PermissionRequest", Decision: "deny", Reason: "r", Continue: true, Output: map[string]any{"interrupt": true}},
			`{"hookSpecificOutput":{"decision":{"behavior":"deny","interrupt":true,"message":"r"},"hookEventName":"PermissionRequest"}}`, 0},
		{"Stop block", engine.Outcome{Event: "Stop", Decision: "block", Reason: "keep going", Continue: true},
			`{"decision":"block","reason":"keep going"}`, 0},
		{"UserPromptSubmit context", engine.Outcome{Event: "UserPromptSubmit", Continue: true, AdditionalContext: "ctx"},
			`{"hookSpecificOutput":{"additionalContext":"ctx","hookEventName":"UserPromptSubmit"}}`, 0},
		{"continue false", engine.Outcome{Event: "PostToolUse", Continue: false, StopReason: "budget", SystemMessage: "m"},
			`{"continue":false,"stopReason":"budget","systemMessage":"m"}`, 0},
		{"PostToolUse updated output", engine.Outcome{Event: "PostToolUse", Continue: true, Output: map[string]any{"updated_output": map[string]any{"x": 1}}},
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"x":1}}}`, 0},
		{"SessionStart title", engine.Outcome{Event: "SessionStart", Continue: true, Output: map[string]any{"session_title": "t"}},
			`{"hookSpecificOutput":{"hookEventName":"SessionStart","sessionTitle":"t"}}`, 0},
		{"PreModelSwitch", engine.Outcome{Event: "PreModelSwitch", Decision: "deny", Continue: true, AdditionalContext: "ignored"},
			`{"hookSpecificOutput":{"hookEventName":"PreModelSwitch","permissionDecision":"deny"}}`, 0},
		{"Notification has no decision channel", engine.Outcome{Event: "Notification", Continue: true, Decision: "block"}, ``, 0},
		{"nothing", engine.Outcome{Event: "PreToolUse", Continue: true}, ``, 0},
		{"Stop released by the guard", engine.Outcome{Event: "Stop", Continue: true, Reason: "stop hook block cap reached", StopGuard: &engine.StopGuard{Released: true}},
			`{"systemMessage":"stop hook block cap reached"}`, 0},
		{"Stop block the guard could not count", engine.Outcome{Event: "Stop", Decision: "block", Reason: "keep going", Continue: true, StopGuard: &engine.StopGuard{Cap: 3, Error: "reading the loop count: NATS unavailable"}},
			`{"decision":"block","reason":"keep going","systemMessage":"hookctl: the Stop loop guard could not count (reading the loop count: NATS unavailable): the hooks' decision stands, and a block is not counted toward stop_block_cap 3"}`, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := claude.Format(tc.out)
			if got := strings.TrimSpace(string(r.Stdout)); got != tc.want || r.ExitCode != tc.code {
				t.Fatalf("got %s (exit %d)\nwant %s (exit %d)", got, r.ExitCode, tc.want, tc.code)
			}
		})
	}
	r := claude.Format(engine.Outcome{Event: "TaskCompleted", Decision: "block", Reason: "tests fail", Continue: true})
	if r.ExitCode != 2 || r.Stderr != "tests fail" || len(r.Stdout) != 0 {
		t.Fatalf("%+v", r)
	}
}

func TestDecodeInput(t *testing.T) {
	for _, tc := range []struct{ in, err string }{
		{`{"hook_event_name":"Stop"}`, ""},
		{`{}`, "hook_event_name: missing"},
		{`{"hook_event_name": 3}`, "hook_event_name: want a non-empty string"},
		{`[1]`, "want a JSON object"},
		{`null`, "want a JSON object"},
		{`{`, "not valid JSON"},
	} {
		_, _, err := claude.DecodeInput(strings.NewReader(tc.in))
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: %v, want %q", tc.in, err, tc.err)
		}
	}
}

func TestServer(t *testing.T) {
	e := newEngine(t)
	if err := e.Register(engine.Hook{ID: "gate", Event: "PreToolUse", When: "tool_input.command contains 'rm'", Handler: engine.Static(engine.Deny("no rm"))}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(claude.NewServer(e, func() map[string]any { return map[string]any{"config": "x.hcl"} }))
	defer srv.Close()
	post := func(path, body string) (int, map[string]any, http.Header) {
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		return resp.StatusCode, m, resp.Header
	}
	rm := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`
	code, m, _ := post("/claude", rm)
	if code != 200 || m["hookSpecificOutput"].(map[string]any)["permissionDecision"] != "deny" {
		t.Fatalf("%d %v", code, m)
	}
	if code, _, _ := post("/claude/Stop", rm); code != 400 {
		t.Fatalf("mismatched event: %d", code)
	}
	code, m, h := post("/v1/fire/PreToolUse", rm)
	if code != 200 || m["blocked"] != true || h.Get("X-Hookctl-Blocked") != "true" {
		t.Fatalf("%d %v", code, m)
	}
	if code, _, _ := post("/v1/fire/before_tool_call", `{}`); code != 200 {
		t.Fatalf("alias: %d", code)
	}
	if code, _, _ := post("/v1/fire/Nope", `{}`); code != 404 {
		t.Fatalf("unknown: %d", code)
	}
	// Every other request gets a JSON error too.
	for _, c := range []struct {
		method, path string
		code         int
	}{{"POST", "/nope", 404}, {"GET", "/claude", 405}, {"GET", "/v1/fire/Stop", 405}, {"POST", "/healthz", 405}} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader("{}"))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		err = json.NewDecoder(resp.Body).Decode(&m)
		resp.Body.Close()
		if resp.StatusCode != c.code || err != nil || m["error"] == nil {
			t.Errorf("%s %s: %d %v %v", c.method, c.path, resp.StatusCode, m, err)
		}
	}
	if code, m, _ := post("/v1/fire/PreToolUse", `[1]`); code != 400 || !strings.Contains(m["error"].(string), "payload") {
		t.Fatalf("bad payload: %d %v", code, m)
	}
	resp, err := http.Get(srv.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var hm map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&hm)
	if hm["status"] != "ok" || hm["config"] != "x.hcl" || hm["fires"].(float64) < 2 {
		t.Fatalf("%v", hm)
	}
	// Many clients at once.
	done := make(chan bool)
	for range 8 {
		go func() {
			for range 20 {
				if code, _, _ := post("/claude", rm); code != 200 {
					done <- false
					return
				}
			}
			done <- true
		}()
	}
	for range 8 {
		if !<-done {
			t.Fatal("a concurrent request failed")
		}
	}
}
