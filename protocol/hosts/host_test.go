package hosts_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/hosts"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// loadEngine loads testdata/hooks.hcl: deny rm -rf, rewrite pip install,
// ask before git push, block Stop once.
func loadEngine(t *testing.T) *engine.Engine {
	t.Helper()
	cfg, err := assemble.Load("testdata/hooks.hcl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cfg.Close() })
	eng, err := assemble.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close(context.Background()) })
	if err := eng.Load(cfg.Engine); err != nil {
		t.Fatal(err)
	}
	return eng
}

// shellPayload is what each host sends for a shell command, built from
// agent-hosts.md (crush: the real capture, command replaced).
func shellPayload(t *testing.T, hostName, cmd string) (map[string]any, string) {
	t.Helper()
	switch hostName {
	case "claude":
		return map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/p", "tool_name": "Bash",
			"tool_input": map[string]any{"command": cmd, "description": "d"}}, ""
	case "codex":
		return map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/p", "turn_id": "t1", "model": "gpt-5",
			"tool_use_id": "call_1", "tool_name": "Bash", "tool_input": map[string]any{"command": cmd}}, ""
	case "crush":
		b, err := os.ReadFile("testdata/crush/PreToolUse.bash.rm.json")
		if err != nil {
			t.Fatal(err)
		}
		var p map[string]any
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatal(err)
		}
		p["tool_input"].(map[string]any)["command"] = cmd
		return p, ""
	case "gemini":
		return map[string]any{"hook_event_name": "BeforeTool", "session_id": "s", "cwd": "/p", "timestamp": "2026-11-24T10:00:00Z",
			"tool_name": "run_shell_command", "tool_input": map[string]any{"command": cmd}}, ""
	case "cursor":
		return map[string]any{"hook_event_name": "beforeShellExecution", "conversation_id": "c", "generation_id": "g",
			"workspace_roots": []any{"/p"}, "command": cmd, "cwd": "/p"}, ""
	case "copilot":
		args, _ := json.Marshal(map[string]any{"command": cmd})
		return map[string]any{"sessionId": "s", "timestamp": 1, "cwd": "/p", "toolName": "bash", "toolArgs": string(args)}, "preToolUse"
	}
	t.Fatalf("no payload for %s", hostName)
	return nil, ""
}

// verdict reads a reply as the host reads it (agent-hosts.md): blocked,
// and the command it would run.
func verdict(t *testing.T, hostName string, r protocol.Reply, orig string) (blocked bool, runs string) {
	t.Helper()
	var m map[string]any
	if len(r.Stdout) > 0 {
		if err := json.Unmarshal(r.Stdout, &m); err != nil {
			t.Fatalf("%s: reply is not JSON: %s", hostName, r.Stdout)
		}
	}
	hso, _ := m["hookSpecificOutput"].(map[string]any)
	cmdOf := func(v any) string {
		if in, ok := v.(map[string]any); ok {
			s, _ := in["command"].(string)
			return s
		}
		return orig
	}
	runs = orig
	switch hostName {
	case "claude", "codex":
		if r.ExitCode == 2 || hso["permissionDecision"] == "deny" {
			return true, ""
		}
		if hso["updatedInput"] != nil {
			runs = cmdOf(hso["updatedInput"])
		}
	case "crush":
		if r.ExitCode == 2 || r.ExitCode == 49 || m["decision"] == "deny" || hso["permissionDecision"] == "deny" {
			return true, ""
		}
		if m["updated_input"] != nil {
			runs = cmdOf(m["updated_input"])
		}
	case "gemini":
		if (r.ExitCode != 0 && r.ExitCode != 1) || m["decision"] == "deny" || m["decision"] == "block" {
			return true, ""
		}
		if hso["tool_input"] != nil {
			runs = cmdOf(hso["tool_input"])
		}
	case "cursor":
		if p := m["permission"]; r.ExitCode == 2 || (p != "allow" && p != "ask") {
			// Cursor blocks on a missing or non-Cursor reply too.
			return true, ""
		}
	case "copilot":
		if m["permissionDecision"] == "deny" {
			return true, ""
		}
		if m["modifiedArgs"] != nil {
			runs = cmdOf(m["modifiedArgs"])
		}
	}
	return false, runs
}

// TestOnePolicyEveryHost: one hooks.hcl denies rm -rf, rewrites pip
// install and asks before git push under every host's payloads and reply
// format; the replies are kept in testdata/replies.golden.
func TestOnePolicyEveryHost(t *testing.T) {
	eng := loadEngine(t)
	var golden strings.Builder
	for _, name := range hosts.New().Names() {
		h, _ := hosts.New().Lookup(name)
		for _, tc := range []struct {
			cmd     string
			blocked bool
			runs    string
		}{
			{"rm -rf /home/dev/shop/build-cache", true, ""},
			{"pip install requests", false, "uv pip install requests"},
			{"echo hi", false, "echo hi"},
			// An ask: where the host cannot ask, a deny.
			{"git push origin main", !h.CanAsk(), "git push origin main"},
		} {
			raw, event := shellPayload(t, name, tc.cmd)
			ev, err := h.Decode(raw, event)
			if err != nil {
				t.Fatalf("%s: decode: %v", name, err)
			}
			r, err := protocol.Handle(context.Background(), eng, ev, protocol.Options{})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			blocked, runs := verdict(t, name, r, tc.cmd)
			if blocked != tc.blocked || (!blocked && runs != tc.runs) {
				if name == "cursor" && tc.cmd == "pip install requests" && blocked {
					// beforeShellExecution takes no rewrite: the agent is
					// told to run the rewritten command instead.
					if !strings.Contains(string(r.Stdout), "uv pip install requests") {
						t.Errorf("cursor: the rewrite is not in the reply: %s", r.Stdout)
					}
				} else {
					t.Errorf("%s %q: blocked=%v runs=%q, want blocked=%v runs=%q\nstdout: %s\nstderr: %s", name, tc.cmd, blocked, runs, tc.blocked, tc.runs, r.Stdout, r.Stderr)
				}
			}
			fmt.Fprintf(&golden, "%s %s\n  exit %d\n  stdout %s  stderr %q\n", name, tc.cmd, r.ExitCode, orNone(r.Stdout), r.Stderr)
		}
	}
	checkGolden(t, "testdata/replies.golden", golden.String())
}

func orNone(b []byte) string {
	if len(b) == 0 {
		return "(none)\n"
	}
	return string(b)
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Errorf("%s differs (go test -update to rewrite):\n%s", path, got)
	}
}

// TestCrushFixturesAsCaptured: the payloads the real crush v0.90.0 sent
// are read as crush's: the event from "event", bash is Bash, write is
// Write.
func TestCrushFixturesAsCaptured(t *testing.T) {
	files, _ := filepath.Glob("testdata/crush/PreToolUse.*.json")
	if len(files) < 3 {
		t.Fatalf("fixtures: %v", files)
	}
	eng := loadEngine(t)
	for _, f := range files {
		b, _ := os.ReadFile(f)
		var raw map[string]any
		if err := json.Unmarshal(b, &raw); err != nil {
			t.Fatal(err)
		}
		h, why := hosts.New().Detect(raw, func(string) string { return "" })
		if h.Name() != "crush" {
			t.Fatalf("%s: detected %s (%s)", f, h.Name(), why)
		}
		ev, err := h.Decode(raw, "")
		if err != nil || ev.Name != "PreToolUse" || ev.Payload["hook_event_name"] != "PreToolUse" {
			t.Fatalf("%s: %v %+v", f, err, ev)
		}
		r, err := protocol.Handle(context.Background(), eng, ev, protocol.Options{})
		if err != nil {
			t.Fatal(err)
		}
		blocked, _ := verdict(t, "crush", r, "")
		if want := strings.Contains(f, ".rm."); blocked != want {
			t.Errorf("%s: blocked=%v\n%s", f, blocked, r.Stdout)
		}
	}
}

// TestDetect: each host's payload is recognised without --host.
func TestDetect(t *testing.T) {
	for _, name := range hosts.New().Names() {
		raw, _ := shellPayload(t, name, "ls")
		if h, why := hosts.New().Detect(raw, func(string) string { return "" }); h.Name() != name {
			t.Errorf("%s payload detected as %s (%s)", name, h.Name(), why)
		}
	}
	// CRUSH=1 decides a payload that has crush's event field beside
	// Claude Code's; without that field it is not crush's (see
	// TestEnvironmentDoesNotOutrankThePayload).
	if h, _ := hosts.New().Detect(map[string]any{"event": "PreToolUse", "hook_event_name": "PreToolUse"}, func(k string) string {
		if k == "CRUSH" {
			return "1"
		}
		return ""
	}); h.Name() != "crush" {
		t.Errorf("CRUSH=1: %s", h.Name())
	}
}

// TestUnmappedEventsAreReported: a host event with no catalog event runs
// no hook, and says so; Cursor still gets a reply it accepts. A real host
// event is named as the host's (no "did you mean" to another event);
// Gemini CLI's, whose stderr Gemini shows the user on every event, only
// with Verbose (before, BeforeModel said "unknown event (did you mean
// BeforeTool?)" on every model call).
func TestUnmappedEventsAreReported(t *testing.T) {
	eng := loadEngine(t)
	for _, tc := range []struct {
		host, event string
		verbose     bool
		want        string // in stderr; "" for nothing
	}{
		{"gemini", "BeforeModel", false, ""},
		{"gemini", "AfterModel", false, ""},
		{"gemini", "BeforeToolSelection", false, ""},
		{"gemini", "BeforeModel", true, `"BeforeModel" is a Gemini CLI event with no hookctl event: no hook runs for it (ignored)`},
		{"codex", "Interrupt", false, `"Interrupt" is a Codex event with no hookctl event: no hook runs for it (ignored)`},
		{"cursor", "afterAgentThought", false, "(ignored)"},
		{"claude", "SomeFutureEvent", false, `unknown event "SomeFutureEvent"`},
	} {
		h, _ := hosts.New().Lookup(tc.host)
		ev, err := h.Decode(map[string]any{"hook_event_name": tc.event}, "")
		if err != nil {
			t.Fatal(err)
		}
		r, err := protocol.Handle(context.Background(), eng, ev, protocol.Options{Verbose: tc.verbose})
		if err != nil || r.ExitCode != 0 || tc.want == "" && r.Stderr != "" || !strings.Contains(r.Stderr, tc.want) || strings.Contains(r.Stderr, "did you mean") && tc.want != "(ignored)" {
			t.Errorf("%s %s (verbose %v): %v %+v, want stderr %q", tc.host, tc.event, tc.verbose, err, r, tc.want)
		}
	}
}

// TestAskPolicy: an ask on a host that cannot ask is a deny by default,
// an allow when the policy says so, and stderr says which.
func TestAskPolicy(t *testing.T) {
	eng := loadEngine(t)
	h, _ := hosts.New().Lookup("crush")
	raw, _ := shellPayload(t, "crush", "git push")
	ev, _ := h.Decode(raw, "")
	r, _ := protocol.Handle(context.Background(), eng, ev, protocol.Options{})
	if !strings.Contains(string(r.Stdout), `"decision":"deny"`) || !strings.Contains(r.Stderr, "ask mapped to deny") ||
		!strings.Contains(string(r.Stdout), "pushing needs a human") {
		t.Errorf("default: %s / %s", r.Stdout, r.Stderr)
	}
	r, _ = protocol.Handle(context.Background(), eng, ev, protocol.Options{Ask: protocol.AskAllow})
	if !strings.Contains(string(r.Stdout), `"decision":"allow"`) || !strings.Contains(r.Stderr, "ask mapped to allow") {
		t.Errorf("allow: %s / %s", r.Stdout, r.Stderr)
	}
}

// TestStopAcrossHosts: a Stop block is each host's way to make the agent
// go on.
func TestStopAcrossHosts(t *testing.T) {
	eng := loadEngine(t)
	for _, tc := range []struct {
		host  string
		raw   map[string]any
		event string
		want  string
	}{
		{"claude", map[string]any{"hook_event_name": "Stop", "session_id": "s1", "stop_hook_active": false}, "", `"decision":"block"`},
		{"codex", map[string]any{"hook_event_name": "Stop", "session_id": "s2", "turn_id": "t", "stop_hook_active": false}, "", `"decision":"block"`},
		{"gemini", map[string]any{"hook_event_name": "AfterAgent", "session_id": "s3", "stop_hook_active": false}, "", `"decision":"block"`},
		{"cursor", map[string]any{"hook_event_name": "stop", "conversation_id": "s4", "stop_hook_active": false}, "", `"followup_message":"run the tests first"`},
	} {
		h, _ := hosts.New().Lookup(tc.host)
		ev, err := h.Decode(tc.raw, tc.event)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := protocol.Handle(context.Background(), eng, ev, protocol.Options{})
		if !strings.Contains(string(r.Stdout), tc.want) {
			t.Errorf("%s: %s", tc.host, r.Stdout)
		}
	}
}

// TestBlockWithoutAnEvent: input that cannot be read is each host's
// block: exit 2 with the reason on stderr, or for Copilot CLI (where no
// exit status blocks) a deny reply.
func TestBlockWithoutAnEvent(t *testing.T) {
	for _, name := range hosts.New().Names() {
		h, _ := hosts.New().Lookup(name)
		r := h.Block(nil, "cannot read")
		switch name {
		case "copilot":
			if r.ExitCode != 0 || !strings.Contains(string(r.Stdout), `"permissionDecision":"deny"`) {
				t.Errorf("%s: %+v", name, r)
			}
		default:
			if r.ExitCode != 2 || r.Stderr != "cannot read" {
				t.Errorf("%s: %+v", name, r)
			}
		}
	}
}

// TestDeferEveryHost: a defer is never dropped. Claude Code gets it; a
// host that cannot defer gets an ask, and where it cannot ask either the
// ask policy (a deny by default), and stderr says so. A defer beside an
// ask (defer ranks above ask in the merge) is no weaker than the ask.
func TestDeferEveryHost(t *testing.T) {
	for _, name := range hosts.New().Names() {
		h, _ := hosts.New().Lookup(name)
		raw, event := shellPayload(t, name, "deploy prod")
		ev, err := h.Decode(raw, event)
		if err != nil {
			t.Fatalf("%s: decode: %v", name, err)
		}
		out := engine.Outcome{Event: ev.Name, Continue: true, Decision: engine.DecisionDefer, Reason: "decided later"}
		r := h.Reply(ev, out, protocol.Options{})
		blocked, _ := verdict(t, name, r, "deploy prod")
		var m map[string]any
		_ = json.Unmarshal(r.Stdout, &m)
		hso, _ := m["hookSpecificOutput"].(map[string]any)
		switch {
		case name == "claude":
			if hso["permissionDecision"] != "defer" {
				t.Errorf("%s: the defer is not in the reply: %s", name, r.Stdout)
			}
			continue
		case !h.CanAsk():
			if !blocked {
				t.Errorf("%s: a defer on a host that cannot ask ran the call: stdout %s stderr %q", name, r.Stdout, r.Stderr)
			}
		default:
			if blocked || !strings.Contains(string(r.Stdout), `"ask"`) {
				t.Errorf("%s: a defer is not an ask: stdout %s stderr %q", name, r.Stdout, r.Stderr)
			}
		}
		if !strings.Contains(r.Stderr, "cannot defer a decision; defer mapped to ask") {
			t.Errorf("%s: stderr does not say the defer was mapped: %q", name, r.Stderr)
		}
		if !h.CanAsk() {
			// --on-ask=allow lets an ask run: the defer mapped to an ask
			// follows it, and stderr says both.
			r = h.Reply(ev, out, protocol.Options{Ask: protocol.AskAllow})
			if blocked, _ := verdict(t, name, r, "deploy prod"); blocked || !strings.Contains(r.Stderr, "ask mapped to allow") {
				t.Errorf("%s: --on-ask=allow: stdout %s stderr %q", name, r.Stdout, r.Stderr)
			}
		}
	}
}

// TestContextEveryHost: the hooks' additional context on PreToolUse is in
// the reply where the host has a field for it, else said on stderr:
// never dropped silently.
func TestContextEveryHost(t *testing.T) {
	for _, name := range hosts.New().Names() {
		h, _ := hosts.New().Lookup(name)
		raw, event := shellPayload(t, name, "ls")
		ev, err := h.Decode(raw, event)
		if err != nil {
			t.Fatalf("%s: decode: %v", name, err)
		}
		for _, d := range []engine.Decision{"", engine.DecisionAllow, engine.DecisionDeny} {
			out := engine.Outcome{Event: ev.Name, Continue: true, Decision: d, Blocked: d == engine.DecisionDeny, AdditionalContext: "CTX-MARK"}
			r := h.Reply(ev, out, protocol.Options{})
			if !strings.Contains(string(r.Stdout), "CTX-MARK") && !(strings.Contains(r.Stderr, "CTX-MARK") && strings.Contains(r.Stderr, "additional_context")) {
				t.Errorf("%s (%q): the context is dropped: stdout %s stderr %q", name, d, r.Stdout, r.Stderr)
			}
		}
	}
}
