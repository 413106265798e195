package claude_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/protocol/claude"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLoadPluginReadsEveryDeclaration: hooks/hooks.json, the files the
// manifest lists and its inline hooks all count; a file outside the
// plugin is refused.
func TestLoadPluginReadsEveryDeclaration(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".claude-plugin/plugin.json": `{"name": "p", "hooks": ["./extra/more.json"]}`,
		"hooks/hooks.json":           `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/a.sh"}]}]}}`,
		"extra/more.json":            `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "python3", "args": ["${CLAUDE_PLUGIN_ROOT}/s.py"]}]}]}}`,
	})
	p, err := claude.LoadPlugin(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "p" || len(p.Sources) != 2 {
		t.Fatalf("%+v", p)
	}
	text, warnings, err := claude.ImportWith(p.Settings, claude.ImportOptions{Env: claude.PluginEnv(p.Root, "/data/p")})
	if err != nil || len(warnings) != 0 {
		t.Fatalf("%v %v", warnings, err)
	}
	// The shell form keeps the variable (the environment sets it); the
	// exec form has it replaced, as Claude Code does.
	if !strings.Contains(text, `"$${CLAUDE_PLUGIN_ROOT}/a.sh"`) || !strings.Contains(text, `"`+p.Root+`/s.py"`) ||
		strings.Count(text, "CLAUDE_PLUGIN_ROOT = \""+p.Root+"\"") != 2 || !strings.Contains(text, `CLAUDE_PLUGIN_DATA = "/data/p"`) {
		t.Fatalf("imported:\n%s", text)
	}

	inline := t.TempDir()
	writeFiles(t, inline, map[string]string{
		".claude-plugin/plugin.json": `{"name": "i", "hooks": {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}}`,
	})
	if p, err := claude.LoadPlugin(inline); err != nil || !strings.Contains(string(p.Settings), `"Stop"`) {
		t.Fatalf("inline hooks: %v %v", p, err)
	}

	out := t.TempDir()
	writeFiles(t, out, map[string]string{".claude-plugin/plugin.json": `{"name": "o", "hooks": "../../etc/hooks.json"}`})
	if _, err := claude.LoadPlugin(out); err == nil || !strings.Contains(err.Error(), "outside the plugin") {
		t.Fatalf("a hooks file outside the plugin: %v", err)
	}
}

// TestImportWarnsOfUnresolvedVariables: every ${VAR} nothing sets is
// named.
func TestImportWarnsOfUnresolvedVariables(t *testing.T) {
	_, warnings, err := claude.Import([]byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/x.sh ${FOO} ${CLAUDE_PROJECT_DIR} ${user_config.key}"}]}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(warnings, "\n")
	for _, v := range []string{"${CLAUDE_PLUGIN_ROOT}", "${FOO}", "${user_config.key}"} {
		if !strings.Contains(all, v) {
			t.Errorf("no warning names %s: %s", v, all)
		}
	}
	if strings.Contains(all, "CLAUDE_PROJECT_DIR") {
		t.Errorf("hookctl sets CLAUDE_PROJECT_DIR: %s", all)
	}
}

func TestValidPluginName(t *testing.T) {
	for _, ok := range []string{"guard", "my-plugin", "p_1", "v1.2", "A"} {
		if err := claude.ValidPluginName(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "a/b", `a\b`, "..", "a..b", ".hidden", "-x", "a b", "a\nb", "a\x00b", "../../etc/x", "é"} {
		if err := claude.ValidPluginName(bad); !errors.Is(err, claude.ErrPluginName) {
			t.Errorf("%q: %v, want ErrPluginName", bad, err)
		}
	}
}
