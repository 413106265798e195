package hosts_test

import (
	"context"
	"testing"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
)

// TestHostScriptsRunUnchanged: a command hook with protocol = "<host>"
// gets the payload in that host's shape and its reply is read as the
// host reads it, so the host's own scripts keep working under hookctl.
func TestHostScriptsRunUnchanged(t *testing.T) {
	// Each script checks that it got its host's shape (else it exits 1, a
	// failure, which would not deny) and denies rm.
	src := `
hook "crush" {
  event    = "PreToolUse"
  protocol = "crush"
  command  = <<-SH
    in=$(cat)
    case "$in" in *'"event":"PreToolUse"'*) ;; *) echo "not crush's shape: $in" >&2; exit 1;; esac
    case "$in" in *'"hook_event_name"'*) echo "not crush's shape" >&2; exit 1;; esac
    case "$in" in
      *'rm -rf'*) echo '{"version":1,"decision":"deny","reason":"crush script: no rm"}';;
      *'pip install'*) echo '{"version":1,"decision":"allow","updated_input":{"command":"uv pip install x"}}';;
      *'halt'*) echo 'halting' >&2; exit 49;;
      *'exit2'*) echo 'crush exit 2' >&2; exit 2;;
    esac
  SH
}
hook "gemini" {
  event    = "PreToolUse"
  protocol = "gemini"
  command  = <<-SH
    in=$(cat)
    case "$in" in *'"hook_event_name":"BeforeTool"'*) ;; *) exit 1;; esac
    case "$in" in
      *'gemini-deny'*) echo '{"decision":"deny","reason":"gemini script: no"}';;
      *'gemini-exit3'*) echo 'gemini blocks on exit 3' >&2; exit 3;;
      *'gemini-rewrite'*) echo '{"decision":"allow","hookSpecificOutput":{"tool_input":{"command":"echo rewritten"}}}';;
    esac
  SH
}
hook "cursor" {
  event    = "PreToolUse"
  matcher  = "Bash"
  protocol = "cursor"
  command  = <<-SH
    in=$(cat)
    case "$in" in *'"hook_event_name":"beforeShellExecution"'*'"command":"cursor-deny'*) echo '{"permission":"deny","agent_message":"cursor script: no"}'; exit 0;; esac
    case "$in" in *'"hook_event_name":"beforeShellExecution"'*) echo '{"permission":"allow"}'; exit 0;; esac
    exit 1
  SH
}
hook "copilot" {
  event    = "PreToolUse"
  protocol = "copilot"
  command  = <<-SH
    in=$(cat)
    case "$in" in *'"toolArgs":"{'*'copilot-deny'*) echo '{"permissionDecision":"deny","permissionDecisionReason":"copilot script: no"}';; esac
  SH
}
`
	cfg, err := assemble.LoadSource("hooks.hcl", []byte(src), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	eng, err := assemble.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	if err := eng.Load(cfg.Engine); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd, decision, reason, runs string
		halt                        bool
	}{
		{cmd: "rm -rf /", decision: "deny", reason: "crush script: no rm"},
		{cmd: "pip install x", decision: "allow", runs: "uv pip install x"},
		{cmd: "halt now", decision: "deny", reason: "halting", halt: true},
		{cmd: "exit2", decision: "deny", reason: "crush exit 2"},
		{cmd: "gemini-deny", decision: "deny", reason: "gemini script: no"},
		{cmd: "gemini-exit3", decision: "deny", reason: "gemini blocks on exit 3"},
		{cmd: "gemini-rewrite", decision: "allow", runs: "echo rewritten"},
		{cmd: "cursor-deny", decision: "deny", reason: "cursor script: no"},
		{cmd: "copilot-deny", decision: "deny", reason: "copilot script: no"},
		{cmd: "ls", decision: "allow"}, // the Cursor script allows it
	} {
		out, err := eng.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{
			"session_id": "s", "cwd": t.TempDir(), "tool_name": "bash", "tool_input": map[string]any{"command": tc.cmd, "description": "d"}}})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range out.Hooks {
			if h.Status == engine.StatusError {
				t.Errorf("%s: hook %s failed: %s", tc.cmd, h.ID, h.Error)
			}
		}
		if string(out.Decision) != tc.decision || out.Reason != tc.reason || out.Continue == tc.halt {
			t.Errorf("%s: decision %q reason %q continue %v", tc.cmd, out.Decision, out.Reason, out.Continue)
		}
		if tc.runs != "" && out.UpdatedInput["command"] != tc.runs {
			t.Errorf("%s: updated_input %v", tc.cmd, out.UpdatedInput)
		}
		if tc.cmd == "pip install x" && out.UpdatedInput["description"] != "d" {
			t.Errorf("crush's updated_input is a patch: %v", out.UpdatedInput)
		}
	}
}
