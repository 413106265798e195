package hosts_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/hosts"
)

// TestGeminiFolderTrustGate: Gemini CLI runs a project's hooks only in a
// folder its trust rules trust (the folder, or its parent with
// TRUST_PARENT), or with folder trust turned off; of the other hosts only
// Codex (codex.TestGatesReadCodexTrust) and Claude Code (disableAllHooks,
// doctor_unguarded.txtar) have gates of their own (protocol.Gater).
func TestGeminiFolderTrustGate(t *testing.T) {
	reg := hosts.New()
	p, _ := reg.Lookup("gemini")
	gemini, ok := p.(protocol.Gater)
	if !ok {
		t.Fatal("gemini has no Gates")
	}
	home := t.TempDir()
	project := filepath.Join(t.TempDir(), "work", "proj")
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(home, ".gemini", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	state := func() protocol.GateState {
		gs := gemini.Gates(project, func(k string) string {
			if k == "HOME" {
				return home
			}
			return ""
		})
		if len(gs) != 1 {
			t.Fatalf("gates %v", gs)
		}
		return gs[0].State
	}
	for _, c := range []struct {
		rules string
		want  protocol.GateState
	}{
		{"", protocol.GateClosed},
		{`{"` + project + `": "TRUST_FOLDER"}`, protocol.GateOpen},
		{`{"` + filepath.Dir(project) + `": "TRUST_FOLDER"}`, protocol.GateOpen},
		{`{"` + filepath.Join(filepath.Dir(project), "sibling") + `": "TRUST_PARENT"}`, protocol.GateOpen},
		{`{"` + project + `-other": "TRUST_FOLDER"}`, protocol.GateClosed},
		{`{"` + project + `": "DO_NOT_TRUST"}`, protocol.GateClosed},
		{`not json`, protocol.GateUnknown},
	} {
		if c.rules != "" {
			write("trustedFolders.json", c.rules)
		}
		if got := state(); got != c.want {
			t.Errorf("rules %s: %s, want %s", c.rules, got, c.want)
		}
	}
	write("trustedFolders.json", "{}")
	write("settings.json", `{"security": {"folderTrust": {"enabled": false}}}`)
	if got := state(); got != protocol.GateOpen {
		t.Errorf("folder trust off: %s", got)
	}
	for _, p := range reg.All() {
		if _, ok := p.(protocol.Gater); ok != (p.Name() == "gemini" || p.Name() == "codex" || p.Name() == "claude") {
			t.Errorf("%s: Gater %v", p.Name(), ok)
		}
	}
}
