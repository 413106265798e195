package codex_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/codex"
)

// TestGatesReadCodexTrust: the project's trust and the review of each
// hookctl hook are read from Codex's config.toml as Codex keys them.
func TestGatesReadCodexTrust(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	p := codex.New()
	res, err := p.Install(nil, protocol.InstallRequest{Events: []string{"PreToolUse", "Stop"}, Program: "hookctl", Config: "/p/hooks.hcl"})
	if err != nil {
		t.Fatal(err)
	}
	if notes := strings.Join(res.Notes, "\n"); !strings.Contains(notes, "/hooks") || !strings.Contains(notes, "--dangerously-bypass-hook-trust") || !strings.Contains(notes, "trusted project") {
		t.Fatalf("install says nothing of Codex's gates: %s", notes)
	}
	os.MkdirAll(filepath.Join(project, ".codex"), 0o755)
	os.WriteFile(filepath.Join(project, ".codex", "hooks.json"), res.Data, 0o644)
	env := func(k string) string {
		if k == "CODEX_HOME" {
			return home
		}
		return ""
	}
	states := func() map[string]protocol.GateState {
		m := map[string]protocol.GateState{}
		for _, g := range p.Gates(project, env) {
			m[g.Name] = g.State
		}
		return m
	}
	if s := states(); s["Codex project trust"] != protocol.GateClosed || s["Codex hook review"] != protocol.GateClosed {
		t.Fatalf("no config.toml: %v", s)
	}
	hooksJSON := filepath.Join(project, ".codex", "hooks.json")
	cfg := "[projects.\"" + filepath.Dir(project) + "\"]\ntrust_level = \"trusted\"\n\n" +
		"[hooks.state.\"" + hooksJSON + ":pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:00\"\n"
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o644)
	if s := states(); s["Codex project trust"] != protocol.GateOpen || s["Codex hook review"] != protocol.GateClosed {
		t.Fatalf("Stop not reviewed: %v", s)
	}
	cfg += "\n[hooks.state.\"" + hooksJSON + ":stop:0:0\"]\ntrusted_hash = \"sha256:01\"\n"
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o644)
	if s := states(); s["Codex hook review"] != protocol.GateOpen {
		t.Fatalf("all reviewed: %v", s)
	}
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg+"enabled = false\n"), 0o644)
	if s := states(); s["Codex hook review"] != protocol.GateClosed {
		t.Fatalf("a disabled hook: %v", s)
	}
	os.WriteFile(filepath.Join(home, "config.toml"), []byte("[projects.\""+project+"\"]\ntrust_level = \"untrusted\"\n"), 0o644)
	if s := states(); s["Codex project trust"] != protocol.GateClosed {
		t.Fatalf("an untrusted project: %v", s)
	}
	// The user's own hooks.json counts too.
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o644)
	os.WriteFile(filepath.Join(home, "hooks.json"), []byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "hookctl hook --host codex --config /org/policy.hcl"}]}]}}`), 0o644)
	for _, g := range p.Gates(project, env) {
		if g.Name == "Codex hook review" && (g.State != protocol.GateClosed || !strings.Contains(g.Detail, filepath.Join(home, "hooks.json"))) {
			t.Fatalf("the user's unreviewed hook: %+v", g)
		}
	}
}
