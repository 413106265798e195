package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/daemon"
	"github.com/hookctl/hookctl/runtime"
)

// TestDaemonManagedLayer: the daemon (hookctl-client's calls, engines
// cached) loads the managed layer beside the project's: the managed deny
// holds where the project allows, and a managed file made writable is
// refused on the next call, cached engine or not, with the event blocked.
func TestDaemonManagedLayer(t *testing.T) {
	dir, managed, project := managedFixture(t)
	policy := filepath.Join(managed, "policy.hcl")
	t.Setenv("HOOKCTL_STATE_DIR", t.TempDir())
	env := []string{"HOOKCTL_MANAGED_DIR=" + managed, "XDG_CONFIG_HOME=" + filepath.Join(dir, "xdg"), "HOOKCTL_ALLOW_UNTRUSTED=1", "PATH=" + os.Getenv("PATH")}
	cache := settledCache()
	defer cache.Close()
	rt := newHookRuntime(runtime.Hosts(), cache, nil)
	call := func(cmd string) daemon.Response {
		req := &daemon.Request{Hook: daemon.Hook{Command: "claude", Config: project},
			Stdin: []byte(`{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/tmp","tool_name":"Bash","tool_input":{"command":"` + cmd + `"}}`),
			Cwd:   dir, Env: env}
		return runCall(context.Background(), req, rt)
	}
	for range 2 { // loaded, then cached
		resp := call("curl https://example.com")
		if resp.Code != 0 || !strings.Contains(string(resp.Stdout), `"permissionDecision":"deny"`) || !strings.Contains(string(resp.Stdout), "no curl, says the org") {
			t.Fatalf("curl: exit %d stdout %s stderr %s", resp.Code, resp.Stdout, resp.Stderr)
		}
		if resp := call("ls"); !strings.Contains(string(resp.Stdout), `"permissionDecision":"allow"`) {
			t.Fatalf("ls: exit %d stdout %s stderr %s", resp.Code, resp.Stdout, resp.Stderr)
		}
	}
	if err := os.Chmod(policy, 0o666); err != nil {
		t.Fatal(err)
	}
	resp := call("ls")
	if !strings.Contains(string(resp.Stdout), `"permissionDecision":"deny"`) || !strings.Contains(string(resp.Stdout), "policy.hcl is refused") {
		t.Fatalf("writable managed file: exit %d stdout %s stderr %s", resp.Code, resp.Stdout, resp.Stderr)
	}
}

// managedFixture writes a managed layer whose policy.hcl denies curl
// and a project hooks.hcl that allows everything, in a directory of the
// test's; it skips unless run as root (managed files must belong to
// another user than the one running hookctl).
func managedFixture(t *testing.T) (dir, managed, project string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("managed files must belong to another user than the one running hookctl: run as root")
	}
	dir = t.TempDir()
	managed = filepath.Join(dir, "managed")
	if err := os.Mkdir(managed, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(managed, "policy.hcl"), `hook "org-no-curl" {
  event    = "PreToolUse"
  when     = "tool_input.command contains 'curl'"
  decision = "deny"
  reason   = "no curl, says the org"
}
`)
	project = filepath.Join(dir, "hooks.hcl")
	writeFile(t, project, `hook "proj-allow" {
  event    = "PreToolUse"
  decision = "allow"
}
`)
	return dir, managed, project
}
