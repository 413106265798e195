package command_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/handler/command"
	"github.com/hookctl/hookctl/protocol/opta"
)

// TestCommandEnvironment: every command hook gets HOOKCTL_EVENT,
// HOOKCTL_TOOL_NAME (as the host named it), HOOKCTL_TOOL (canonical) and
// HOOKCTL_SESSION_ID.
func TestCommandEnvironment(t *testing.T) {
	out := filepath.Join(t.TempDir(), "env")
	e := newEngine(t)
	if err := e.Register(cmdHook(t, "h", "PreToolUse", command.Spec{
		Shell: `cat >/dev/null; echo "$HOOKCTL_EVENT|$HOOKCTL_TOOL_NAME|$HOOKCTL_TOOL|$HOOKCTL_SESSION_ID|$HOOKCTL_HOOK" > ` + out})); err != nil {
		t.Fatal(err)
	}
	p := bashPayload("ls")
	p["tool_name"] = "run_shell_command"
	if _, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: p}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	if got := strings.TrimSpace(string(b)); got != "PreToolUse|run_shell_command|Bash|s1|h" {
		t.Fatalf("env: %q", got)
	}
}

// TestOptaConvention: with protocol opta the hook gets OPTA_EVENT,
// OPTA_TOOL_NAME, OPTA_TOOL_ARGS (JSON, without file contents) and
// OPTA_SESSION_ID; any non-zero exit on a tool call's gate denies it with
// stderr as the reason; stdout is not read; elsewhere a non-zero exit is a
// failure.
func TestOptaConvention(t *testing.T) {
	dir := t.TempDir()
	envFile := filepath.Join(dir, "env")
	script := `cat >/dev/null; printf '%s\n%s\n%s\n%s\n' "$OPTA_EVENT" "$OPTA_TOOL_NAME" "$OPTA_SESSION_ID" "$OPTA_TOOL_ARGS" > ` + envFile + `
echo '{"decision":"allow"}'
case "$OPTA_TOOL_ARGS" in *forbidden*) echo "forbidden path" >&2; exit 3;; esac
[ "$OPTA_EVENT" = tool.post ] && exit 1
exit 0`
	e := newEngine(t)
	for _, ev := range []string{"PreToolUse", "PostToolUse"} {
		if err := e.Register(cmdHook(t, "opta-"+ev, ev, command.Spec{Shell: script, Protocol: opta.New()})); err != nil {
			t.Fatal(err)
		}
	}
	write := map[string]any{"session_id": "s9", "tool_name": "write", "tool_input": map[string]any{"file_path": "/tmp/a.txt", "content": strings.Repeat("SECRET ", 100)}}
	out, _ := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: write})
	if out.Decision != "" {
		t.Fatalf("exit 0 decided (stdout must not be read): %+v", out)
	}
	b, _ := os.ReadFile(envFile)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 4 || lines[0] != "tool.pre" || lines[1] != "write" || lines[2] != "s9" {
		t.Fatalf("env: %q", lines)
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(lines[3]), &args); err != nil || args["file_path"] != "/tmp/a.txt" || strings.Contains(lines[3], "SECRET") {
		t.Fatalf("OPTA_TOOL_ARGS: %v %q", err, lines[3])
	}
	forbidden := map[string]any{"session_id": "s9", "tool_name": "Bash", "tool_input": map[string]any{"command": "cat /forbidden"}}
	out, _ = e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: forbidden})
	if out.Decision != engine.DecisionDeny || out.Reason != "forbidden path" {
		t.Fatalf("non-zero exit on tool.pre: %+v", out)
	}
	out, _ = e.Fire(context.Background(), engine.Event{Name: "PostToolUse", Payload: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}})
	if tr, _ := out.Hook("opta-PostToolUse"); tr.Status != engine.StatusError || out.Blocked {
		t.Fatalf("non-zero exit on tool.post: %+v", out)
	}
	// An unknown protocol name is refused where names are read: the
	// protocol attribute (assemble's TestCommandOnlyAttributes).
}
