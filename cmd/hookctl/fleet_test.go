package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/hookctl/hookctl/internal/syncbuf"
	"github.com/hookctl/hookctl/state/natsstate"
	"github.com/hookctl/hookctl/state/natsstate/natstest"
)

// replica is a `hookctl serve` running as a process of its own: the test
// binary, installed as "hookctl" on $PATH by testscript.Main.
type replica struct {
	base   string
	cmd    *exec.Cmd
	stderr *syncbuf.Buffer
	exited chan struct{}
	err    error // Wait's, once exited is closed
}

// startReplica starts `hookctl serve --config cfg` with args, its own
// state directory (as on a machine of its own) and a free loopback port,
// and waits until it serves. One still running at cleanup is stopped with
// SIGTERM; either way it must have ended with status 0.
func startReplica(t *testing.T, cfg string, args ...string) *replica {
	t.Helper()
	return startServeArgs(t, append([]string{"--config", cfg, "--allow-untrusted"}, args...)...)
}

// startServeArgs is startReplica with serve's arguments as given.
func startServeArgs(t *testing.T, args ...string) *replica {
	t.Helper()
	return startServeIn(t, "", args...)
}

// startServeIn is startServeArgs run in the directory wd ("" for the
// test's), without $CLAUDE_PROJECT_DIR.
func startServeIn(t *testing.T, wd string, args ...string) *replica {
	t.Helper()
	bin, err := exec.LookPath("hookctl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	r := &replica{stderr: &syncbuf.Buffer{}, exited: make(chan struct{})}
	r.cmd = exec.Command(bin, append([]string{"serve", "--listen", "127.0.0.1:0"}, args...)...)
	trustFile := os.Getenv("HOOKCTL_TRUST_FILE") // a test's own, holding what it trusted
	if trustFile == "" {
		trustFile = filepath.Join(dir, "trusted.json")
	}
	r.cmd.Env = append(os.Environ(), "HOOKCTL_CONFIG=", "HOOKCTL_STATE_DIR="+filepath.Join(dir, "state"), "HOOKCTL_TRUST_FILE="+trustFile, "GOMAXPROCS=2")
	if wd != "" {
		r.cmd.Dir = wd
		r.cmd.Env = append(r.cmd.Env, "CLAUDE_PROJECT_DIR=")
	}
	r.cmd.Stderr = r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		r.err = r.cmd.Wait()
		close(r.exited)
	}()
	t.Cleanup(func() {
		_ = r.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-r.exited:
			if r.err != nil {
				t.Errorf("replica %s: %v\n%s", r.base, r.err, r.stderr)
			}
		case <-time.After(30 * time.Second):
			_ = r.cmd.Process.Kill()
			t.Errorf("replica %s did not stop:\n%s", r.base, r.stderr)
		}
	})
	re := regexp.MustCompile(`on http://(127\.0\.0\.1:\d+)`)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(r.stderr.String()); m != nil {
			r.base = "http://" + m[1]
			return r
		}
		select {
		case <-r.exited:
			t.Fatalf("replica exited (%v):\n%s", r.err, r.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica did not start:\n%s", r.stderr)
		}
	}
}

// wait waits for the replica to exit and returns its exit status.
func (r *replica) wait(t *testing.T, within time.Duration) int {
	t.Helper()
	select {
	case <-r.exited:
	case <-time.After(within):
		t.Fatalf("replica %s still running after %s:\n%s", r.base, within, r.stderr)
	}
	if ee, ok := errors.AsType[*exec.ExitError](r.err); ok {
		return ee.ExitCode()
	}
	if r.err != nil {
		t.Fatalf("replica %s: %v", r.base, r.err)
	}
	return 0
}

// outcome is the part of an outcome JSON the fleet test reads.
type outcome struct {
	Decision          string `json:"decision"`
	Blocked           bool   `json:"blocked"`
	Reason            string `json:"reason"`
	AdditionalContext string `json:"additional_context"`
	StopGuard         *struct {
		LoopCount int    `json:"loop_count"`
		Released  bool   `json:"released"`
		Error     string `json:"error"`
	} `json:"stop_guard"`
	Hooks []struct {
		ID     string `json:"id"`
		Status string `json:"status"`
		Error  string `json:"error"`
	} `json:"hooks"`
}

// fireOn posts payload to a replica's /v1/fire/EVENT and decodes the
// outcome.
func fireOn(c *http.Client, base, event, payload string) (outcome, error) {
	resp, err := c.Post(base+"/v1/fire/"+event, "application/json", strings.NewReader(payload))
	if err != nil {
		return outcome{}, err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return outcome{}, fmt.Errorf("status %d: %s", resp.StatusCode, body)
	}
	var out outcome
	if err := json.Unmarshal(body, &out); err != nil {
		return outcome{}, fmt.Errorf("%v: %s", err, body)
	}
	return out, nil
}

const fleetHooks = `
settings {
  stop_block_cap = 3
}

hook "tests-first" {
  event    = "Stop"
  decision = "block"
  reason   = "the tests are failing"
}

hook "count-bash" {
  event    = "PreToolUse"
  matcher  = "Bash"
  on_error = "block"
  js       = <<-JS
    const n = require("hookctl/kv").incr("bash.calls", { scope: "global" });
    return { additional_context: "call " + n };
  JS
}
`

// TestFleetSharesStateOnNATS is the fleet's acceptance test: one
// nats-server with JetStream and two `hookctl serve --nats` replicas, each
// a process of its own with its own state directory, as on two machines.
//
//   - a session's Stop blocks are counted once across the replicas: with a
//     Stop hook that always blocks and stop_block_cap 3, Stop requests
//     alternating between the replicas are blocked 3 times in all, then
//     the guard lets the agent stop;
//   - a hookctl/kv incr from 2 replicas × 1,000 concurrent fires ends at
//     exactly 2,000, every fire seeing a value of its own;
//   - the audit stream holds every fire's record exactly once;
//   - when NATS goes away, a kv call throws into its hook (on_error =
//     "block" blocks, the trace has the hook's error), the guard says it
//     cannot count and the block stands, the audit records that could not
//     be published are logged with the count lost, /healthz says the state
//     is not ready; when NATS is back, so is everything;
//   - `hookctl claude` with settings.state on the same NATS continues the
//     session's streak where the replicas left it.
func TestFleetSharesStateOnNATS(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes and a nats-server")
	}
	start := time.Now()
	ns := natstest.Start(t)
	cfg := filepath.Join(t.TempDir(), "hooks.hcl")
	if err := os.WriteFile(cfg, []byte(fleetHooks), 0o600); err != nil {
		t.Fatal(err)
	}
	flags := []string{"--nats", ns.URL(), "--max-inflight", "16", "--max-queue", "1200", "--max-conns", "1300", "--queue-timeout", "60s", "--nats-timeout", "10s"}
	reps := []*replica{startReplica(t, cfg, flags...), startReplica(t, cfg, flags...)}
	t.Logf("NATS and 2 replicas up in %v", time.Since(start))
	client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 1000}}
	defer client.CloseIdleConnections()

	// (a) The Stop loop guard counts a session's blocks once, whichever
	// replica fired them.
	stop := `{"session_id":"fleet-a","hook_event_name":"Stop","stop_hook_active":false}`
	for i, want := range []struct {
		decision string
		count    int
		released bool
	}{{"block", 0, false}, {"block", 1, false}, {"block", 2, false}, {"", 3, true}, {"block", 0, false}} {
		out, err := fireOn(client, reps[i%2].base, "Stop", stop)
		if err != nil {
			t.Fatal(err)
		}
		if out.Decision != want.decision || out.StopGuard == nil || out.StopGuard.LoopCount != want.count || out.StopGuard.Released != want.released || out.StopGuard.Error != "" {
			t.Fatalf("Stop %d on replica %d: decision %q guard %+v; want %+v", i+1, i%2, out.Decision, out.StopGuard, want)
		}
	}

	// (b) 2 replicas × 1,000 concurrent kv increments of one key.
	const perReplica = 1000
	t0 := time.Now()
	var wg sync.WaitGroup
	values := make(chan string, 2*perReplica)
	errs := make(chan error, 2*perReplica)
	for r := range 2 {
		for i := range perReplica {
			wg.Go(func() {
				out, err := fireOn(client, reps[r].base, "PreToolUse", fmt.Sprintf(`{"session_id":"s%d-%d","tool_name":"Bash","tool_input":{"command":"echo %d"}}`, r, i, i))
				switch {
				case err != nil:
					errs <- err
				case out.Blocked || !strings.HasPrefix(out.AdditionalContext, "call "):
					errs <- fmt.Errorf("replica %d fire %d: %+v", r, i, out)
				default:
					values <- out.AdditionalContext
				}
			})
		}
	}
	wg.Wait()
	close(values)
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for v := range values {
		if seen[v] {
			t.Fatalf("two fires saw %q", v)
		}
		seen[v] = true
	}
	for n := 1; n <= 2*perReplica; n++ {
		if !seen[fmt.Sprintf("call %d", n)] {
			t.Fatalf("no fire saw call %d", n)
		}
	}
	t.Logf("2×%d concurrent increments in %v", perReplica, time.Since(t0))
	ctx := context.Background()
	octx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	st, err := natsstate.Open(octx, ns.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if v, ok, err := st.KV().Get(ctx, "global/bash.calls"); err != nil || !ok || v != int64(2*perReplica) {
		t.Fatalf("global/bash.calls = %v (%v, %v), want %d", v, ok, err, 2*perReplica)
	}

	// (c) The audit stream: one record per fire, none twice, once the
	// replicas' audit queues have published what they hold.
	for _, r := range reps {
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			_, h := get(t, r.base+"/healthz")
			st, _ := h["state"].(map[string]any)
			if st["audit_records_queued"] == 0.0 {
				if st["audit_records_lost"] != nil {
					t.Fatalf("replica %s lost audit records: %v", r.base, st)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("replica %s: the audit queue did not drain: %v", r.base, st)
			}
		}
	}
	stops, calls := auditRecords(t, ns.URL())
	if len(stops) != 5 {
		t.Fatalf("%d Stop records, want 5", len(stops))
	}
	// The counts the shared loop guard gave, in whatever order the two
	// replicas' audit queues published them (each flushes on its own):
	// 1, 2, 3 across replicas, then the reset, and the first.
	var counts []int
	for i, rec := range stops {
		if rec.StopGuard == nil {
			t.Fatalf("Stop record %d has no loop guard", i)
		}
		counts = append(counts, rec.StopGuard.LoopCount)
	}
	if slices.Sort(counts); !slices.Equal(counts, []int{0, 0, 1, 2, 3}) {
		t.Fatalf("Stop records' loop counts %v, want 0, 1, 2, 3 and 0", counts)
	}
	counted := map[string]int{}
	for _, rec := range calls {
		counted[rec.AdditionalContext]++
	}
	if len(calls) != 2*perReplica || len(counted) != 2*perReplica {
		t.Fatalf("%d PreToolUse records, %d distinct; want %d of each", len(calls), len(counted), 2*perReplica)
	}
	for v := range seen {
		if counted[v] != 1 {
			t.Fatalf("fire %q has %d audit records", v, counted[v])
		}
	}

	// NATS goes away under the replicas.
	ns.Stop()
	waitHealth(t, reps[0].base, false)
	out, err := fireOn(client, reps[0].base, "PreToolUse", `{"session_id":"s","tool_name":"Bash","tool_input":{"command":"ls"}}`)
	if err != nil {
		t.Fatal(err)
	}
	if !out.Blocked || len(out.Hooks) != 1 || out.Hooks[0].Status != "error" || !strings.Contains(out.Hooks[0].Error, "kv.incr") || !strings.Contains(out.Hooks[0].Error, "NATS unavailable") {
		t.Fatalf("a kv call with NATS down: %+v", out)
	}
	out, err = fireOn(client, reps[1].base, "Stop", stop)
	if err != nil {
		t.Fatal(err)
	}
	if out.Decision != "block" || out.StopGuard == nil || out.StopGuard.Released || !strings.Contains(out.StopGuard.Error, "NATS unavailable") {
		t.Fatalf("Stop with NATS down: %+v %+v", out, out.StopGuard)
	}
	for _, r := range reps {
		for deadline := time.Now().Add(5 * time.Second); !strings.Contains(r.stderr.String(), "audit record lost since start"); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the lost audit record is not logged:\n%s", r.stderr)
			}
		}
	}

	// NATS is back: the clients reconnect on their own.
	ns.Start()
	waitHealth(t, reps[0].base, true)
	waitHealth(t, reps[1].base, true)
	out, err = fireOn(client, reps[1].base, "PreToolUse", `{"session_id":"s","tool_name":"Bash","tool_input":{"command":"ls"}}`)
	if err != nil || out.Blocked || out.AdditionalContext != fmt.Sprintf("call %d", 2*perReplica+1) {
		t.Fatalf("after NATS came back: %+v %v", out, err)
	}

	// hookctl claude on the same NATS (settings.state) continues the
	// session's streak the replicas counted: 1 block since the release.
	claudeCfg := filepath.Join(t.TempDir(), "hooks.hcl")
	if err := os.WriteFile(claudeCfg, []byte(strings.Replace(fleetHooks, "settings {", fmt.Sprintf("settings {\n  state = %q", ns.URL()), 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{`{"decision":"block","reason":"the tests are failing"}`, `{"decision":"block","reason":"the tests are failing"}`, `{"systemMessage":"stop hook block cap reached (3 consecutive blocks): letting the agent stop"}`} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"claude", "--config", claudeCfg, "--allow-untrusted"}, strings.NewReader(stop), &stdout, &stderr)
		if code != 0 || strings.TrimSpace(stdout.String()) != want {
			t.Fatalf("hookctl claude %d: exit %d, %s\n%s; want %s", i+1, code, stdout.String(), stderr.String(), want)
		}
	}
	t.Logf("the whole test took %v", time.Since(start))
}

// waitHealth waits until a replica's /healthz says its state is ready
// (or not), and checks that /readyz agrees: 200, or 503 naming the
// "state" check.
func waitHealth(t *testing.T, base string, ready bool) {
	t.Helper()
	var h map[string]any
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		_, h = get(t, base+"/healthz")
		if st, _ := h["state"].(map[string]any); st != nil && st["backend"] == "nats" && st["ready"] == ready {
			code, r := get(t, base+"/readyz")
			failing := fmt.Sprint(r["failing"])
			if ready && code != http.StatusOK || !ready && (code != http.StatusServiceUnavailable || failing != "[state]") {
				t.Fatalf("%s/readyz with the state ready=%v: %d %v", base, ready, code, r)
			}
			return
		}
	}
	t.Fatalf("%s/healthz: %v; want the state ready=%v", base, h["state"], ready)
}

// auditRecords reads the whole audit stream and returns its Stop and
// PreToolUse records, in order.
func auditRecords(t *testing.T, url string) (stops, calls []outcome) {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	stream, err := js.Stream(ctx, natsstate.DefaultAuditStream)
	if err != nil {
		t.Fatal(err)
	}
	total := stream.CachedInfo().State.Msgs
	cons, err := stream.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var got uint64
	for got < total {
		batch, err := cons.Fetch(500, jetstream.FetchMaxWait(2*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for m := range batch.Messages() {
			n++
			var rec outcome
			if err := json.Unmarshal(m.Data(), &rec); err != nil {
				t.Fatalf("%s: %v", m.Data(), err)
			}
			switch m.Subject() {
			case natsstate.DefaultAuditSubject + ".Stop":
				stops = append(stops, rec)
			case natsstate.DefaultAuditSubject + ".PreToolUse":
				calls = append(calls, rec)
			default:
				t.Fatalf("a record on %s", m.Subject())
			}
		}
		if batch.Error() != nil {
			t.Fatal(batch.Error())
		}
		if n == 0 {
			t.Fatalf("the stream holds %d records, %d read", total, got)
		}
		got += uint64(n)
	}
	if uint64(len(stops)+len(calls)) != total || !slices.ContainsFunc(calls, func(o outcome) bool { return o.AdditionalContext == "call 1" }) {
		t.Fatalf("%d + %d records of %d", len(stops), len(calls), total)
	}
	return stops, calls
}
