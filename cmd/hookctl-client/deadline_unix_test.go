//go:build unix

package main_test

import (
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/ostest"
)

// startClientArgs starts the client (or bin) with args in the test
// directory, stdin given, the test's environment and vars added.
func startClientArgs(t *testing.T, e *env, bin string, stdin io.Reader, vars []string, args ...string) *client {
	t.Helper()
	c := &client{cmd: exec.Command(bin, args...), exited: make(chan error, 1)}
	c.cmd.Dir = e.dir
	c.cmd.Env = append(append(os.Environ(), e.vars...), vars...)
	c.cmd.Stdin = stdin
	c.cmd.Stdout, c.cmd.Stderr = &c.out, &c.errb
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { c.exited <- c.cmd.Wait() }()
	t.Cleanup(func() {
		if c.cmd.ProcessState == nil {
			c.cmd.Process.Kill()
		}
	})
	return c
}

// blockedByItself waits for the process to end on its own (no signal is
// sent) and wants Claude Code's block: exit 2 with why on stderr. The
// bound only keeps a failure from hanging the test.
func (c *client) blockedByItself(t *testing.T, why string) {
	t.Helper()
	var err error
	select {
	case err = <-c.exited:
	case <-time.After(60 * time.Second):
		c.cmd.Process.Kill()
		t.Fatalf("the process did not end by itself past the host's timeout\nstdout %q\nstderr %s", c.out.String(), c.errb.String())
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || !ee.Exited() || ee.ExitCode() != 2 {
		t.Fatalf("want exit 2 (Claude Code's block), got %v\nstdout %q\nstderr %s", err, c.out.String(), c.errb.String())
	}
	if !strings.Contains(c.errb.String(), why) {
		t.Errorf("the block does not say %q: %s", why, c.errb.String())
	}
}

// TestSilentDaemonBlocksAtHostTimeout: a process that holds the daemon's
// socket, takes the call and never answers keeps no call past the host's
// timeout: the client answers the host's block itself by then, with no
// signal from the host.
func TestSilentDaemonBlocksAtHostTimeout(t *testing.T) {
	e := newEnv(t)
	_, errOut, _ := e.run(e.client, rm, "claude", "--config", "hooks.hcl")
	m := regexp.MustCompile(`no daemon at (\S+) `).FindStringSubmatch(errOut)
	if m == nil {
		t.Fatalf("no socket named: %s", errOut)
	}
	sock := m[1]
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
	}()
	c := startClientArgs(t, e, e.client, strings.NewReader(rm), nil, "claude", "--config", "hooks.hcl", "--host-timeout", "2s")
	select {
	case <-got:
	case err := <-c.exited:
		t.Fatalf("the client exited before calling: %v\n%s", err, c.errb.String())
	}
	c.blockedByItself(t, "did not answer: stopped, wedged, or not a daemon")
	if !strings.Contains(c.errb.String(), "the host's 2s timeout") {
		t.Errorf("the block does not name the timeout: %s", c.errb.String())
	}
}

// TestStoppedDaemonBlocksAtHostTimeout: a real daemon stopped with
// SIGSTOP (what an agent's pkill -STOP does) holds no call past the
// host's timeout (HOOKCTL_HOST_TIMEOUT here): the client blocks by then.
func TestStoppedDaemonBlocksAtHostTimeout(t *testing.T) {
	e := newEnv(t)
	// The daemon must not leave while stopped; the environment is the
	// same for both calls (it names the daemon's socket).
	e.vars = append(e.vars, "HOOKCTL_DAEMON_IDLE=5m", "HOOKCTL_HOST_TIMEOUT=2s")
	if _, errOut, _ := e.run(e.client, rm, "claude", "--config", "hooks.hcl"); !strings.Contains(errOut, "started daemon") {
		t.Fatalf("no daemon: %s", errOut)
	}
	e.mu.Lock()
	daemons := append([]int(nil), e.daemons...)
	e.mu.Unlock()
	if len(daemons) != 1 {
		t.Fatalf("daemons %v", daemons)
	}
	if err := syscall.Kill(daemons[0], syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(daemons[0], syscall.SIGKILL)
		syscall.Kill(daemons[0], syscall.SIGCONT)
	})
	c := startClientArgs(t, e, e.client, strings.NewReader(rm), nil, "claude", "--config", "hooks.hcl")
	c.blockedByItself(t, "did not answer: stopped, wedged, or not a daemon")
}

// TestClientBlocksWhenStdinStaysOpen: a host that writes the payload and
// leaves stdin open gets the block by its timeout, not at stdin's end.
func TestClientBlocksWhenStdinStaysOpen(t *testing.T) {
	e := newEnv(t)
	r, w := openPipe(t)
	c := startClientArgs(t, e, e.client, r, nil, "claude", "--config", "hooks.hcl", "--host-timeout", "2s")
	r.Close()
	c.blockedByItself(t, "reading the hook input: the host has not closed it")
	w.Close()
}

// TestOneShotBlocksWhenStdinStaysOpen: hookctl claude, whose stdin stays
// open after the payload, answers the host's block at its deadline and
// exits, without waiting for stdin's end.
func TestOneShotBlocksWhenStdinStaysOpen(t *testing.T) {
	e := newEnv(t)
	for _, vars := range [][]string{{"HOOKCTL_HOST_TIMEOUT=2s"}, nil} {
		r, w := openPipe(t)
		args := []string{"claude", "--config", "hooks.hcl"}
		if vars == nil {
			args = append(args, "--host-timeout", "2s")
		}
		c := startClientArgs(t, e, e.full, r, vars, args...)
		r.Close()
		c.blockedByItself(t, "the hook input was not closed within 1800ms (the host would stop waiting at 2s)")
		w.Close()
	}
}

// openPipe is a pipe whose write end holds the ls payload and stays open
// until the caller (or the test's end) closes it.
func openPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	if _, err := w.WriteString(ls); err != nil {
		t.Fatal(err)
	}
	return r, w
}

// TestDeadlineStopsTheHookctlItRuns: a call the client runs through
// hookctl itself (here a stand-in that never answers) is blocked by the
// host's timeout too, and the hookctl it ran is stopped, not left
// running behind the client.
func TestDeadlineStopsTheHookctlItRuns(t *testing.T) {
	e := newEnv(t)
	fake := filepath.Join(e.dir, "fake-hookctl")
	started, stopped := filepath.Join(e.dir, "started"), filepath.Join(e.dir, "stopped")
	script := "#!/bin/sh\ntrap 'touch " + stopped + "; exit 0' TERM\ntouch " + started + "\nwhile :; do sleep 0.05; done\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	// TRACEPARENT: the client runs the full binary itself.
	c := startClientArgs(t, e, e.client, strings.NewReader(ls), []string{"HOOKCTL_BIN=" + fake, "TRACEPARENT=00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"},
		"claude", "--config", "hooks.hcl", "--host-timeout", "2s")
	c.blockedByItself(t, "running "+fake+" itself")
	if _, err := os.Stat(started); err != nil {
		t.Fatalf("the stand-in never ran: %v", err)
	}
	// The stop reaches it; the bound only keeps a failure from hanging.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(stopped); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the hookctl the client ran was left running")
		}
	}
}
