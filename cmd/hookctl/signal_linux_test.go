package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/ostest"
)

// TestStopSignalKillsHooks: a host that kills hookctl claude at its own
// deadline (SIGTERM, SIGINT, SIGHUP) leaves none of the running command
// hook's processes behind, not even a grandchild that started a session
// of its own and dropped HOOKCTL_RUN, and gets a block, not an allow.
func TestStopSignalKillsHooks(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", bin+"/", ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			cfg := `hook "slow" {
  event   = "PreToolUse"
  command = ["sh", "-c", "echo $$ > hook.pid; env -u HOOKCTL_RUN setsid -f sh -c 'echo $$ > orphan.tmp; mv orphan.tmp orphan.pid; exec sleep 314'; exec sleep 101"]
  timeout = "60s"
}
`
			if err := os.WriteFile(filepath.Join(dir, "hooks.hcl"), []byte(cfg), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(filepath.Join(bin, "hookctl"), "claude", "--config", "hooks.hcl", "--allow-untrusted")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "HOOKCTL_DEPTH=", "HOOKCTL_RUN=", "HOOKCTL_STATE_DIR="+dir+"/state", "HOOKCTL_TRUST_FILE="+dir+"/trust.json")
			cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","session_id":"s","cwd":"` + dir + `","tool_name":"Bash","tool_input":{"command":"ls"}}`)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			pid := func(name string) int {
				for {
					if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
						if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && n > 0 {
							return n
						}
					}
					select {
					case err := <-exited:
						t.Fatalf("hookctl exited before %s: %v\n%s\n%s", name, err, out.String(), errb.String())
					case <-time.After(5 * time.Millisecond):
					}
				}
			}
			hook, orphan := pid("hook.pid"), pid("orphan.pid")
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := <-exited
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			if code != 2 && !strings.Contains(out.String(), `"permissionDecision":"deny"`) {
				t.Errorf("exit %d, stdout %s: want the host's block", code, out.String())
			}
			// Run kills before it returns; the bound only keeps a
			// failure from hanging the test.
			for _, p := range []int{hook, orphan} {
				for i := 0; ostest.Alive(p) && i < 500; i++ {
					time.Sleep(10 * time.Millisecond)
				}
				if ostest.Alive(p) {
					syscall.Kill(p, syscall.SIGKILL)
					t.Errorf("process %d of the hook outlived hookctl (%v)\nstderr: %s", p, sig, errb.String())
				}
			}
		})
	}
}
