package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestHookctlAsItsOwnHook: hookctl install then hookctl import of what it
// wrote would make hookctl its own hook. The import leaves that hook out
// and says so; a configuration that runs hookctl claude as a hook anyway
// gets a block that says why from the nested call (HOOKCTL_DEPTH), not an
// endless chain of hookctl processes, and nothing of the chain survives.
func TestHookctlAsItsOwnHook(t *testing.T) {
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", bin+"/", ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	var id [8]byte
	rand.Read(id[:])
	marker := "HOOKCTL_RECURSION_TEST=" + hex.EncodeToString(id[:])
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOOKCTL_TRUST_FILE="+dir+"/trust.json", "HOOKCTL_STATE_DIR="+dir+"/state",
		"HOOKCTL_CONFIG=", "CLAUDE_PROJECT_DIR=", "HOOKCTL_ALLOW_UNTRUSTED=", "HOOKCTL_DEPTH=", marker)
	run := func(stdin string, args ...string) (string, string, int) {
		t.Helper()
		cmd := exec.Command(filepath.Join(bin, "hookctl"), args...)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, env, strings.NewReader(stdin)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errb.String(), code
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("hooks.hcl", `hook "no-rm" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "tool_input.command contains \"rm -rf\""
  decision = "deny"
  reason   = "no rm -rf"
}
`)
	if _, errOut, code := run("", "install", "--host", "claude", "--config", "hooks.hcl", "--project", dir); code != 0 {
		t.Fatalf("install: %d %s", code, errOut)
	}
	out, errOut, code := run("", "import", "claude", ".claude/settings.json")
	if code != 0 || !strings.Contains(errOut, "runs hookctl itself") || strings.Contains(out, "command ") {
		t.Fatalf("import: exit %d\n%s\n%s", code, out, errOut)
	}

	// Written by hand: hookctl claude as its own hook.
	write("self.hcl", `hook "self" {
  event   = "PreToolUse"
  command = "hookctl claude --config self.hcl"
  timeout = "20s"
}
`)
	if _, errOut, code := run("", "trust", "--config", "self.hcl"); code != 0 {
		t.Fatalf("trust: %s", errOut)
	}
	rm := `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"` + dir + `","tool_name":"Bash","tool_input":{"command":"ls"}}`
	out, errOut, _ = run(rm, "claude", "--config", "self.hcl")
	if !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "hookctl's own hooks") {
		t.Fatalf("the nested call did not block with its reason:\n%s\n%s", out, errOut)
	}
	if left := withEnv(marker); len(left) > 0 {
		t.Fatalf("processes of the chain survived: %v", left)
	}
}

// withEnv lists the live processes whose environment holds kv.
func withEnv(kv string) []int {
	var out []int
	names, _ := filepath.Glob("/proc/[0-9]*/environ")
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil || !bytes.Contains(append([]byte{0}, b...), []byte("\x00"+kv+"\x00")) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(n)))
		if pid != os.Getpid() {
			out = append(out, pid)
		}
	}
	return out
}
