package assemble_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
)

// TestCommandHooksRunInTheProject: a command hook runs where Claude Code
// runs hooks, the project ($CLAUDE_PROJECT_DIR, else the payload's cwd),
// not the configuration's directory: a guard named by a project-relative
// path is found and denies, and what it writes lands in the project. The
// cwd attribute, relative to the configuration, overrides.
func TestCommandHooksRunInTheProject(t *testing.T) {
	project, confDir := t.TempDir(), t.TempDir()
	guard := "#!/bin/sh\nmkdir -p logs\ncat > logs/last.json\ncase \"$(cat logs/last.json)\" in *'rm -rf'*) echo 'rm -rf is not allowed here' >&2; exit 2;; esac\nexit 0\n"
	if err := os.MkdirAll(filepath.Join(project, ".claude", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".claude", "hooks", "guard.sh"), []byte(guard), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(confDir, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(confDir, "tools", "where.sh"), []byte("#!/bin/sh\ncat >/dev/null\npwd\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(confDir, "hooks.hcl")
	if err := os.WriteFile(path, []byte(`
hook "guard" {
  event   = "PreToolUse"
  matcher = "Bash"
  command = "sh .claude/hooks/guard.sh"
}
hook "where" {
  event   = "UserPromptSubmit"
  command = "sh where.sh"
  cwd     = "tools"
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	eng, err := assemble.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	loadInto(t, eng, path)

	t.Setenv("CLAUDE_PROJECT_DIR", "")
	os.Unsetenv("CLAUDE_PROJECT_DIR")
	payload := map[string]any{"cwd": project, "tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /"}}
	out := fire(t, eng, "PreToolUse", payload)
	if out.Decision != engine.DecisionDeny || !strings.Contains(out.Reason, "rm -rf is not allowed here") {
		t.Fatalf("the project-relative guard did not deny: %+v", out)
	}
	if _, err := os.Stat(filepath.Join(project, "logs", "last.json")); err != nil {
		t.Fatalf("the hook's ./logs did not land in the project: %v", err)
	}

	// $CLAUDE_PROJECT_DIR wins over the payload's cwd.
	t.Setenv("CLAUDE_PROJECT_DIR", project)
	out = fire(t, eng, "PreToolUse", map[string]any{"cwd": t.TempDir(), "tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf ~"}})
	if out.Decision != engine.DecisionDeny {
		t.Fatalf("with CLAUDE_PROJECT_DIR: %+v", out)
	}

	// cwd = "tools" is relative to the configuration.
	out = fire(t, eng, "UserPromptSubmit", map[string]any{"cwd": project, "prompt": "hi"})
	want, _ := filepath.EvalSymlinks(filepath.Join(confDir, "tools"))
	if got := strings.TrimSpace(out.AdditionalContext); got != want && got != filepath.Join(confDir, "tools") {
		t.Fatalf("cwd hook ran in %q, want %q", got, want)
	}
}
