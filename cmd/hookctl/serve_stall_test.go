//go:build unix

package main

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// natsServerProcess builds nats-server from the module cache (it is a
// test dependency) and runs it with JetStream on a port of its own, as a
// process of its own, so that a test can stop it with SIGSTOP: its TCP
// connections stay open while it answers nothing, as a wedged or
// swapped-out server's do. It returns the server's URL and the process.
func natsServerProcess(t *testing.T) (string, *os.Process) {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "nats-server")
	build := exec.Command("go", "build", "-o", bin, "github.com/nats-io/nats-server/v2")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build nats-server: %v\n%s", err, out)
	}
	url := freeURL(t)
	port := url[strings.LastIndexByte(url, ':')+1:]
	cmd := exec.Command(bin, "-a", "127.0.0.1", "-p", port, "-js", "-sd", filepath.Join(dir, "store"))
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGCONT)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", "127.0.0.1:"+port); err == nil {
			c.Close()
			return url, cmd.Process
		}
		if time.Now().After(deadline) {
			t.Fatalf("nats-server did not start:\n%s", logs.String())
		}
	}
}

// stopProcess stops p, a child of the test, with SIGSTOP and returns once
// it has stopped. kill(2) only marks the signal pending: a thread of p
// running when it is sent (on another CPU, or one the hypervisor has not
// scheduled yet) goes on until it next enters the kernel, and on a loaded
// machine nats-server answered requests for tens of milliseconds after
// the signal was sent. The kernel reports the stop to the parent once
// every thread has stopped; wait4(WUNTRACED) waits for that report (it
// does not reap p).
func stopProcess(t *testing.T, p *os.Process) {
	t.Helper()
	if err := p.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	var ws unix.WaitStatus
	for {
		_, err := unix.Wait4(p.Pid, &ws, unix.WUNTRACED, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			t.Fatalf("waiting for process %d to stop: %v", p.Pid, err)
		}
		break
	}
	if !ws.Stopped() {
		t.Fatalf("process %d did not stop: wait status %#x", p.Pid, ws)
	}
}

// TestServeProcessStalledNATS: a real `hookctl serve --nats` in front of a
// real nats-server stopped with SIGSTOP. Denies do not wait for the audit
// record: 14 concurrent requests, each of which used to hold the audit
// lock for a whole publish (--nats-timeout, here 10 s: replies at 10, 20,
// ... 140 s), are all answered before one publish timeout has passed.
// /readyz notices the server does not answer (a round trip, not the
// socket's state) and turns 503; once the server continues, it is ready
// again and the queued records are published.
func TestServeProcessStalledNATS(t *testing.T) {
	url, nats := natsServerProcess(t)
	const publishTimeout = 10 * time.Second
	cfg := filepath.Join(t.TempDir(), "hooks.hcl")
	writeFile(t, cfg, browserHCL)
	p := startReplica(t, cfg, "--nats", url, "--nats-timeout", publishTimeout.String())
	if r := request("GET", p.base+"/readyz", ""); r.code != 200 {
		t.Fatalf("/readyz before: %d %s %v", r.code, r.raw, r.err)
	}
	if r := request("POST", p.base+"/claude", prePayload); r.code != 200 || !strings.Contains(r.raw, "BROWSER-TEST-DENY") {
		t.Fatalf("a deny with NATS up: %d %s %v", r.code, r.raw, r.err)
	}

	stopProcess(t, nats)
	stopped := time.Now()
	const n = 14
	var wg sync.WaitGroup
	replies := make([]httpReply, n)
	took := make([]time.Duration, n)
	for i := range n {
		wg.Go(func() {
			replies[i] = request("POST", p.base+"/claude", prePayload)
			took[i] = time.Since(stopped)
		})
	}
	wg.Wait()
	for i, r := range replies {
		if r.code != 200 || !strings.Contains(r.raw, `"permissionDecision":"deny"`) {
			t.Errorf("request %d with NATS stopped: %d %s %v", i, r.code, r.raw, r.err)
		}
		// Generous: a reply that waited for one publish would be at or
		// past publishTimeout; the slowest is far below it.
		if took[i] >= publishTimeout {
			t.Errorf("request %d answered %s after NATS stopped: the deny waited for the audit publish (all: %v)", i, took[i], took)
		}
	}

	t.Logf("%d denies with NATS stopped, answered within %s of SIGSTOP", n, slices.Max(took))

	// /readyz: a round trip to the stopped server fails.
	var ready httpReply
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		if ready = request("GET", p.base+"/readyz", ""); ready.code == 503 {
			break
		}
	}
	if ready.code != 503 || !strings.Contains(ready.raw, `"failing":["state"]`) || !strings.Contains(ready.raw, "not answering") {
		t.Fatalf("/readyz with NATS stopped: %d %s %v", ready.code, ready.raw, ready.err)
	}
	// /healthz's state says the same, from that round trip.
	if h := request("GET", p.base+"/healthz", ""); h.code != 200 {
		t.Fatalf("/healthz with NATS stopped: %d %s", h.code, h.raw)
	} else if st, _ := h.body["state"].(map[string]any); st["ready"] != false || !strings.Contains(fmt.Sprint(st["error"]), "not answering") || st["checked_at"] == nil {
		t.Errorf("/healthz state with NATS stopped, /readyz 503: %v", st)
	}

	// Continued, the server answers again and the queue drains.
	if err := nats.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		r := request("GET", p.base+"/readyz", "")
		h := request("GET", p.base+"/healthz", "")
		st, _ := h.body["state"].(map[string]any)
		if r.code == 200 && st != nil && st["audit_records_queued"] == 0.0 {
			if lost := st["audit_records_lost"]; lost != nil {
				t.Errorf("records lost while the server was stopped: %v", lost)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after SIGCONT: /readyz %d %s; /healthz %s", r.code, r.raw, h.raw)
		}
	}
}

// TestServeProcessShutdownStalledNATS: a real `hookctl serve --nats`
// whose nats-server is stopped (SIGSTOP) while audit records are queued,
// with a publish in progress that would take --nats-timeout (60 s): on
// SIGTERM it stops within --shutdown-timeout (1 s), not after that
// publish; the records lost are logged before "stopped", which is the
// last line.
func TestServeProcessShutdownStalledNATS(t *testing.T) {
	url, nats := natsServerProcess(t)
	cfg := filepath.Join(t.TempDir(), "hooks.hcl")
	writeFile(t, cfg, browserHCL)
	p := startReplica(t, cfg, "--nats", url, "--nats-timeout", "60s", "--shutdown-timeout", "1s")
	stopProcess(t, nats)
	for i := range 3 {
		if r := request("POST", p.base+"/claude", prePayload); r.code != 200 || !strings.Contains(r.raw, "BROWSER-TEST-DENY") {
			t.Fatalf("deny %d with NATS stopped: %d %s %v", i, r.code, r.raw, r.err)
		}
	}
	// The server is stopped (a round trip fails) and the records wait.
	for deadline := time.Now().Add(30 * time.Second); ; {
		r := request("GET", p.base+"/readyz", "")
		h := request("GET", p.base+"/healthz", "")
		if st, _ := h.body["state"].(map[string]any); r.code == 503 && st["audit_records_queued"] != 0.0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("NATS stopped: /readyz %d %s; /healthz %s", r.code, r.raw, h.raw)
		}
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// Well before the publish in progress would end on its own (60 s).
	if code := p.wait(t, 30*time.Second); code != 0 {
		t.Fatalf("exit %d:\n%s", code, p.stderr)
	}
	lines := strings.Split(strings.TrimSpace(p.stderr.String()), "\n")
	last := lines[len(lines)-1]
	if !strings.Contains(last, "hookctl: stopped after") {
		t.Errorf("the last line is not \"stopped\": %q\n%s", last, p.stderr)
	}
	if !strings.Contains(p.stderr.String(), "lost") {
		t.Errorf("no count of the audit records lost:\n%s", p.stderr)
	}
}

// silentJetStream is a fake NATS server on 127.0.0.1: it greets each
// client (INFO) and answers its PINGs, so that the connection comes up,
// but never answers anything else: JetStream requests go unanswered.
func silentJetStream(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer c.Close()
				_, _ = c.Write([]byte(`INFO {"server_id":"fake","version":"2.10.0","proto":1,"headers":true,"max_payload":1048576,"jetstream":true}` + "\r\n"))
				sc := bufio.NewScanner(c)
				for sc.Scan() {
					if strings.HasPrefix(sc.Text(), "PING") {
						_, _ = c.Write([]byte("PONG\r\n"))
					}
				}
			})
		}
	})
	return "nats://" + ln.Addr().String()
}

// TestServeNATSSetupBoundedByTimeout: against a server that connects but
// never answers JetStream, `hookctl serve --nats` gives up (exit 1) within
// one --nats-timeout for connecting and setting up together, not one for
// each step.
func TestServeNATSSetupBoundedByTimeout(t *testing.T) {
	url := silentJetStream(t)
	cfg := filepath.Join(t.TempDir(), "hooks.hcl")
	writeFile(t, cfg, browserHCL)
	bin, err := exec.LookPath("hookctl")
	if err != nil {
		t.Fatal(err)
	}
	const natsTimeout = 5 * time.Second
	cmd := exec.Command(bin, "serve", "--config", cfg, "--listen", "127.0.0.1:0", "--allow-untrusted", "--nats", url, "--nats-timeout", natsTimeout.String())
	cmd.Env = append(os.Environ(), "HOOKCTL_CONFIG=", "HOOKCTL_STATE_DIR="+t.TempDir())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// Two steps with a timeout each would end at 2 × natsTimeout.
	select {
	case err := <-exited:
		if ee, ok := errors.AsType[*exec.ExitError](err); !ok || ee.ExitCode() != 1 {
			t.Fatalf("exit %v, want 1:\n%s", err, stderr.String())
		}
	case <-time.After(2*natsTimeout - time.Second):
		_ = cmd.Process.Kill()
		<-exited
		t.Fatalf("still setting up NATS after %s (--nats-timeout %s):\n%s", 2*natsTimeout-time.Second, natsTimeout, stderr.String())
	}
	if !strings.Contains(stderr.String(), "NATS") {
		t.Errorf("the error does not name NATS:\n%s", stderr.String())
	}
}

// kvHookHCL is a kv-using guard with a long timeout, as hooks are
// written.
const kvHookHCL = `
hook "count-bash" {
  event    = "PreToolUse"
  matcher  = "Bash"
  on_error = "block"
  timeout  = "60s"
  js       = <<-JS
    require("hookctl/kv").incr("bash.calls");
    return { decision: "deny", reason: "KV-COUNTED" };
  JS
}
`

// TestServeProcessKVFailsFastOnStalledNATS: once a round trip to a
// stopped nats-server (SIGSTOP) has failed (/readyz 503), a kv-using hook
// fails at once instead of holding its slot of --max-inflight for its
// whole timeout (60 s; --nats-timeout 60 s too), and on_error = "block"
// denies; the reply comes well before either timeout.
func TestServeProcessKVFailsFastOnStalledNATS(t *testing.T) {
	url, nats := natsServerProcess(t)
	cfg := filepath.Join(t.TempDir(), "hooks.hcl")
	writeFile(t, cfg, kvHookHCL)
	p := startReplica(t, cfg, "--nats", url, "--nats-timeout", "60s")
	if r := request("POST", p.base+"/claude", prePayload); r.code != 200 || !strings.Contains(r.raw, "KV-COUNTED") {
		t.Fatalf("with NATS up: %d %s %v", r.code, r.raw, r.err)
	}
	stopProcess(t, nats)
	for deadline := time.Now().Add(30 * time.Second); ; {
		if r := request("GET", p.base+"/readyz", ""); r.code == 503 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("/readyz never 503 with NATS stopped")
		}
	}
	// request gives up after 20 s, a third of the hook's timeout.
	r := request("POST", p.base+"/claude", prePayload)
	if r.code != 200 || !strings.Contains(r.raw, `"permissionDecision":"deny"`) || strings.Contains(r.raw, "KV-COUNTED") {
		t.Fatalf("kv hook with NATS stopped: %d %s %v", r.code, r.raw, r.err)
	}
	if err := nats.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
}
