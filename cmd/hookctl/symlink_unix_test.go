//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestClaudeAuditLogSymlinkToStdout runs a real `hookctl claude` whose
// settings.audit_log is a symbolic link to /dev/stdout (placed after
// trust, as a git pull could), with its stdout a regular file and then a
// pipe. The audit record must not reach stdout: the reply is the only
// thing there, one JSON document, and the deny stands, saying which path
// was refused. A link to a file elsewhere (~/anything) is not appended to.
func TestClaudeAuditLogSymlinkToStdout(t *testing.T) {
	bin, err := exec.LookPath("hookctl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "hooks.hcl")
	writeFile(t, cfg, `
settings {
  audit_log = "logs/audit.jsonl"
}

hook "no-rm" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "tool_input.command contains 'rm -rf'"
  decision = "deny"
  reason   = "rm -rf is not allowed"
}
`)
	if err := os.Mkdir(filepath.Join(dir, "logs"), 0o700); err != nil {
		t.Fatal(err)
	}
	audit := filepath.Join(dir, "logs", "audit.jsonl")
	input := `{"session_id":"s1","transcript_path":"/nonexistent","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t1"}`

	run := func(t *testing.T, stdout *os.File) (string, string) {
		t.Helper()
		var stderr bytes.Buffer
		cmd := exec.Command(bin, "claude", "--config", cfg, "--allow-untrusted")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOOKCTL_CONFIG=", "HOOKCTL_STATE_DIR="+filepath.Join(dir, "state"),
			"HOOKCTL_TRUST_FILE="+filepath.Join(dir, "trusted.json"), "CLAUDE_PROJECT_DIR="+dir)
		cmd.Stdin = strings.NewReader(input)
		cmd.Stderr = &stderr
		var out bytes.Buffer
		if stdout != nil {
			cmd.Stdout = stdout
		} else {
			cmd.Stdout = &out // a pipe
		}
		if err := cmd.Run(); err != nil {
			t.Fatalf("hookctl claude: %v\n%s", err, stderr.String())
		}
		if stdout != nil {
			b, err := os.ReadFile(stdout.Name())
			if err != nil {
				t.Fatal(err)
			}
			return string(b), stderr.String()
		}
		return out.String(), stderr.String()
	}
	// check: stdout is exactly one JSON document, a deny.
	check := func(t *testing.T, out, errOut string) {
		t.Helper()
		dec := json.NewDecoder(strings.NewReader(out))
		var reply struct {
			Out struct {
				Decision string `json:"permissionDecision"`
				Reason   string `json:"permissionDecisionReason"`
			} `json:"hookSpecificOutput"`
		}
		if err := dec.Decode(&reply); err != nil {
			t.Fatalf("stdout is not a JSON reply: %v\n%q", err, out)
		}
		if dec.More() {
			t.Fatalf("stdout has more than the reply:\n%s", out)
		}
		if reply.Out.Decision != "deny" {
			t.Errorf("decision %q, want deny; stdout:\n%s", reply.Out.Decision, out)
		}
		if !strings.Contains(reply.Out.Reason+errOut, audit+" is a symbolic link: refused") {
			t.Errorf("neither the reason nor stderr names the refused link:\nreason: %s\nstderr: %s", reply.Out.Reason, errOut)
		}
	}

	if err := os.Symlink("/dev/stdout", audit); err != nil {
		t.Fatal(err)
	}
	t.Run("stdout a file", func(t *testing.T) {
		f, err := os.Create(filepath.Join(t.TempDir(), "stdout"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		out, errOut := run(t, f)
		check(t, out, errOut)
	})
	t.Run("stdout a pipe", func(t *testing.T) {
		out, errOut := run(t, nil)
		check(t, out, errOut)
	})
	t.Run("link to a file elsewhere", func(t *testing.T) {
		home := filepath.Join(t.TempDir(), "anything")
		writeFile(t, home, "mine\n")
		if err := os.Remove(audit); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(home, audit); err != nil {
			t.Fatal(err)
		}
		out, errOut := run(t, nil)
		check(t, out, errOut)
		if b, _ := os.ReadFile(home); string(b) != "mine\n" {
			t.Errorf("the link's target was written:\n%s", b)
		}
	})
	t.Run("hard link to a file elsewhere", func(t *testing.T) {
		home := filepath.Join(dir, "home-file")
		writeFile(t, home, "mine\n")
		if err := os.Remove(audit); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(home, audit); err != nil {
			t.Fatal(err)
		}
		out, errOut := run(t, nil)
		if !strings.Contains(out, `"permissionDecision":"deny"`) {
			t.Errorf("the deny did not stand:\n%s", out)
		}
		if !strings.Contains(out+errOut, audit+" has 2 hard links: refused") {
			t.Errorf("neither the reply nor stderr names the refused hard link:\n%s\n%s", out, errOut)
		}
		if b, _ := os.ReadFile(home); string(b) != "mine\n" {
			t.Errorf("the other name of the audit log was written:\n%s", b)
		}
	})
}

// TestClaudeStdoutIsTheReplyOnly: a command hook that writes to hookctl's
// own descriptor 1 (through /proc/PID/fd/1, a path no link check sees)
// cannot put anything before the reply: descriptor 1 points at stderr
// while hooks run, and the reply goes out on a descriptor of its own.
func TestClaudeStdoutIsTheReplyOnly(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd/1"); err != nil {
		t.Skip("no /proc:", err)
	}
	bin, err := exec.LookPath("hookctl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "hooks.hcl")
	writeFile(t, cfg, `
hook "stray" {
  event    = "PreToolUse"
  priority = 10
  command  = ["sh", "-c", "echo stray-line >/proc/$PPID/fd/1"]
}

hook "no-rm" {
  event    = "PreToolUse"
  matcher  = "Bash"
  decision = "deny"
  reason   = "rm -rf is not allowed"
}
`)
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, "claude", "--config", cfg, "--allow-untrusted")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOOKCTL_CONFIG=", "HOOKCTL_STATE_DIR="+filepath.Join(dir, "state"),
		"HOOKCTL_TRUST_FILE="+filepath.Join(dir, "trusted.json"), "CLAUDE_PROJECT_DIR="+dir)
	cmd.Stdin = strings.NewReader(`{"session_id":"s1","transcript_path":"/nonexistent","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"t1"}`)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("hookctl claude: %v\n%s", err, stderr.String())
	}
	want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"rm -rf is not allowed"}}` + "\n"
	if stdout.String() != want {
		t.Errorf("stdout:\n%q\nwant only the reply:\n%q\nstderr:\n%s", stdout.String(), want, stderr.String())
	}
	if !strings.Contains(stderr.String(), "stray-line") {
		t.Errorf("the stray write did not land on stderr:\n%s", stderr.String())
	}
}
