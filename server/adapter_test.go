package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/server"
)

func TestDecodeInput(t *testing.T) {
	for _, tc := range []struct{ in, err string }{
		{`{"hook_event_name":"Stop"}`, ""},
		{`{}`, "hook_event_name: missing"},
		{`{"hook_event_name": 3}`, "hook_event_name: want a non-empty string"},
		{`[1]`, "want a JSON object"},
		{`null`, "want a JSON object"},
		{`{`, "not valid JSON"},
	} {
		_, _, err := server.DecodeInput(strings.NewReader(tc.in))
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
	srv := httptest.NewServer(server.NewServer(e, func() map[string]any { return map[string]any{"config": "x.hcl"} }))
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
	// The URL's event and the payload's disagree: no hook runs, and the
	// reply is the payload's event's block (an error status would be no
	// objection to Claude Code), as hookctl claude exits 2.
	if code, m, _ := post("/claude/Stop", rm); code != 200 || m["hookSpecificOutput"].(map[string]any)["permissionDecision"] != "deny" {
		t.Fatalf("mismatched event: %d %v", code, m)
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

// TestServerRefusesAPromptRewrite: a prompt rewrite, which Claude Code
// and Gemini CLI cannot apply, is the host's block on their routes (as
// from hookctl claude and the daemon: protocol.Table.Reply), while
// /v1/fire gives it to the caller, who can apply it.
func TestServerRefusesAPromptRewrite(t *testing.T) {
	e := newEngine(t)
	if err := e.Register(engine.Hook{ID: "redact", Event: "UserPromptSubmit",
		Handler: engine.HandlerFunc(func(_ context.Context, c *engine.Call) (engine.Result, error) {
			p, _ := c.Payload["prompt"].(string)
			return engine.Result{"prompt": strings.ReplaceAll(p, "hunter2", "***")}, nil
		})}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(server.NewServer(e, nil))
	defer srv.Close()
	post := func(path, body string) map[string]any {
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&m); err != nil && err != io.EOF || resp.StatusCode != 200 {
			t.Fatalf("%s: %d %v", path, resp.StatusCode, err)
		}
		return m
	}
	const secret = `{"session_id":"s","hook_event_name":"%s","prompt":"my password is hunter2"}`
	for _, path := range []string{"/claude", "/hook/gemini"} {
		event := "UserPromptSubmit"
		if path == "/hook/gemini" {
			event = "BeforeAgent"
		}
		m := post(path, fmt.Sprintf(secret, event))
		if r, _ := m["reason"].(string); m["decision"] != "block" || !strings.Contains(r, "cannot apply") || !strings.Contains(r, "my password is ***") {
			t.Errorf("%s: %v", path, m)
		}
	}
	if m := post("/v1/fire/UserPromptSubmit", fmt.Sprintf(secret, "UserPromptSubmit")); m["blocked"] != false || m["output"].(map[string]any)["prompt"] != "my password is ***" {
		t.Errorf("/v1/fire: %v", m)
	}
	// A hook that gives the prompt back as it was rewrote nothing.
	if m := post("/claude", `{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"hello"}`); m["decision"] != nil {
		t.Errorf("unchanged prompt: %v", m)
	}
	// Where the command says it on stderr (Copilot CLI cannot block the
	// prompt), the HTTP reply says it in its systemMessage.
	if m := post("/hook/copilot", `{"sessionId":"s","hookEventName":"userPromptSubmitted","prompt":"my password is hunter2"}`); !strings.Contains(fmt.Sprint(m["systemMessage"]), "can neither apply nor block") {
		t.Errorf("/hook/copilot: %v", m)
	}
}
