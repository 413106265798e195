package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/metrics/metricstest"
	"github.com/hookctl/hookctl/server"
)

type httpReply struct {
	code   int
	header http.Header
	body   map[string]any
	raw    string
	err    error
}

// request is safe to call from any goroutine: a failure is in err.
func request(method, url, body string) httpReply {
	c := &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return httpReply{err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return httpReply{err: err}
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := httpReply{code: resp.StatusCode, header: resp.Header, raw: string(raw)}
	_ = json.Unmarshal(raw, &r.body)
	return r
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestServeProcessGracefulDrain: SIGTERM to a real `hookctl serve
// --drain-delay 1s` while a slow request is in flight: /readyz answers
// 503 "draining" at once while requests are still served, the in-flight
// request completes with 200 and its outcome, the background hook queued
// before the signal runs to its end (the exit line counts it), and the
// process exits 0.
func TestServeProcessGracefulDrain(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "hooks.hcl")
	writeFile(t, cfg, `
hook "slow" {
  event   = "PreToolUse"
  command = "sleep 2"
  timeout = "10s"
}
hook "audit" {
  event      = "PostToolUse"
  background = true
  command    = "sleep 2"
  timeout    = "10s"
}
`)
	p := startReplica(t, cfg, "--drain-delay", "1s")
	if r := request("GET", p.base+"/readyz", ""); r.code != 200 || r.body["status"] != "ready" {
		t.Fatalf("/readyz before: %d %s %v", r.code, r.raw, r.err)
	}
	if r := request("POST", p.base+"/v1/fire/PostToolUse", `{"tool_name":"Bash"}`); r.code != 200 || !strings.Contains(r.raw, `"status":"queued"`) {
		t.Fatalf("background fire: %d %s %v", r.code, r.raw, r.err)
	}
	slow := make(chan httpReply, 1)
	start := time.Now()
	go func() {
		slow <- request("POST", p.base+"/v1/fire/PreToolUse", `{"tool_name":"Bash","tool_input":{"command":"ls"}}`)
	}()
	// The slow request is in flight (it holds a request slot).
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		r := request("GET", p.base+"/healthz", "")
		if load, _ := r.body["load"].(map[string]any); load != nil && load["in_flight"] == 1.0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the slow request never got in flight: %s", r.raw)
		}
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	signalled := time.Now()
	var ready httpReply
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if ready = request("GET", p.base+"/readyz", ""); ready.code == 503 {
			break
		}
	}
	if ready.code != 503 || ready.body["status"] != "draining" || !strings.Contains(ready.raw, `"failing":["draining"]`) {
		t.Fatalf("/readyz after SIGTERM: %d %s %v", ready.code, ready.raw, ready.err)
	}
	if d := time.Since(signalled); d > 900*time.Millisecond {
		t.Fatalf("/readyz went 503 after %s, not at once", d)
	}
	// Still serving during the drain delay: liveness and new requests.
	if r := request("GET", p.base+"/livez", ""); r.code != 200 {
		t.Fatalf("/livez while draining: %d %s %v", r.code, r.raw, r.err)
	}
	if r := request("POST", p.base+"/v1/fire/SessionStart", `{}`); r.code != 200 {
		t.Fatalf("a request while draining: %d %s %v", r.code, r.raw, r.err)
	}

	r := <-slow
	if r.err != nil || r.code != 200 {
		t.Fatalf("the in-flight request: %d %s %v", r.code, r.raw, r.err)
	}
	hooks, _ := r.body["hooks"].([]any)
	if len(hooks) != 1 || hooks[0].(map[string]any)["id"] != "slow" || hooks[0].(map[string]any)["status"] != "ran" || r.body["blocked"] != false {
		t.Fatalf("the in-flight request's outcome: %s", r.raw)
	}
	if took := time.Since(start); took < 2*time.Second {
		t.Fatalf("the slow hook took %s", took)
	}
	if code := p.wait(t, 20*time.Second); code != 0 {
		t.Fatalf("exit %d: %s", code, p.stderr)
	}
	for _, want := range []string{
		"hookctl: draining: /readyz answers 503; serving for 1s more",
		"hookctl: shutting down",
		"stopped after 2 fires; background hooks: 1 done, 0 dropped",
	} {
		if !strings.Contains(p.stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, p.stderr)
		}
	}
}

// TestServeProcessMetrics scrapes /metrics from a real `hookctl serve`
// and parses it: three denied fires, a hook that timed out, a name that is
// no event (no label), the script pool, and the Go and process
// collectors.
func TestServeProcessMetrics(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "hooks.hcl")
	writeFile(t, cfg, serveHooks+`
hook "spin" {
  event   = "Stop"
  timeout = "50ms"
  js      = "while (true) {}"
}
`)
	p := startReplica(t, cfg)
	for range 3 {
		if r := request("POST", p.base+"/v1/fire/PreToolUse", rmPayload); r.code != 200 || r.body["decision"] != "deny" {
			t.Fatalf("%d %s %v", r.code, r.raw, r.err)
		}
	}
	if r := request("POST", p.base+"/v1/fire/Stop", `{}`); r.code != 200 || !strings.Contains(r.raw, `"status":"timeout"`) {
		t.Fatalf("Stop: %d %s %v", r.code, r.raw, r.err)
	}
	if r := request("POST", p.base+"/v1/fire/NoSuchEvent", `{}`); r.code != 404 {
		t.Fatalf("unknown event: %d %s %v", r.code, r.raw, r.err)
	}
	f, err := metricstest.Scrape(context.Background(), p.base+"/metrics")
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range f.Check([]metricstest.Want{
		{Value: 3, Name: "hookctl_fires_total", Labels: []string{"event", "PreToolUse", "decision", "deny"}},
		{Value: 1, Name: "hookctl_fires_total", Labels: []string{"event", "Stop", "decision", "none"}},
		{Value: 3, Name: "hookctl_hook_status_total", Labels: []string{"event", "PreToolUse", "hook", "no-rm-rf", "status", "decided"}},
		{Value: 1, Name: "hookctl_hook_errors_total", Labels: []string{"event", "Stop", "hook", "spin", "kind", "timeout"}},
		{Value: 1, Name: "hookctl_hook_duration_seconds_count", Labels: []string{"event", "Stop", "hook", "spin", "handler", "js"}},
		{Value: 4, Name: "hookctl_http_requests_total", Labels: []string{"route", "/v1/fire/{event}", "code", "200"}},
		{Value: 1, Name: "hookctl_config_info"},
		{Value: 1, Name: "hookctl_config_last_reload_successful"},
		{Value: 0, Name: "hookctl_config_reloads_total", Labels: []string{"result", "failure"}},
		{Value: 0, Name: "hookctl_background_queue_depth"},
		{Value: 0, Name: "hookctl_script_runtimes_in_use"},
	}...) {
		t.Error(msg)
	}
	if n, _ := f.Value("hookctl_script_runtimes"); n < 1 {
		t.Errorf("hookctl_script_runtimes = %v", n)
	}
	for _, ev := range f.LabelValues("hookctl_fires_total", "event") {
		if ev == "NoSuchEvent" {
			t.Error("an unknown event name became a label")
		}
	}
	for _, name := range []string{"go_goroutines", "process_start_time_seconds", "hookctl_config_last_reload_success_timestamp_seconds"} {
		if _, ok := f.Value(name); !ok {
			t.Errorf("no %s", name)
		}
	}
}

// TestServeProcessConfigHash: two processes on the same files report the
// same hash (Config.Hash of those files) in /healthz, /readyz, the
// Hookctl-Config-Hash header of fire replies and hookctl_config_info; a
// reload changes it in both; a failed reload keeps it and counts a
// failure.
func TestServeProcessConfigHash(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "hooks.hcl")
	writeFile(t, cfg, serveHooks)
	expect := func() string {
		t.Helper()
		c, err := assemble.Load(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		h, err := c.Hash()
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	// hashes reads what a replica reports in each place.
	hashes := func(p *replica) []string {
		t.Helper()
		health := request("GET", p.base+"/healthz", "")
		ready := request("GET", p.base+"/readyz", "")
		fire := request("POST", p.base+"/v1/fire/PreToolUse", rmPayload)
		f, err := metricstest.Scrape(context.Background(), p.base+"/metrics")
		if err != nil {
			t.Fatal(err)
		}
		info := f.LabelValues("hookctl_config_info", "hash")
		if len(info) != 1 {
			t.Fatalf("config_info hashes %v, want one", info)
		}
		h1, _ := health.body["config_hash"].(string)
		h2, _ := ready.body["config_hash"].(string)
		return []string{h1, h2, fire.header.Get(server.HeaderConfigHash), info[0]}
	}
	same := func(what string, got []string, want string) {
		t.Helper()
		for i, h := range got {
			if h != want {
				t.Fatalf("%s: %s hash %q, want %q (all: %v)", what, []string{"/healthz", "/readyz", "header", "config_info"}[i], h, want, got)
			}
		}
	}
	h1 := expect()
	a := startReplica(t, cfg, "--reload-interval", "20ms")
	b := startReplica(t, cfg, "--reload-interval", "20ms")
	same("replica a", hashes(a), h1)
	same("replica b", hashes(b), h1)

	writeFile(t, cfg, strings.Replace(serveHooks, "rm -rf is not allowed", "rm -rf is never allowed", 1))
	h2 := expect()
	if h2 == h1 {
		t.Fatal("a changed file kept its hash")
	}
	for _, p := range []*replica{a, b} {
		if r := waitReply(t, p.base+"/healthz", func(r httpReply) bool { return r.body["config_hash"] == h2 }); r.body["config_hash"] != h2 {
			t.Fatalf("after the reload: %s", r.raw)
		}
		same("reloaded", hashes(p), h2)
	}

	writeFile(t, cfg, "hook \"broken\" {\n")
	var f metricstest.Families
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var err error
		if f, err = metricstest.Scrape(context.Background(), a.base+"/metrics"); err != nil {
			t.Fatal(err)
		}
		if n, _ := f.Value("hookctl_config_reloads_total", "result", "failure"); n >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no failed reload counted: %s", a.stderr)
		}
	}
	if n, _ := f.Value("hookctl_config_reloads_total", "result", "success"); n != 1 {
		t.Errorf("%v successful reloads, want 1", n)
	}
	if ok, _ := f.Value("hookctl_config_last_reload_successful"); ok != 0 {
		t.Errorf("last_reload_successful %v after a failure", ok)
	}
	same("after a failed reload", hashes(a), h2)
	if r := request("GET", a.base+"/readyz", ""); r.code != 200 {
		t.Errorf("a failed reload made the replica unready: %d %s", r.code, r.raw)
	}
}

// waitReply GETs url until ok accepts the reply, for 10s at most.
func waitReply(t *testing.T, url string, ok func(httpReply) bool) httpReply {
	t.Helper()
	var r httpReply
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if r = request("GET", url, ""); ok(r) {
			break
		}
	}
	return r
}
