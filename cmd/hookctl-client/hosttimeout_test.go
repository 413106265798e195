//go:build unix

package main_test

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/ostest"
	"github.com/hookctl/hookctl/internal/syncbuf"
)

// slowGuard writes a configuration named name whose PreToolUse guard
// takes 30 s (far past the 2 s host timeout of the tests): it writes its
// shell's pid to name.pid when it starts and name.done when it ends.
func (e *env) slowGuard(name string) (cfg, pidFile, doneFile string) {
	pidFile, doneFile = filepath.Join(e.dir, name+".pid"), filepath.Join(e.dir, name+".done")
	cfg = name + ".hcl"
	e.write(cfg, fmt.Sprintf(`hook "slow-guard" {
  event    = "PreToolUse"
  command  = "echo $$ > %s; sleep 30; touch %s"
  timeout  = "120s"
  on_error = "block"
}
`, pidFile, doneFile))
	e.run(e.full, "", "trust", "--config", cfg)
	return cfg, pidFile, doneFile
}

// geminiBeforeTool is Gemini CLI's BeforeTool payload for ls.
const geminiBeforeTool = `{"hook_event_name":"BeforeTool","session_id":"s","timestamp":"t","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`

// checkHostTimeoutBlock: the reply blocks with the host-timeout reason,
// the guard had started and had not finished when the reply came, and its
// process is killed (it never finishes).
func checkHostTimeoutBlock(t *testing.T, how, reply, pidFile, doneFile string) {
	t.Helper()
	_, doneErr := os.Stat(doneFile)
	if !strings.Contains(reply, `"decision":"deny"`) || !regexp.MustCompile(`hooks still running after 1800ms, Gemini CLI would stop waiting at 2s; blocked`).MatchString(reply) {
		t.Fatalf("%s: the reply is not the host-timeout block: %s", how, reply)
	}
	if doneErr == nil {
		t.Fatalf("%s: the guard had finished before the reply", how)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("%s: the guard never started: %v", how, err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	for deadline := time.Now().Add(20 * time.Second); ostest.Alive(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(-pid, syscall.SIGKILL)
			t.Fatalf("%s: the guard's process %d still runs", how, pid)
		}
	}
	if _, err := os.Stat(doneFile); err == nil {
		t.Fatalf("%s: the guard finished: it was not killed", how)
	}
}

// TestSlowGuardBlocksBeforeTheHostTimeout: a guard slower than the host's
// timeout (Gemini CLI would stop waiting and run the tool) is answered
// with Gemini's block before the host's timeout, and its process is
// killed: by hookctl hook, by the client through the daemon, and by
// hookctl serve's /hook/gemini.
func TestSlowGuardBlocksBeforeTheHostTimeout(t *testing.T) {
	e := newEnv(t)

	cfg, pid, done := e.slowGuard("oneshot")
	out, errOut, code := e.run(e.full, geminiBeforeTool, "hook", "--host", "gemini", "--config", cfg, "--host-timeout", "2s")
	if code != 0 {
		t.Fatalf("hookctl hook: exit %d: %s", code, errOut)
	}
	checkHostTimeoutBlock(t, "hookctl hook", out, pid, done)

	// The environment variable, as for the other modes.
	cfg, pid, done = e.slowGuard("env")
	vars := e.vars
	e.vars = append(e.vars, "HOOKCTL_HOST_TIMEOUT=2s")
	out, _, _ = e.run(e.full, geminiBeforeTool, "hook", "--host", "gemini", "--config", cfg)
	e.vars = vars
	checkHostTimeoutBlock(t, "HOOKCTL_HOST_TIMEOUT", out, pid, done)

	cfg, pid, done = e.slowGuard("client")
	out, errOut, _ = e.run(e.client, geminiBeforeTool, "hook", "--host", "gemini", "--config", cfg, "--host-timeout", "2s")
	if !strings.Contains(errOut, "answered by the daemon") {
		t.Fatalf("the client's call was not answered by the daemon: %s", errOut)
	}
	checkHostTimeoutBlock(t, "hookctl-client", out, pid, done)

	cfg, pid, done = e.slowGuard("serve")
	base := e.serve(cfg)
	resp, err := http.Post(base+"/hook/gemini?host_timeout=2s", "application/json", strings.NewReader(geminiBeforeTool))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("/hook/gemini: %d %s", resp.StatusCode, body)
	}
	checkHostTimeoutBlock(t, "serve /hook/gemini", string(body), pid, done)
}

// serve starts hookctl serve on 127.0.0.1 with the configuration and
// returns its base URL.
func (e *env) serve(cfg string) string {
	e.t.Helper()
	stderr := &syncbuf.Buffer{}
	cmd := exec.Command(e.full, "serve", "--config", cfg, "--listen", "127.0.0.1:0")
	cmd.Dir = e.dir
	cmd.Env = append(os.Environ(), e.vars...)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	e.t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
		}
	})
	re := regexp.MustCompile(`on http://(127\.0\.0\.1:\d+)`)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			return "http://" + m[1]
		}
		select {
		case <-exited:
			e.t.Fatalf("serve exited: %s", stderr)
		default:
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("serve did not start: %s", stderr)
		}
	}
}
