package main

import (
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/daemon"
)

// TestCallTimeout: the client's host timeout is the one hookctl uses for
// the call (the flag, the variable, the host's default for the event);
// what the input says can only make it shorter, never longer.
func TestCallTimeout(t *testing.T) {
	claude, codex := timeoutsOf("claude"), timeoutsOf("codex")
	for _, c := range []struct {
		name  string
		hosts []hostTimeout
		event string
		in    string
		want  time.Duration
	}{
		{"claude PreToolUse", claude, "", `{"hook_event_name":"PreToolUse","tool_input":{}}`, 600 * time.Second},
		{"claude UserPromptSubmit", claude, "", `{"session_id":"s", "hook_event_name" : "UserPromptSubmit"}`, 30 * time.Second},
		{"a nested field only shortens", claude, "", `{"hook_event_name":"PreToolUse","tool_input":{"hook_event_name":"MessageDisplay"}}`, 10 * time.Second},
		{"a value holding the key is not a key", claude, "", `{"tool_input":{"command":"echo \"hook_event_name\": \"SessionEnd\""},"hook_event_name":"PreToolUse"}`, 600 * time.Second},
		{"escaped: the shortest", claude, "", `{"hook_event_name":"Pre\u0054oolUse"}`, 10 * time.Second},
		{"no event: the shortest", claude, "", `{}`, 10 * time.Second},
		{"--event", codex, "SessionEnd", `{"hook_event_name":"PreToolUse"}`, 3 * time.Second},
		{"split input", claude, "", `{"hook_event_name":"UserPr` + "\x00" + `omptSubmit"}`, 30 * time.Second},
		{"every host's events the same", timeoutsOf("gemini"), "", `{"hook_event_name":"BeforeTool"}`, 60 * time.Second},
		{"host detected: the shortest the input allows", timeoutsOf(""), "", `{"hook_event_name":"PreToolUse"}`, 30 * time.Second},
	} {
		var in input
		for _, p := range strings.Split(c.in, "\x00") {
			in = append(in, []byte(p))
		}
		if got := callTimeout(c.hosts, c.event, in); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	if d := readTimeout(timeoutsOf("")); d != 3*time.Second {
		t.Errorf("readTimeout of every host: %s", d)
	}
	env := map[string]string{"HOOKCTL_HOST_TIMEOUT": "7s"}
	if d, ok := givenTimeout(daemon.Hook{HostTimeout: "2s"}, func(k string) string { return env[k] }); !ok || d != 2*time.Second {
		t.Errorf("--host-timeout: %s %v", d, ok)
	}
	if d, ok := givenTimeout(daemon.Hook{}, func(k string) string { return env[k] }); !ok || d != 7*time.Second {
		t.Errorf("HOOKCTL_HOST_TIMEOUT: %s %v", d, ok)
	}
	if _, ok := givenTimeout(daemon.Hook{HostTimeout: "soon"}, func(string) string { return "" }); ok {
		t.Error("a timeout that is not one was taken")
	}
}
