package assemble_test

import (
	"context"
	"os"
	"os/exec"
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

// TestPublicHookPatterns reproduces, with scripts of our own, what public
// Claude Code hook scripts rely on: git checks run from the project, a
// .claude/*.local.md state file read from the project, and stop_hook_active
// honoured; with the configuration kept elsewhere. Each gives the verdict
// Claude Code gives it.
func TestPublicHookPatterns(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	project, confDir := t.TempDir(), t.TempDir()
	gitRun := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = project
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	gitRun("init", "-q", "-b", "main")
	files := map[string]string{
		// Refuse to stop with uncommitted work, unless Claude Code already
		// continued once because of a hook (stop_hook_active).
		".claude/hooks/dirty-stop.sh": `#!/bin/sh
input=$(cat)
case "$input" in *'"stop_hook_active":true'*) exit 0;; esac
if [ -n "$(git status --porcelain)" ]; then
  printf '{"decision":"block","reason":"uncommitted changes: commit them first"}'
fi
exit 0
`,
		// No push to the branch named in the project's local state file.
		".claude/hooks/branch-guard.sh": `#!/bin/sh
input=$(cat)
protected=$(sed -n 's/^protected: *//p' .claude/guard.local.md)
branch=$(git rev-parse --abbrev-ref HEAD)
case "$input" in *"git push"*)
  if [ "$branch" = "$protected" ]; then echo "pushing to $protected is not allowed" >&2; exit 2; fi;;
esac
exit 0
`,
		".claude/guard.local.md": "---\nprotected: main\n---\n",
		"README.md":              "project\n",
	}
	for name, text := range files {
		p := filepath.Join(project, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	gitRun("add", "-A")
	gitRun("commit", "-q", "-m", "init")
	path := filepath.Join(confDir, "hooks.hcl")
	if err := os.WriteFile(path, []byte(`
hook "dirty-stop" {
  event   = "Stop"
  command = "sh .claude/hooks/dirty-stop.sh"
}
hook "branch-guard" {
  event   = "PreToolUse"
  matcher = "Bash"
  command = "sh .claude/hooks/branch-guard.sh"
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
	at := func(p map[string]any) map[string]any { p["cwd"] = project; p["session_id"] = "s"; return p }

	if out := fire(t, eng, "Stop", at(map[string]any{"stop_hook_active": false})); out.Decision != "" {
		t.Fatalf("a clean tree blocked the stop: %+v", out)
	}
	if err := os.WriteFile(filepath.Join(project, "new.go"), []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := fire(t, eng, "Stop", at(map[string]any{"stop_hook_active": false})); out.Decision != engine.DecisionBlock || !strings.Contains(out.Reason, "uncommitted changes") {
		t.Fatalf("a dirty tree did not block the stop (git ran elsewhere?): %+v", out)
	}
	if out := fire(t, eng, "Stop", at(map[string]any{"stop_hook_active": true})); out.Decision != "" {
		t.Fatalf("stop_hook_active was not honoured: %+v", out)
	}
	out := fire(t, eng, "PreToolUse", at(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "git push origin main"}}))
	if out.Decision != engine.DecisionDeny || !strings.Contains(out.Reason, "pushing to main is not allowed") {
		t.Fatalf("the state-file guard did not deny: %+v", out)
	}
	if out := fire(t, eng, "PreToolUse", at(map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "git status"}})); out.Decision != "" {
		t.Fatalf("an unrelated command was decided: %+v", out)
	}
}
