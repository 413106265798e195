package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeProcessManagedLayer: hookctl serve loads the managed layer
// beside the project's, and reloads it: the managed deny holds where the
// project allows, its trace names the layer, and a drop-in added while
// serving is loaded at the next reload.
func TestServeProcessManagedLayer(t *testing.T) {
	dir, managed, cfg := managedFixture(t)
	t.Setenv("HOOKCTL_MANAGED_DIR", managed)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "xdg"))
	p := startReplica(t, cfg, "--reload-interval", "20ms")
	fire := func(cmd string) httpReply {
		return request("POST", p.base+"/v1/fire/PreToolUse", `{"tool_name":"Bash","tool_input":{"command":"`+cmd+`"}}`)
	}
	if r := fire("curl https://example.com"); r.code != 200 || r.body["decision"] != "deny" || !strings.Contains(r.raw, `"layer":"managed"`) {
		t.Fatalf("curl: %d %s %v", r.code, r.raw, r.err)
	}
	if r := fire("wget https://example.com"); r.body["decision"] != "allow" {
		t.Fatalf("wget before the drop-in: %d %s %v", r.code, r.raw, r.err)
	}
	if err := os.Mkdir(filepath.Join(managed, "10-more.d"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(managed, "10-more.d", "more.hcl"), `hook "org-no-wget" {
  event    = "PreToolUse"
  when     = "tool_input.command contains 'wget'"
  decision = "deny"
  reason   = "no wget (drop-in)"
}
`)
	var r httpReply
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if r = fire("wget https://example.com"); r.body["decision"] == "deny" {
			break
		}
	}
	if r.body["decision"] != "deny" || r.body["reason"] != "no wget (drop-in)" {
		t.Fatalf("wget after the drop-in: %d %s %v\n%s", r.code, r.raw, r.err, p.stderr)
	}
}

// TestServeTrustedWithAManagedLayer: hookctl serve of a trusted
// configuration (no --allow-untrusted) loads the managed layer above it,
// as hookctl claude does: the project's trust record checks the
// project's files, not the managed layer's, which it never pins (serve
// refused to start: "policy.hcl ... is not pinned by its trust record").
func TestServeTrustedWithAManagedLayer(t *testing.T) {
	dir, managed, cfg := managedFixture(t)
	t.Setenv("HOOKCTL_MANAGED_DIR", managed)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "xdg"))
	t.Setenv("HOOKCTL_TRUST_FILE", filepath.Join(dir, "trusted.json"))
	if out, err := exec.Command("hookctl", "trust", "--config", cfg).CombinedOutput(); err != nil {
		t.Fatalf("trust: %v\n%s", err, out)
	}
	p := startServeArgs(t, "--config", cfg)
	r := request("POST", p.base+"/v1/fire/PreToolUse", `{"tool_name":"Bash","tool_input":{"command":"curl https://example.com"}}`)
	if r.code != 200 || r.body["decision"] != "deny" || !strings.Contains(r.raw, `"layer":"managed"`) {
		t.Fatalf("curl: %d %s %v\n%s", r.code, r.raw, r.err, p.stderr)
	}
	// The project's own file is still checked against its record.
	writeFile(t, cfg, `hook "proj-deny" {
  event    = "PreToolUse"
  decision = "deny"
  reason   = "edited after trust"
}
`)
	time.Sleep(1500 * time.Millisecond)
	if r := request("POST", p.base+"/v1/fire/PreToolUse", `{"tool_name":"Bash","tool_input":{"command":"ls"}}`); strings.Contains(r.raw, "edited after trust") {
		t.Fatalf("an untrusted edit was loaded: %s", r.raw)
	}
}

// TestServeProcessProjectIsServes: Claude Code gives an http hook no
// environment, so under serve dangerous-commands took the payload's cwd,
// which follows the agent's cd, for the project: `rm -rf proj` run from
// proj's parent was denied by `hookctl claude` (rm-project, with
// $CLAUDE_PROJECT_DIR) and allowed by serve. serve's project (its
// $CLAUDE_PROJECT_DIR, else its configuration's project) is now the
// built-ins'.
func TestServeProcessProjectIsServes(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "proj")
	cfg := filepath.Join(proj, ".claude", "hooks.hcl")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, cfg, "builtin \"dangerous-commands\" {}\n")
	p := startServeIn(t, proj, "--config", cfg, "--allow-untrusted")
	payload := `{"session_id":"s","hook_event_name":"PreToolUse","cwd":"` + filepath.Dir(proj) + `","tool_name":"Bash","tool_input":{"command":"rm -rf proj"}}`
	r := request("POST", p.base+"/claude", payload)
	if r.code != 200 || !strings.Contains(r.raw, `"permissionDecision":"deny"`) || !strings.Contains(r.raw, "rm-project") {
		t.Fatalf("serve: %d %s %v\n%s", r.code, r.raw, r.err, p.stderr)
	}
	// serve started elsewhere (a service, one serve for several
	// projects): the project is its configuration's, or, for a
	// configuration in no project, each call's cwd, as before.
	elsewhere := startServeIn(t, t.TempDir(), "--config", cfg, "--allow-untrusted")
	shared := filepath.Join(t.TempDir(), "shared.hcl")
	writeFile(t, shared, "builtin \"dangerous-commands\" {}\n")
	sharedServe := startServeIn(t, t.TempDir(), "--config", shared, "--allow-untrusted")
	inProject := `{"session_id":"s","hook_event_name":"PreToolUse","cwd":"` + proj + `","tool_name":"Bash","tool_input":{"command":"rm -rf ` + proj + `"}}`
	// serve started in the project with a configuration named otherwise
	// or kept outside it (one hooks.hcl for every project): the project
	// is the directory it runs in.
	policy := filepath.Join(proj, "policy.hcl")
	writeFile(t, policy, "builtin \"dangerous-commands\" {}\n")
	outside := filepath.Join(t.TempDir(), "hooks.hcl")
	writeFile(t, outside, "builtin \"dangerous-commands\" {}\n")
	inPolicy := startServeIn(t, proj, "--config", policy, "--allow-untrusted")
	inOutside := startServeIn(t, proj, "--config", outside, "--allow-untrusted")
	for _, c := range []struct {
		base, payload string
	}{{elsewhere.base, payload}, {elsewhere.base, inProject}, {sharedServe.base, inProject}, {inPolicy.base, payload}, {inOutside.base, payload}} {
		if r := request("POST", c.base+"/claude", c.payload); r.code != 200 || !strings.Contains(r.raw, `"permissionDecision":"deny"`) {
			t.Errorf("%s %s: %d %s %v", c.base, c.payload, r.code, r.raw, r.err)
		}
	}
	// As hookctl claude answers it, run by Claude Code.
	cmd := exec.Command("hookctl", "claude", "--config", cfg, "--allow-untrusted")
	cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+proj, "HOOKCTL_CONFIG=")
	cmd.Stdin = strings.NewReader(payload)
	out, _ := cmd.Output()
	if !strings.Contains(string(out), `"permissionDecision":"deny"`) {
		t.Fatalf("hookctl claude: %s", out)
	}
}
