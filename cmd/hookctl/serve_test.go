package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/syncbuf"
)

const serveHooks = `
hook "no-rm-rf" {
  event    = "PreToolUse"
  when     = "tool_input.command contains 'rm -rf'"
  decision = "deny"
  reason   = "rm -rf is not allowed"
}
`

// startServe runs hookctl serve in-process with args on a free loopback
// port and returns its base URL; it is stopped (as by SIGINT) at cleanup.
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	return startServeWith(t, serveHooks, args...)
}

// startServeWith is startServe with the configuration hooks.
func startServeWith(t *testing.T, hooks string, args ...string) string {
	t.Helper()
	return startServeOut(t, hooks, &syncbuf.Buffer{}, args...)
}

// startServeLogging is startServe with an empty configuration (args give
// another with --config) and its stderr written to stderr.
func startServeLogging(t *testing.T, stderr *syncbuf.Buffer, args ...string) string {
	t.Helper()
	return startServeOut(t, "", stderr, args...)
}

func startServeOut(t *testing.T, hooks string, stderr *syncbuf.Buffer, args ...string) string {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "hooks.hcl")
	if err := os.WriteFile(cfg, []byte(hooks), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOOKCTL_CONFIG", "")
	t.Setenv("HOOKCTL_STATE_DIR", filepath.Join(dir, "state"))
	t.Setenv("HOOKCTL_TRUST_FILE", filepath.Join(dir, "trusted.json"))
	ctx, cancel := context.WithCancel(context.Background())
	code := make(chan int, 1)
	go func() {
		code <- runContext(ctx, append([]string{"serve", "--config", cfg, "--listen", "127.0.0.1:0", "--allow-untrusted"}, args...),
			strings.NewReader(""), io.Discard, stderr)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case c := <-code:
			if c != 0 {
				t.Errorf("serve exited %d: %s", c, stderr)
			}
		case <-time.After(40 * time.Second):
			t.Errorf("serve did not stop: %s", stderr)
		}
	})
	re := regexp.MustCompile(`on http://(127\.0\.0\.1:\d+)`)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			return "http://" + m[1]
		}
		select {
		case c := <-code:
			t.Fatalf("serve exited %d: %s", c, stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start: %s", stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := c.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func get(t *testing.T, url string) (int, map[string]any) {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m
}

const rmPayload = `{"session_id":"s1","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`

// TestServeFlagsBoundSlowConnections: hookctl serve with --max-conns 40
// and 2s header and idle timeouts, under 300 connections that send
// nothing or an unfinished request, keeps answering /healthz and a
// normal request at once, closes the connections past the limit at once
// and the others at their timeout.
func TestServeFlagsBoundSlowConnections(t *testing.T) {
	const timeout = 2 * time.Second
	url := startServe(t, "--max-conns", "40", "--max-inflight", "8", "--max-queue", "8", "--read-header-timeout", timeout.String(), "--idle-timeout", timeout.String())
	addr := strings.TrimPrefix(url, "http://")
	var slow []net.Conn
	defer func() {
		for _, c := range slow {
			c.Close()
		}
	}()
	t0 := time.Now()
	for i := range 300 {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		if i%2 == 1 {
			fmt.Fprintf(conn, "POST /claude HTTP/1.1\r\nHost: x\r\n")
		}
		slow = append(slow, conn)
	}
	start := time.Now()
	code, h := get(t, url+"/healthz")
	if code != 200 || h["status"] != "ok" {
		t.Fatalf("healthz: %d %v", code, h)
	}
	if code, body := post(t, url+"/claude", rmPayload); code != 200 || !strings.Contains(body, `"permissionDecision":"deny"`) {
		t.Fatalf("%d %s", code, body)
	}
	if d := time.Since(start); d > timeout/2 {
		t.Fatalf("answered after %s", d)
	}
	load := h["load"].(map[string]any)
	if load["max_connections"] != 40.0 || load["connections"].(float64) > 40 {
		t.Fatalf("load %v", load)
	}
	closedEarly := 0
	for _, conn := range slow {
		_ = conn.SetReadDeadline(t0.Add(timeout / 2))
		if _, err := io.Copy(io.Discard, conn); !isTimeout(err) {
			closedEarly++
		}
	}
	if closedEarly < 260 {
		t.Fatalf("%d of 300 closed before the timeouts, want at least 260", closedEarly)
	}
	late := time.Now().Add(timeout + 3*time.Second)
	for i, conn := range slow {
		_ = conn.SetReadDeadline(late)
		if _, err := io.Copy(io.Discard, conn); isTimeout(err) {
			t.Fatalf("slow connection %d still open after %s", i, time.Since(t0))
		}
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// TestServeFlagsBoundInput: --max-body, --max-depth and --max-values reach
// the server: past them a request is refused naming the limit (on
// /v1/fire with its status, on /claude with Claude Code's block), and
// /healthz reports the limits in force.
func TestServeFlagsBoundInput(t *testing.T) {
	url := startServe(t, "--max-body", "4K", "--max-depth", "8", "--max-values", "100", "--max-inflight", "3", "--max-queue", "5")
	for _, tc := range []struct {
		body string
		code int
		want string
	}{
		{`{"hook_event_name":"Stop","pad":"` + strings.Repeat("x", 5000) + `"}`, 413, "larger than 4096 bytes (the max-body limit)"},
		{`{"hook_event_name":"Stop","a":` + strings.Repeat("[", 9) + strings.Repeat("]", 9) + `}`, 400, "nested deeper than 8 levels (the max-depth limit)"},
		{`{"hook_event_name":"Stop","a":[` + strings.TrimSuffix(strings.Repeat("0,", 100), ",") + `]}`, 413, "more than 100 JSON values (the max-values limit)"},
		{rmPayload, 200, `"permissionDecision":"deny"`},
	} {
		for _, path := range []string{"/claude", "/v1/fire/PreToolUse"} {
			if tc.code == 200 && path != "/claude" {
				continue
			}
			want := tc.code
			if path == "/claude" {
				want = 200
			}
			code, body := post(t, url+path, tc.body)
			if code != want || !strings.Contains(body, tc.want) || path == "/claude" && !strings.Contains(body, `"decision":"block"`) && !strings.Contains(body, `"deny"`) {
				t.Errorf("%s: %d %s, want %d %q", path, code, body, want, tc.want)
			}
		}
	}
	_, h := get(t, url+"/healthz")
	load := h["load"].(map[string]any)
	if load["max_in_flight"] != 3.0 || load["max_queue"] != 5.0 || load["refused_input"] != 6.0 {
		t.Fatalf("load %v", load)
	}
}

// TestServeRejectsBadLimits: a limit that is not positive, or a size that
// does not parse, is a usage error.
func TestServeRejectsBadLimits(t *testing.T) {
	for _, args := range [][]string{
		{"--max-body", "0"}, {"--max-conns", "0"}, {"--read-timeout", "0s"}, {"--max-body", "12X"}, {"--max-memory", "-1"},
		{"--max-conns", "100", "--max-inflight", "50", "--max-queue", "50"},
	} {
		var stderr bytes.Buffer
		code := run(append([]string{"serve", "--listen", "127.0.0.1:0", "--allow-untrusted"}, args...), strings.NewReader(""), io.Discard, &stderr)
		if code != exitFailure || !strings.Contains(stderr.String(), strings.TrimPrefix(args[0], "--")) {
			t.Errorf("%v: exit %d: %s", args, code, stderr.String())
		}
	}
}

func TestByteSize(t *testing.T) {
	for in, want := range map[string]int64{"65536": 65536, "64K": 64 << 10, "64KiB": 64 << 10, "16m": 16 << 20, "16MB": 16 << 20, "1G": 1 << 30, "0": 0} {
		var b byteSize
		if err := b.Set(in); err != nil || int64(b) != want {
			t.Errorf("%s: %d %v, want %d", in, b, err, want)
		}
	}
	for _, in := range []string{"", "K", "1.5M", "-1", "1T", "99999999999G"} {
		var b byteSize
		if err := b.Set(in); err == nil {
			t.Errorf("%q accepted as %d", in, b)
		}
	}
	b := byteSize(64 << 20)
	if b.String() != "64M" {
		t.Errorf("%s", b.String())
	}
}

// TestClaudeStdinIsBounded: hookctl claude refuses stdin past the input
// limits (here 3 million empty objects, ~400 MB decoded) before decoding
// it: exit status 2, the block of the event it cannot read, naming the
// limit, allocating a small
// fraction of what decoding would.
func TestClaudeStdinIsBounded(t *testing.T) {
	var in bytes.Buffer
	in.WriteString(`{"hook_event_name":"PreToolUse","a":[`)
	for i := range 3_000_000 {
		if i > 0 {
			in.WriteByte(',')
		}
		in.WriteString("{}")
	}
	in.WriteString("]}")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var stdout, stderr bytes.Buffer
	code := run([]string{"claude", "--allow-untrusted"}, &in, &stdout, &stderr)
	runtime.ReadMemStats(&after)
	if code != 2 || stdout.Len() != 0 || !strings.Contains(stderr.String(), "hook input: more than 1000000 JSON values (the max-values limit)") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Fatalf("allocated %d bytes to refuse it", alloc)
	}
}

// /healthz of a real serve says "wedged" (503) when every script runtime
// has been busy past --wedged-after, and ok again once they are free.
func TestServeHealthzReportsWedgedScripts(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs sleep")
	}
	const hooks = `
settings { script_pool = 1 }
hook "slow" {
  event   = "PreToolUse"
  allow   = ["exec"]
  timeout = "3s"
  js      = "require('hookctl/exec').run(['sleep', '2'])"
}
`
	base := startServeWith(t, hooks, "--wedged-after", "500ms")
	if code, body := get(t, base+"/healthz"); code != http.StatusOK {
		t.Fatalf("idle server: /healthz %d %v", code, body)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		post(t, base+"/v1/fire/PreToolUse", `{"tool_name":"Bash","tool_input":{"command":"ls"}}`)
	}()
	var code int
	var body map[string]any
	for deadline := time.Now().Add(1800 * time.Millisecond); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if code, body = get(t, base+"/healthz"); code == http.StatusServiceUnavailable {
			break
		}
	}
	if code != http.StatusServiceUnavailable || body["status"] != "wedged" {
		t.Fatalf("every runtime busy past --wedged-after: /healthz %d %v; want 503 wedged", code, body)
	}
	<-done
	if code, body := get(t, base+"/healthz"); code != http.StatusOK {
		t.Fatalf("after the call: /healthz %d %v", code, body)
	}
}
