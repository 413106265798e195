//go:build unix

package main

import (
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

	if err := nats.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
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
