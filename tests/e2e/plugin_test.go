package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pluginDenyScript is a plugin's PreToolUse guard written the way public
// plugin scripts are: it reads the hook payload on stdin and denies a
// recursive delete with exit 2, the reason on stderr. It runs only where
// CLAUDE_PLUGIN_ROOT names the plugin, as Claude Code sets it.
const pluginDenyScript = `#!/bin/sh
input=$(cat)
case "$input" in
  *"rm -rf"*) echo "E2E-PLUGIN-DENY: rm -rf blocked by the deny-rm plugin" >&2; exit 2;;
esac
exit 0
`

// writePlugin lays out a Claude Code plugin in dir: .claude-plugin/plugin.json
// and hooks/hooks.json registering ${CLAUDE_PLUGIN_ROOT}/scripts/deny-rm.sh
// on PreToolUse for Bash.
func writePlugin(t *testing.T, dir string) {
	t.Helper()
	files := []struct {
		path string
		body string
		mode os.FileMode
	}{
		{".claude-plugin/plugin.json", `{"name": "deny-rm", "version": "1.0.0", "description": "Blocks recursive deletes"}`, 0o644},
		{"hooks/hooks.json", `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/scripts/deny-rm.sh", "timeout": 10}]}]}}`, 0o644},
		{"scripts/deny-rm.sh", pluginDenyScript, 0o755},
	}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.body), f.mode); err != nil {
			t.Fatal(err)
		}
	}
}

// lastToolResult returns the text of the tool_result in the last message
// of the i-th model request.
func (s session) lastToolResult(i int) (string, bool) {
	if i >= len(s.requests) {
		return "", false
	}
	msgs, _ := s.requests[i]["messages"].([]any)
	if len(msgs) == 0 {
		return "", false
	}
	last, _ := msgs[len(msgs)-1].(map[string]any)
	raw, ok := toolResult(last["content"])
	if !ok {
		return "", false
	}
	var text string
	if json.Unmarshal([]byte(raw), &text) == nil {
		return text, true
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal([]byte(raw), &blocks) == nil {
		var b strings.Builder
		for _, bl := range blocks {
			b.WriteString(bl.Text)
		}
		return b.String(), true
	}
	return raw, true
}

// TestClaudeCodePlugin: a Claude Code plugin's hooks, imported with
// `hookctl import claude PLUGIN_DIR`, run under `hookctl claude` the way
// Claude Code runs them — with CLAUDE_PLUGIN_ROOT set, so the plugin's
// ${CLAUDE_PLUGIN_ROOT}/scripts/deny-rm.sh is found. Through the real CLI:
// its rm -rf is denied (the target survives, the model gets the script's
// reason) and echo runs.
func TestClaudeCodePlugin(t *testing.T) {
	t.Parallel()
	su := prepare(t)
	opts := func(prompt string) runOpts {
		return runOpts{prompt: prompt, prepareProject: func(project string) string {
			plugin := filepath.Join(t.TempDir(), "deny-rm")
			writePlugin(t, plugin)
			config := filepath.Join(project, ".claude", "hooks.hcl")
			if err := os.MkdirAll(filepath.Dir(config), 0o755); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(su.hookctl, "import", "claude", plugin, "-o", config,
				"--plugin-data", filepath.Join(t.TempDir(), "plugin-data"))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("hookctl import claude %s: %v: %s", plugin, err, out)
			}
			return config
		}}
	}
	t.Run("plugin denies rm -rf", func(t *testing.T) {
		victim := filepath.Join(t.TempDir(), "victim")
		if err := os.MkdirAll(filepath.Join(victim, "keep"), 0o755); err != nil {
			t.Fatal(err)
		}
		s, _ := runWith(t, su, opts("E2E-RUN: rm -rf "+victim))
		if _, err := os.Stat(filepath.Join(victim, "keep")); err != nil {
			t.Fatalf("the target of rm -rf is gone: %v\n%s", err, s.stream)
		}
		const reason = "E2E-PLUGIN-DENY: rm -rf blocked by the deny-rm plugin"
		if len(s.requests) < 2 || !strings.Contains(s.requestText(1), reason) {
			t.Fatalf("the model was not told the plugin's reason %q: %s\n%s", reason, s.requestText(1), s.stream)
		}
	})
	t.Run("echo runs", func(t *testing.T) {
		s, _ := runWith(t, su, opts("E2E-RUN: echo hi"))
		got, ok := s.lastToolResult(1)
		if !ok || strings.TrimSpace(got) != "hi" {
			t.Fatalf("echo hi did not run: tool result %q (found %v)\n%s", got, ok, s.stream)
		}
	})
}
