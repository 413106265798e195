package claude_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol/claude"
	"github.com/hookctl/hookctl/stdlib"
)

// TestImportKeepsBehaviour imports a Claude Code settings file and checks
// that the resulting hooks.hcl decides what the original hooks decide.
func TestImportKeepsBehaviour(t *testing.T) {
	dir := t.TempDir()
	hooks := filepath.Join(dir, "hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"block_exit2.sh", "deny_json.py", "context.sh"} {
		b, err := os.ReadFile(hookPath(f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(hooks, f), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	settings := `{
  "permissions": {"allow": ["Bash(ls:*)"]},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "\"${CLAUDE_PROJECT_DIR}\"/hooks/block_exit2.sh", "timeout": 10},
        {"type": "command", "command": "python3", "args": ["` + filepath.Join(hooks, "deny_json.py") + `"], "if": "Bash(sudo *)"}
      ]},
      {"matcher": "mcp__memory__.*", "hooks": [{"type": "mcp_tool", "server": "memory", "tool": "check"}]}
    ],
    "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "$CLAUDE_PROJECT_DIR/hooks/context.sh", "async": false}]}],
    "PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "http", "url": "http://127.0.0.1:9/x", "headers": {"Authorization": "Bearer $TOKEN"}, "allowedEnvVars": ["TOKEN"]}]}]
  }
}`
	out, warnings, err := claude.Import([]byte(settings))
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "mcp_tool") {
		t.Fatalf("warnings %v", warnings)
	}
	for _, want := range []string{`"$${CLAUDE_PROJECT_DIR}`, `timeout    = "10s"`, `permissionRule(tool_name, tool_input, \"Bash(sudo *)\")`, `allowed_env = ["TOKEN"]`, "# pretooluse-mcp-memory"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	t.Setenv("CLAUDE_PROJECT_DIR", dir)
	t.Setenv("TOKEN", "t")
	cfg, err := assemble.LoadSource("hooks.hcl", []byte(out), dir)
	if err != nil {
		t.Fatalf("the imported configuration does not load:\n%v\n%s", err, out)
	}
	defer cfg.Close()
	e, err := engine.New(engine.WithConditionOptions(conditions.WithFunctions(stdlib.ConditionFunctions()...)))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	if err := e.Load(cfg.Engine); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		event, cmd, decision string
	}{
		{"PreToolUse", "rm -rf /tmp/x", "deny"}, // exit 2 hook
		{"PreToolUse", "sudo ls", "deny"},       // JSON hook behind its if rule
		{"PreToolUse", "ls", ""},
	}
	for _, tc := range cases {
		o, err := e.Fire(context.Background(), engine.Event{Name: tc.event, Payload: bashPayload(tc.cmd)})
		if err != nil {
			t.Fatal(err)
		}
		if string(o.Decision) != tc.decision {
			t.Errorf("%s: decision %q, want %q (%+v)", tc.cmd, o.Decision, tc.decision, o.Hooks)
		}
	}
	o, _ := e.Fire(context.Background(), engine.Event{Name: "UserPromptSubmit", Payload: map[string]any{"prompt": "x"}})
	if o.AdditionalContext != "branch: main" {
		t.Fatalf("%+v", o)
	}
}

// TestImportedRelativeProgramsRunFromTheProject: an args-form hook whose
// program is relative (.claude/hooks/x.sh) runs from the project however
// deep the imported hooks.hcl is written, as in Claude Code.
func TestImportedRelativeProgramsRunFromTheProject(t *testing.T) {
	project := t.TempDir()
	if err := os.MkdirAll(filepath.Join(project, ".claude", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	guard := "#!/bin/sh\ncat >/dev/null\necho \"blocked: $1\" >&2\nexit 2\n"
	if err := os.WriteFile(filepath.Join(project, ".claude", "hooks", "guard.sh"), []byte(guard), 0o755); err != nil {
		t.Fatal(err)
	}
	out, _, err := claude.Import([]byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":".claude/hooks/guard.sh","args":["it's mine"]}]}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := assemble.LoadSource("hooks.hcl", []byte(out), filepath.Join(project, ".claude"))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	defer cfg.Close()
	e := newEngine(t)
	if err := e.Load(cfg.Engine); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CLAUDE_PROJECT_DIR", project)
	o, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}})
	if err != nil || o.Decision != engine.DecisionDeny || o.Reason != "blocked: it's mine" {
		t.Fatalf("%v %+v\n%s", err, o, out)
	}
}

// TestImportKeepsTheShell: a settings hook's "shell" (Claude Code's bash
// or powershell) is kept on its command line; on an argv, which runs
// without a shell, it is not; one hookctl does not know is warned of.
func TestImportKeepsTheShell(t *testing.T) {
	out, warnings, err := claude.Import([]byte(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "command": "Write-Error no; exit 2", "shell": "powershell"},
  {"type": "command", "command": "[[ -n x ]] && exit 2", "shell": "bash"},
  {"type": "command", "command": "/usr/bin/true", "args": ["x"], "shell": "bash"},
  {"type": "command", "command": "exit 0", "shell": "fish"}
]}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(out, `shell      = "powershell"`) != 1 || strings.Count(out, `shell      = "bash"`) != 1 || strings.Contains(out, "fish") {
		t.Errorf("shells:\n%s", out)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], `shell "fish"`) {
		t.Errorf("warnings: %q", warnings)
	}
	cfg, err := assemble.LoadSource("hooks.hcl", []byte(out), t.TempDir())
	if err != nil {
		t.Fatalf("the import does not load: %v\n%s", err, out)
	}
	cfg.Close()
}
