package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// escapingJobHooks: a hook whose promise job never ends, spelled so that no
// scan of the source finds "Promise" or "then", before a deny of rm -rf. Both
// are JavaScript hooks of one pool, so a fire runs them nested in one
// entered runtime.
const escapingJobHooks = `
hook "spin" {
  event    = "PreToolUse"
  priority = 100
  timeout  = "300ms"
  js       = <<-JS
    globalThis["Pro" + "mise"].resolve()["th" + "en"](() => { for (;;) {} });
    return;
  JS
}
hook "no-rm" {
  event   = "PreToolUse"
  matcher = "Bash"
  js      = <<-JS
    if (/\brm\s+-rf\b/.test(event.tool_input.command)) return { decision: "deny", reason: "no rm -rf" };
  JS
}
`

const rmRfPayload = `{"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`

// TestClaudeProcessEndsDespiteAnEndlessJob: a real `hookctl claude` whose
// first hook queues a promise job that loops forever answers the deny, and
// exits, instead of running the job after every hook with no deadline
// until Claude Code gives up and lets the tool run. The minute is a guard
// against a hang, not a measure.
func TestClaudeProcessEndsDespiteAnEndlessJob(t *testing.T) {
	bin, err := exec.LookPath("hookctl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "hooks.hcl")
	writeFile(t, cfg, escapingJobHooks)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "claude", "--config", cfg, "--allow-untrusted")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOOKCTL_CONFIG=", "HOOKCTL_STATE_DIR="+filepath.Join(dir, "state"), "HOOKCTL_TRUST_FILE="+filepath.Join(dir, "trusted.json"))
	cmd.Stdin = strings.NewReader(rmRfPayload)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("hookctl claude never answered: the job ran on after its hook\nstderr: %s", stderr.String())
	}
	var reply struct {
		HookSpecificOutput struct {
			PermissionDecision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if jerr := json.Unmarshal(stdout.Bytes(), &reply); jerr != nil || reply.HookSpecificOutput.PermissionDecision != "deny" {
		t.Fatalf("exit %v, stdout %q (%v), want the deny\nstderr: %s", err, stdout.String(), jerr, stderr.String())
	}
}

// TestServeStaysResponsiveDespiteEndlessJobs: a real `hookctl serve` keeps
// answering the deny, request after request, more requests than it has
// runtimes, when a hook queues a job that loops forever on every fire.
func TestServeStaysResponsiveDespiteEndlessJobs(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "hooks.hcl")
	writeFile(t, cfg, escapingJobHooks)
	r := startReplica(t, cfg)
	for i := range 10 {
		rep := request("POST", r.base+"/claude", rmRfPayload)
		if rep.err != nil || rep.code != 200 {
			t.Fatalf("request %d: %d %v (%s)\nstderr: %s", i, rep.code, rep.err, rep.raw, r.stderr)
		}
		out, _ := rep.body["hookSpecificOutput"].(map[string]any)
		if out["permissionDecision"] != "deny" {
			t.Fatalf("request %d: %s, want the deny", i, rep.raw)
		}
	}
	if rep := request("GET", r.base+"/readyz", ""); rep.code != 200 {
		t.Fatalf("/readyz: %d %s", rep.code, rep.raw)
	}
}
