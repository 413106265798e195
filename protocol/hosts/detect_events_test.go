package hosts_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/hosts"
)

// TestSharedEventsAreNotGemini: an event name Gemini CLI shares with
// Claude Code and Codex (SessionStart, SessionEnd, Notification) is no
// evidence of Gemini CLI: such a payload is Gemini's only with Gemini's
// variables in the environment, or with an event only Gemini has. Before,
// Claude Code's and Codex's SessionStart, SessionEnd and Notification
// (no turn_id) were detected as Gemini CLI.
func TestSharedEventsAreNotGemini(t *testing.T) {
	none := func(string) string { return "" }
	gemEnv := func(k string) string {
		if k == "GEMINI_PROJECT_DIR" {
			return "/p"
		}
		return ""
	}
	for _, tc := range []struct {
		payload string
		getenv  func(string) string
		want    string
	}{
		{`{"hook_event_name":"SessionStart","session_id":"s","transcript_path":"/t","cwd":"/p","source":"startup"}`, none, "claude"},
		{`{"hook_event_name":"SessionEnd","session_id":"s","transcript_path":"/t","cwd":"/p","reason":"exit"}`, none, "claude"},
		{`{"hook_event_name":"Notification","session_id":"s","cwd":"/p","message":"Claude needs your permission"}`, none, "claude"},
		// Codex's session events carry no turn_id: Claude-shaped, answered so.
		{`{"hook_event_name":"SessionStart","session_id":"s","cwd":"/p","model":"gpt-5","permission_mode":"default","source":"startup"}`, none, "claude"},
		{`{"hook_event_name":"SessionEnd","session_id":"s","cwd":"/p","model":"gpt-5"}`, none, "claude"},
		{`{"hook_event_name":"Stop","session_id":"s","turn_id":"t","cwd":"/p"}`, none, "codex"},
		// Gemini CLI's: its variables, or an event only it has.
		{`{"hook_event_name":"SessionStart","session_id":"s","cwd":"/p","timestamp":"2026-11-26T00:00:00Z"}`, gemEnv, "gemini"},
		{`{"hook_event_name":"Notification","session_id":"s","cwd":"/p"}`, gemEnv, "gemini"},
		{`{"hook_event_name":"BeforeTool","session_id":"s","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, none, "gemini"},
		{`{"hook_event_name":"BeforeModel","session_id":"s"}`, none, "gemini"},
		{`{"hook_event_name":"AfterAgent","session_id":"s"}`, none, "gemini"},
	} {
		var raw map[string]any
		if err := json.Unmarshal([]byte(tc.payload), &raw); err != nil {
			t.Fatal(err)
		}
		if h, why := hosts.New().Detect(raw, tc.getenv); h.Name() != tc.want {
			t.Errorf("%s: detected %s (%s), want %s", tc.payload, h.Name(), why, tc.want)
		}
	}
}

// TestCodexInstallEvents: Codex 0.169.0 fires SessionEnd and has no
// StopFailure, so install registers the one and says it skips the other.
func TestCodexInstallEvents(t *testing.T) {
	h, _ := hosts.New().Lookup("codex")
	inst, err := h.Install(nil, protocol.InstallRequest{Events: []string{"SessionStart", "SessionEnd", "StopFailure", "PreToolUse"}, Program: "hookctl"})
	if err != nil {
		t.Fatal(err)
	}
	out, notes := inst.Data, inst.Notes
	var cfg struct {
		Hooks map[string]any `json:"hooks"`
	}
	if err := json.Unmarshal(out, &cfg); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, ev := range []string{"SessionStart", "SessionEnd", "PreToolUse"} {
		if _, ok := cfg.Hooks[ev]; !ok {
			t.Errorf("%s not registered:\n%s", ev, out)
		}
	}
	if _, ok := cfg.Hooks["StopFailure"]; ok {
		t.Errorf("StopFailure registered:\n%s", out)
	}
	if joined := strings.Join(notes, "\n"); !strings.Contains(joined, "no event for StopFailure") || strings.Contains(joined, "SessionEnd") {
		t.Errorf("notes: %q", notes)
	}
}

// TestEnvironmentDoesNotOutrankThePayload: a variable another host sets
// for its hooks (a hookctl run from a shell inside Gemini CLI or crush)
// does not outrank what the payload says: Codex's turn_id, an event name
// the variable's host never sends (PreToolUse is no Gemini CLI event), a
// payload without crush's event field. Before, GEMINI_SESSION_ID made a
// Claude Code or Codex PreToolUse Gemini CLI's (a deny in Gemini's shape,
// which those hosts do not read), and CRUSH=1 made it crush's.
func TestEnvironmentDoesNotOutrankThePayload(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	const (
		claudePre = `{"hook_event_name":"PreToolUse","session_id":"s","transcript_path":"/t","cwd":"/p","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`
		codexPre  = `{"hook_event_name":"PreToolUse","session_id":"s","turn_id":"t","cwd":"/p","model":"gpt-5","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`
		codexEnd  = `{"hook_event_name":"SessionEnd","session_id":"s","turn_id":"t","cwd":"/p"}`
		crushPre  = `{"event":"PreToolUse","session_id":"s","cwd":"/p","tool_name":"bash","tool_input":{"command":"ls"}}`
		geminiPre = `{"hook_event_name":"BeforeTool","session_id":"s","cwd":"/p","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`
		geminiSS  = `{"hook_event_name":"SessionStart","session_id":"s","cwd":"/p"}`
	)
	for _, tc := range []struct {
		name, payload string
		getenv        func(string) string
		want          string
	}{
		{"claude PreToolUse, GEMINI_SESSION_ID", claudePre, env("GEMINI_SESSION_ID", "x"), "claude"},
		{"claude PreToolUse, GEMINI_PROJECT_DIR", claudePre, env("GEMINI_PROJECT_DIR", "/p"), "claude"},
		{"codex PreToolUse, GEMINI_SESSION_ID", codexPre, env("GEMINI_SESSION_ID", "x"), "codex"},
		{"codex SessionEnd, GEMINI_PROJECT_DIR", codexEnd, env("GEMINI_PROJECT_DIR", "/p"), "codex"},
		{"claude PreToolUse, CRUSH=1", claudePre, env("CRUSH", "1"), "claude"},
		{"claude PreToolUse, AGENT=crush", claudePre, env("AGENT", "crush"), "claude"},
		{"codex PreToolUse, CRUSH=1", codexPre, env("CRUSH", "1"), "codex"},
		{"gemini BeforeTool, CRUSH=1", geminiPre, env("CRUSH", "1"), "gemini"},
		{"codex PreToolUse, every variable", codexPre, env("CRUSH", "1", "AGENT", "crush", "GEMINI_SESSION_ID", "x"), "codex"},
		// The variables still decide where the payload does not.
		{"crush payload, CRUSH=1", crushPre, env("CRUSH", "1"), "crush"},
		{"gemini SessionStart, GEMINI_PROJECT_DIR", geminiSS, env("GEMINI_PROJECT_DIR", "/p"), "gemini"},
		{"gemini BeforeTool, GEMINI_SESSION_ID", geminiPre, env("GEMINI_SESSION_ID", "x"), "gemini"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var raw map[string]any
			if err := json.Unmarshal([]byte(tc.payload), &raw); err != nil {
				t.Fatal(err)
			}
			if h, why := hosts.New().Detect(raw, tc.getenv); h.Name() != tc.want {
				t.Errorf("detected %s (%s), want %s", h.Name(), why, tc.want)
			}
		})
	}
}
