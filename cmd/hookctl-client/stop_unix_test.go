//go:build unix

package main_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
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

// TestStopReachesTheDaemon: a host that gives up on its hook (SIGTERM,
// SIGINT, SIGHUP to hookctl-client) gets the block hookctl claude would
// give, not an exit by the signal with nothing said, and the daemon kills
// the call's hooks instead of running them on.
func TestStopReachesTheDaemon(t *testing.T) {
	e := slowEnv(t)
	for i, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		for _, f := range must(filepath.Glob(filepath.Join(e.dir, "hook-*.pid"))) {
			os.Remove(f)
		}
		c := startClient(t, e, "slow.hcl")
		cmd, exited, out, errb := c.cmd, c.exited, &c.out, &c.errb
		hook := c.hookRuns(t, e)
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		err := <-exited
		var ee *exec.ExitError
		if errors.As(err, &ee) && !ee.Exited() {
			t.Fatalf("%v: the client died by the signal with nothing said: %v\n%s", sig, err, errb.String())
		}
		if err != nil || !strings.Contains(out.String(), `"permissionDecision":"deny"`) || !strings.Contains(out.String(), "hung up") {
			t.Errorf("%v: want the daemon's block: %v\nstdout %s\nstderr %s", sig, err, out.String(), errb.String())
		}
		if i == 0 && !strings.Contains(errb.String(), "answered by the daemon") {
			t.Errorf("%v: not answered by the daemon: %s", sig, errb.String())
		}
		// The daemon kills the hook before it answers.
		hookEnds(t, hook, fmt.Sprintf("%v: the hook still runs after the host gave up", sig))
	}
}

// slowEnv is newEnv with a running daemon and slow.hcl, whose hook
// writes its pid to hook-PARENT.pid and sleeps a minute.
func slowEnv(t *testing.T) *env {
	e := newEnv(t)
	e.write("slow.hcl", `hook "slow" {
  event   = "PreToolUse"
  command = "echo $$ > hook-$PPID.pid; exec sleep 60"
  timeout = "90s"
}
`)
	e.run(e.full, "", "trust", "--config", "slow.hcl")
	// The daemon runs first, so that the calls after are answered by it.
	if _, errOut, _ := e.run(e.client, rm, "claude", "--config", "hooks.hcl"); !strings.Contains(errOut, "started daemon") {
		t.Fatalf("no daemon: %s", errOut)
	}
	return e
}

// hookRuns waits for slow.hcl's hook to say it runs (its pid, in a file
// named by its parent) and returns its pid.
func (c *client) hookRuns(t *testing.T, e *env) int {
	t.Helper()
	for {
		if files, _ := filepath.Glob(filepath.Join(e.dir, "hook-*.pid")); len(files) == 1 {
			if b, err := os.ReadFile(files[0]); err == nil && bytes.HasSuffix(b, []byte("\n")) {
				hook, _ := strconv.Atoi(strings.TrimSpace(string(b)))
				return hook
			}
		}
		select {
		case err := <-c.exited:
			t.Fatalf("the client exited before the hook ran: %v\n%s\n%s", err, c.out.String(), c.errb.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// hookEnds waits for the hook's process to end; the bound only keeps a
// failure from hanging the test.
func hookEnds(t *testing.T, hook int, failure string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for ostest.Alive(hook) {
		if time.Now().After(deadline) {
			syscall.Kill(hook, syscall.SIGKILL)
			t.Fatalf("%s (pid %d)", failure, hook)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestKilledClientsHooksEnd: a client killed while its call runs (by
// SIGKILL, which it cannot catch) still ends the call's hooks: the daemon
// reads the closed connection as a stop.
func TestKilledClientsHooksEnd(t *testing.T) {
	e := slowEnv(t)
	c := startClient(t, e, "slow.hcl")
	hook := c.hookRuns(t, e)
	c.cmd.Process.Kill()
	<-c.exited
	hookEnds(t, hook, "the hook still runs after its client died")
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestStopWithASilentDaemon: a host that gives up on a call whose daemon
// never answers (hung, or not hookctl at all) still gets a block, from
// the client itself once the daemon's has not come within the grace, and
// the client does not die by the signal.
func TestStopWithASilentDaemon(t *testing.T) {
	e := newEnv(t)
	_, errOut, _ := e.run(e.client, rm, "claude", "--config", "hooks.hcl")
	m := regexp.MustCompile(`no daemon at (\S+) `).FindStringSubmatch(errOut)
	if m == nil {
		t.Fatalf("no socket named: %s", errOut)
	}
	sock := m[1]
	// The real daemon goes; a silent one takes its socket.
	e.mu.Lock()
	for _, pid := range e.daemons {
		syscall.Kill(pid, syscall.SIGKILL)
		for ostest.Alive(pid) {
			time.Sleep(5 * time.Millisecond)
		}
	}
	e.mu.Unlock()
	os.Remove(sock)
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	got := make(chan struct{})
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		b := make([]byte, 1)
		c.Read(b) // the request has come; nothing is ever answered
		close(got)
		io.Copy(io.Discard, c)
		<-t.Context().Done()
	}()
	c := startClient(t, e, "hooks.hcl")
	select {
	case <-got:
	case err := <-c.exited:
		t.Fatalf("the client exited before calling: %v\n%s", err, c.errb.String())
	}
	c.stopBlocked(t)
	if !strings.Contains(c.errb.String(), "did not answer in time") {
		t.Errorf("the block does not say why: %s", c.errb.String())
	}
}

// TestStopWhenHookctlItselfEndsWithoutAnswer: a call the client runs
// through hookctl itself, stopped, where hookctl ends without its block
// (on Windows, a child ended by TerminateProcess exits 1; here a stand-in
// that prints half a reply and exits 1 on the stop): the host gets the
// client's own block (exit 2), never that status nor the half reply.
func TestStopWhenHookctlItselfEndsWithoutAnswer(t *testing.T) {
	e := newEnv(t)
	fake := filepath.Join(e.dir, "fake-hookctl")
	started := filepath.Join(e.dir, "started")
	script := "#!/bin/sh\ntrap 'printf \"{\\\\\"hookSpecificOutput\\\\\": \"; exit 1' TERM\ntouch " + started + "\nwhile :; do sleep 0.05; done\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	// TRACEPARENT: the client runs the full binary itself.
	c := startClient(t, e, "hooks.hcl", "HOOKCTL_BIN="+fake, "TRACEPARENT=00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
	for {
		if _, err := os.Stat(started); err == nil {
			break
		}
		select {
		case err := <-c.exited:
			t.Fatalf("the client exited before hookctl ran: %v\n%s", err, c.errb.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
	c.stopBlocked(t)
	if strings.Contains(c.out.String(), "hookSpecificOutput") {
		t.Errorf("the half reply reached the host: %q", c.out.String())
	}
	if !strings.Contains(c.errb.String(), "exited with status 1") {
		t.Errorf("the block does not say why: %s", c.errb.String())
	}
}

// client is a hookctl-client claude call running in the test directory.
type client struct {
	cmd    *exec.Cmd
	out    bytes.Buffer
	errb   syncbuf.Buffer
	exited chan error
}

// startClient starts hookctl-client claude --config config with the
// test's environment and vars added, the ls payload on stdin.
func startClient(t *testing.T, e *env, config string, vars ...string) *client {
	t.Helper()
	c := &client{cmd: exec.Command(e.client, "claude", "--config", config), exited: make(chan error, 1)}
	c.cmd.Dir = e.dir
	c.cmd.Env = append(append(os.Environ(), e.vars...), vars...)
	c.cmd.Stdin = strings.NewReader(ls)
	c.cmd.Stdout, c.cmd.Stderr = &c.out, &c.errb
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { c.exited <- c.cmd.Wait() }()
	return c
}

// stopBlocked sends the client SIGTERM and wants Claude Code's block
// (exit 2), neither a death by the signal nor another status. The grace
// is seconds; the bound only keeps a failure from hanging the test.
func (c *client) stopBlocked(t *testing.T) {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-c.exited:
	case <-time.After(60 * time.Second):
		c.cmd.Process.Kill()
		t.Fatalf("the client did not end\n%s", c.errb.String())
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || !ee.Exited() || ee.ExitCode() != 2 {
		t.Fatalf("want exit 2 (Claude Code's block), got %v\nstdout %q\nstderr %s", err, c.out.String(), c.errb.String())
	}
}
