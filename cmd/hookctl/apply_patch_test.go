package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// applyPatchConfigs guard .env files two ways: the secret-files built-in,
// and a declarative hook on Write|Edit reading tool_input.file_path.
var applyPatchConfigs = map[string]string{
	"secret-files": `
builtin "secret-files" {
  mode = "deny"
}
`,
	"file_path condition": `
hook "no-env" {
  event    = "PreToolUse"
  matcher  = "Write|Edit"
  when     = "tool_input.file_path contains '.env'"
  decision = "deny"
  reason   = "no .env edits"
}
`,
}

// codexApplyPatch is Codex's PreToolUse for an apply_patch call.
func codexApplyPatch(t *testing.T, patchText string) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"hook_event_name": "PreToolUse", "session_id": "s", "turn_id": "t", "cwd": t.TempDir(),
		"model": "gpt-5", "permission_mode": "default", "tool_use_id": "call_1",
		"tool_name": "apply_patch", "tool_input": map[string]any{"command": patchText},
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCodexApplyPatchGuarded: a Codex apply_patch that creates .env is
// denied through `hookctl hook --host codex` and serve's /hook/codex,
// by secret-files and by a condition on tool_input.file_path; the same
// patch of an ordinary file runs. The patch text names the file only in
// tool_input.command.
func TestCodexApplyPatchGuarded(t *testing.T) {
	for name, hooks := range applyPatchConfigs {
		t.Run(name, func(t *testing.T) {
			base := startServeWith(t, hooks)
			cfg := filepath.Join(t.TempDir(), "hooks.hcl")
			if err := os.WriteFile(cfg, []byte(hooks), 0o600); err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				file string
				deny bool
			}{{".env", true}, {"config/.env.local", true}, {"a.txt", false}} {
				payload := codexApplyPatch(t, "*** Begin Patch\n*** Add File: "+c.file+"\n+TOKEN=x\n*** End Patch\n")
				var stdout, stderr bytes.Buffer
				code := run([]string{"hook", "--host", "codex", "--config", cfg, "--allow-untrusted"}, strings.NewReader(payload), &stdout, &stderr)
				denied := code == 0 && strings.Contains(stdout.String(), `"permissionDecision":"deny"`)
				if denied != c.deny || code != 0 {
					t.Errorf("hook --host codex, patch adding %s: exit %d %q %q, want deny=%v", c.file, code, stdout.String(), stderr.String(), c.deny)
				}
				status, body := post(t, base+"/hook/codex", payload)
				if status != http.StatusOK || body != stdout.String() || strings.Contains(body, `"permissionDecision":"deny"`) != c.deny {
					t.Errorf("/hook/codex, patch adding %s: %d %q, want %q", c.file, status, body, stdout.String())
				}
			}
		})
	}
}

// TestCodexShellApplyPatchGuarded: apply_patch run through Codex's shell
// tool is denied through `hookctl hook --host codex` wherever it stands in
// the line, and when its patch is not literal text of the line.
func TestCodexShellApplyPatchGuarded(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "hooks.hcl")
	if err := os.WriteFile(cfg, []byte(applyPatchConfigs["secret-files"]), 0o600); err != nil {
		t.Fatal(err)
	}
	const env = "*** Begin Patch\n*** Add File: .env\n+A=1\n*** End Patch\n"
	for _, c := range []struct {
		command string
		deny    bool
	}{
		{"X=1 apply_patch <<'EOF'\n" + env + "EOF", true},
		{"true && 'apply_patch' <<'EOF'\n" + env + "EOF", true},
		{"bash -lc 'apply_patch <<EOF\n" + env + "EOF'", true},
		{"cat > /tmp/p <<'EOF'\n" + env + "EOF\napply_patch < /tmp/p", true},
		{"apply_patch <<EOF\n*** Begin Patch\n*** Add File: .e${X}nv\n+A=1\n*** End Patch\nEOF", true},
		{"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a.txt\n+A=1\n*** End Patch\nEOF", false},
	} {
		b, err := json.Marshal(map[string]any{
			"hook_event_name": "PreToolUse", "session_id": "s", "turn_id": "t", "cwd": t.TempDir(),
			"tool_name": "Bash", "tool_input": map[string]any{"command": c.command},
		})
		if err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		code := run([]string{"hook", "--host", "codex", "--config", cfg, "--allow-untrusted"}, bytes.NewReader(b), &stdout, &stderr)
		denied := code == 0 && strings.Contains(stdout.String(), `"permissionDecision":"deny"`)
		if denied != c.deny || code != 0 {
			t.Errorf("%q: exit %d %q %q, want deny=%v", c.command, code, stdout.String(), stderr.String(), c.deny)
		}
	}
}

// TestCodexShellToolNamesGuarded: Codex's exec_command (its command line
// in cmd) and shell_command are guarded as Bash through `hookctl hook
// --host codex`: reading .env and applying a patch that adds it are denied.
func TestCodexShellToolNamesGuarded(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "hooks.hcl")
	if err := os.WriteFile(cfg, []byte(applyPatchConfigs["secret-files"]), 0o600); err != nil {
		t.Fatal(err)
	}
	const doc = "X=1 apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: .env\n+A=1\n*** End Patch\nEOF"
	for _, c := range []struct {
		tool  string
		input map[string]any
		deny  bool
	}{
		{"exec_command", map[string]any{"cmd": "cat .env"}, true},
		{"exec_command", map[string]any{"cmd": doc}, true},
		{"shell_command", map[string]any{"command": "cat .env"}, true},
		{"shell_command", map[string]any{"command": doc}, true},
		{"exec_command", map[string]any{"cmd": "ls"}, false},
	} {
		b, err := json.Marshal(map[string]any{
			"hook_event_name": "PreToolUse", "session_id": "s", "turn_id": "t", "cwd": t.TempDir(),
			"tool_name": c.tool, "tool_input": c.input,
		})
		if err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		code := run([]string{"hook", "--host", "codex", "--config", cfg, "--allow-untrusted"}, bytes.NewReader(b), &stdout, &stderr)
		denied := code == 0 && strings.Contains(stdout.String(), `"permissionDecision":"deny"`)
		if denied != c.deny || code != 0 {
			t.Errorf("%s %v: exit %d %q %q, want deny=%v", c.tool, c.input, code, stdout.String(), stderr.String(), c.deny)
		}
	}
}
