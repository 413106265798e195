package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/daemon"
	"github.com/hookctl/hookctl/internal/syncbuf"
	"github.com/hookctl/hookctl/runtime"
	"github.com/hookctl/hookctl/state/natsstate/natstest"
)

// silentServer accepts TCP connections on 127.0.0.1 and never says a
// word: a NATS address whose connections hang rather than fail.
func silentServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	return "nats://" + ln.Addr().String()
}

// freeURL is a nats:// URL nothing listens on.
func freeURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	return "nats://" + ln.Addr().String()
}

func writeConfig(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "hooks.hcl")
	if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOOKCTL_CONFIG", "")
	t.Setenv("HOOKCTL_STATE_DIR", filepath.Join(dir, "state"))
	t.Setenv("HOOKCTL_TRUST_FILE", filepath.Join(dir, "trusted.json"))
	return p
}

// TestServeNATSAtStart: hookctl serve with shared state on NATS that
// cannot be reached does not serve: exit 1 with a message naming the
// servers and where they were given, within the connect timeout, whether
// nothing listens or the address accepts and never answers. A --nats that
// is not a NATS URL list is a usage error, and so is a bad --nats-timeout.
func TestServeNATSAtStart(t *testing.T) {
	cfg := writeConfig(t, serveHooks)
	stateCfg := writeConfig(t, "settings {\n  state = \""+freeURL(t)+"\"\n}\n"+serveHooks)
	silent := silentServer(t)
	ns := natstest.Start(t)
	for _, tc := range []struct {
		name string
		args []string
		want string
		max  time.Duration
	}{
		{"nothing listens", []string{"--config", cfg, "--nats", freeURL(t)}, `shared state on NATS nats://127.0.0.1:\d+ \(--nats\): natsstate: open: NATS unavailable`, 3 * time.Second},
		{"silent server", []string{"--config", cfg, "--nats", silent, "--nats-timeout", "500ms"}, `shared state on NATS nats://127.0.0.1:\d+ \(--nats\): natsstate: open: NATS unavailable`, 3 * time.Second},
		{"settings.state", []string{"--config", stateCfg}, `shared state on NATS nats://127.0.0.1:\d+ \(settings.state at .*hooks.hcl:2:11\): natsstate: open: NATS unavailable`, 3 * time.Second},
		{"not a URL", []string{"--config", cfg, "--nats", "127.0.0.1:4222"}, `--nats: "127.0.0.1:4222": not a URL`, time.Second},
		{"bad scheme", []string{"--config", cfg, "--nats", "nats://a:4222,http://b"}, `--nats: "http://b": scheme "http": want nats:// or tls://`, time.Second},
		{"bad timeout", []string{"--config", cfg, "--nats", "nats://a:4222", "--nats-timeout", "0s"}, `--nats-timeout must be positive`, time.Second},
		{"bad replicas", []string{"--config", cfg, "--nats", "nats://a:4222", "--nats-replicas", "0"}, `--nats-replicas must be 1 to 5`, time.Second},
		{"more replicas than servers", []string{"--config", cfg, "--nats", ns.URL(), "--nats-replicas", "3"}, `natsstate: open: bucket hookctl: .*replicas`, 5 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			start := time.Now()
			code := run(append([]string{"serve", "--listen", "127.0.0.1:0", "--allow-untrusted"}, tc.args...), strings.NewReader(""), io.Discard, &stderr)
			took := time.Since(start)
			if code != exitFailure || !regexp.MustCompile(tc.want).MatchString(stderr.String()) {
				t.Fatalf("exit %d: %s\nwant exit 1 and %s", code, stderr.String(), tc.want)
			}
			if took > tc.max {
				t.Fatalf("took %v to fail", took)
			}
			if strings.Contains(stderr.String(), "serving") {
				t.Fatalf("it served: %s", stderr.String())
			}
		})
	}
}

// TestServeStateSetting: settings.state is read at start; a reload that
// changes it is reported (stderr, /healthz) and leaves the state where it
// is. /healthz says where the state is and that it is ready.
func TestServeStateSetting(t *testing.T) {
	ns := natstest.Start(t)
	hooks := "settings {\n  state = \"" + ns.URL() + "\"\n}\n" + serveHooks
	dir := t.TempDir()
	cfg := filepath.Join(dir, "hooks.hcl")
	if err := os.WriteFile(cfg, []byte(hooks), 0o600); err != nil {
		t.Fatal(err)
	}
	var stderr syncbuf.Buffer
	base := startServeLogging(t, &stderr, "--config", cfg, "--reload-interval", "50ms")
	_, h := get(t, base+"/healthz")
	st, _ := h["state"].(map[string]any)
	if st["backend"] != "nats" || st["ready"] != true || st["servers"] != ns.URL() || !strings.Contains(fmt.Sprint(st["source"]), "hooks.hcl:2:11") {
		t.Fatalf("/healthz state %v", h["state"])
	}
	// A reload that only moves settings.state within its file (and adds a
	// hook, to be seen) leaves nothing to report.
	moved := "# the fleet's hooks\n" + hooks + "hook \"also\" {\n  event = \"Stop\"\n  decision = \"block\"\n}\n"
	if err := os.WriteFile(cfg, []byte(moved), 0o600); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); h["hooks"] != 2.0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not reloaded: %v", h)
		}
		_, h = get(t, base+"/healthz")
	}
	if h["state_pending"] != nil || strings.Contains(stderr.String(), "stays on") {
		t.Fatalf("a reload that did not move the state: %v\n%s", h, stderr.String())
	}
	// The configuration moves its state to a file: that needs a restart.
	if err := os.WriteFile(cfg, []byte("settings {\n  state_file = \"kv.json\"\n}\n"+serveHooks+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, h = get(t, base+"/healthz")
		if p, _ := h["state_pending"].(string); strings.Contains(p, "stays on NATS") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the change is not reported: %v", h)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if st, _ := h["state"].(map[string]any); st["backend"] != "nats" {
		t.Fatalf("the state moved: %v", st)
	}
}

// TestServeFileState: without NATS, serve keeps its state in
// settings.state_file, and /healthz says so.
func TestServeFileState(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "state", "kv.json")
	base := startServeWith(t, fmt.Sprintf("settings {\n  state_file = %q\n}\n", file)+`
hook "count" {
  event = "PreToolUse"
  js    = "return { additional_context: 'n=' + require('hookctl/kv').incr('n', { scope: 'global' }) }"
}
`)
	for i := 1; i <= 2; i++ {
		if code, body := post(t, base+"/v1/fire/PreToolUse", `{"tool_name":"Bash"}`); code != 200 || !strings.Contains(body, fmt.Sprintf(`"additional_context":"n=%d"`, i)) {
			t.Fatalf("%d %s", code, body)
		}
	}
	_, h := get(t, base+"/healthz")
	if st, _ := h["state"].(map[string]any); st["backend"] != "file" || st["path"] != file || st["ready"] != true {
		t.Fatalf("/healthz state %v", h["state"])
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("state_file not used: %v", err)
	}
}

// TestClaudeNATSUnreachable: hookctl claude with settings.state on NATS
// that cannot be reached (here an address that accepts and never answers)
// answers within a few seconds and fails nothing open: the Stop block
// stands and the reply says the loop guard could not count, a kv hook
// fails into its on_error (block), and the audit record that could not be
// published is logged with the count lost.
func TestClaudeNATSUnreachable(t *testing.T) {
	cfg := writeConfig(t, `settings {
  state = "`+silentServer(t)+`"
}
hook "tests-first" {
  event    = "Stop"
  decision = "block"
  reason   = "the tests are failing"
}
hook "rate" {
  event    = "PreToolUse"
  on_error = "block"
  js       = "require('hookctl/kv').incr('calls')"
}
`)
	for _, tc := range []struct {
		payload string
		want    []string
	}{
		{`{"hook_event_name":"Stop","session_id":"s1"}`, []string{
			`"decision":"block","reason":"the tests are failing"`,
			`"systemMessage":"hookctl: the Stop loop guard could not count (reading the loop count: shared state on NATS nats://127.0.0.1:`,
			`NATS unavailable`,
		}},
		{`{"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"}}`, []string{
			`"permissionDecision":"deny"`, `kv.incr: shared state on NATS`, `NATS unavailable`,
		}},
	} {
		var stdout, stderr bytes.Buffer
		start := time.Now()
		code := run([]string{"claude", "--config", cfg, "--allow-untrusted"}, strings.NewReader(tc.payload), &stdout, &stderr)
		if took := time.Since(start); took > 8*time.Second {
			t.Errorf("took %v", took)
		}
		if code != 0 {
			t.Fatalf("exit %d: %s %s", code, stdout.String(), stderr.String())
		}
		for _, w := range tc.want {
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("reply %s\nlacks %s", stdout.String(), w)
			}
		}
		if !strings.Contains(stderr.String(), "audit record not written") || !strings.Contains(stderr.String(), "(1 audit record lost since start)") {
			t.Errorf("stderr %s", stderr.String())
		}
	}
}

// TestServeNATSFlagOverridesSetting: --nats wins over settings.state (here
// an address where nothing listens), and serve says so on stderr.
func TestServeNATSFlagOverridesSetting(t *testing.T) {
	ns := natstest.Start(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "hooks.hcl")
	if err := os.WriteFile(cfg, []byte("settings {\n  state = \""+freeURL(t)+"\"\n}\n"+serveHooks), 0o600); err != nil {
		t.Fatal(err)
	}
	var stderr syncbuf.Buffer
	base := startServeLogging(t, &stderr, "--config", cfg, "--nats", ns.URL())
	_, h := get(t, base+"/healthz")
	if st, _ := h["state"].(map[string]any); st["servers"] != ns.URL() || st["source"] != "--nats" || st["ready"] != true {
		t.Fatalf("/healthz state %v", h["state"])
	}
	if !regexp.MustCompile(`--nats overrides the configuration's NATS nats://127.0.0.1:\d+ \(settings.state at .*hooks.hcl:2:11\)`).MatchString(stderr.String()) {
		t.Fatalf("stderr: %s", stderr.String())
	}
}

// TestDaemonKeepsNATSState: the daemon's cached engine keeps its state on
// NATS across calls (one connection, the loop guard counting across
// them) and closes it when the engine is retired.
func TestDaemonKeepsNATSState(t *testing.T) {
	ns := natstest.Start(t)
	cfg := writeConfig(t, "settings {\n  state = \""+ns.URL()+"\"\n  stop_block_cap = 1\n}\n"+`
hook "tests-first" {
  event    = "Stop"
  decision = "block"
  reason   = "the tests are failing"
}
`)
	cache := settledCache()
	rt := newHookRuntime(runtime.Hosts(), cache, nil)
	call := func() string {
		resp := runCall(t.Context(), &daemon.Request{Hook: daemon.Hook{Command: "claude", Config: cfg, AllowUntrusted: true},
			Stdin: []byte(`{"hook_event_name":"Stop","session_id":"d1"}`)}, rt)
		if resp.Code != 0 {
			t.Fatalf("exit %d: %s", resp.Code, resp.Stderr)
		}
		return string(resp.Stdout)
	}
	if out := call(); !strings.Contains(out, `"decision":"block"`) {
		t.Fatal(out)
	}
	if out := call(); !strings.Contains(out, "stop hook block cap reached") {
		t.Fatal(out)
	}
	abs, _ := filepath.Abs(cfg)
	_, st, release, ok := cache.Lookup(abs)
	if !ok {
		t.Fatal("no cached engine")
	}
	state := st.(*sharedState)
	if state.Ready() != nil || !state.onNATS() {
		t.Fatal("the cached engine's state is not on NATS")
	}
	if n := ns.Running().NumClients(); n != 1 {
		t.Fatalf("%d clients connected, want the cached engine's 1", n)
	}
	release()
	cache.Close()
	for deadline := time.Now().Add(5 * time.Second); state.Ready() == nil || ns.Running().NumClients() != 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the retired engine's NATS connection is still open")
		}
	}
}

// TestServeMemoryState: settings.state = "memory:" keeps serve's state in
// its memory for as long as it runs, and /healthz says so.
func TestServeMemoryState(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOOKCTL_STATE_DIR", filepath.Join(dir, "state"))
	base := startServeWith(t, "settings {\n  state = \"memory:\"\n}\n"+`
hook "count" {
  event = "PreToolUse"
  js    = "return { additional_context: 'n=' + require('hookctl/kv').incr('n', { scope: 'global' }) }"
}
`)
	for i := 1; i <= 2; i++ {
		if code, body := post(t, base+"/v1/fire/PreToolUse", `{"tool_name":"Bash"}`); code != 200 || !strings.Contains(body, fmt.Sprintf(`"additional_context":"n=%d"`, i)) {
			t.Fatalf("%d %s", code, body)
		}
	}
	_, h := get(t, base+"/healthz")
	if st, _ := h["state"].(map[string]any); st["backend"] != "memory" || st["ready"] != true {
		t.Fatalf("/healthz state %v", h["state"])
	}
	if _, err := os.Stat(filepath.Join(dir, "state")); !os.IsNotExist(err) {
		t.Fatalf("the state directory was made: %v", err)
	}
}

// TestClaudeBadStateURL: a settings.state naming a scheme no backend has
// fails the load with a message naming settings.state: hookctl claude
// blocks and says why.
func TestClaudeBadStateURL(t *testing.T) {
	cfg := writeConfig(t, "settings {\n  state = \"redis://cache:6379\"\n}\n"+`
hook "tests-first" {
  event    = "Stop"
  decision = "block"
  reason   = "the tests are failing"
}
`)
	var stdout, stderr bytes.Buffer
	code := run([]string{"claude", "--config", cfg, "--allow-untrusted"}, strings.NewReader(`{"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"}}`), &stdout, &stderr)
	if code != 0 || !strings.Contains(stdout.String(), `"permissionDecision":"deny"`) ||
		!strings.Contains(stdout.String(), `settings.state: \"redis://cache:6379\": unknown state URL scheme \"redis\"`) {
		t.Fatalf("exit %d: %s\n%s", code, stdout.String(), stderr.String())
	}
}

// TestClaudeMemoryStateRefused: hookctl claude forgets its memory after
// each call, so settings.state = "memory:" would reset every count kept
// in the state (a rate limit, the Stop loop guard) at every call: the
// state is refused, a kv hook fails into its on_error (block) and the
// Stop block stands with the guard saying it could not count.
func TestClaudeMemoryStateRefused(t *testing.T) {
	cfg := writeConfig(t, `settings {
  state = "memory:"
}
hook "tests-first" {
  event    = "Stop"
  decision = "block"
  reason   = "the tests are failing"
}
hook "rate" {
  event    = "PreToolUse"
  on_error = "block"
  js       = "if (require('hookctl/kv').incr('calls') > 100) return { decision: 'deny' }"
}
`)
	for _, tc := range []struct {
		payload string
		want    []string
	}{
		{`{"hook_event_name":"Stop","session_id":"s1"}`, []string{
			`"decision":"block","reason":"the tests are failing"`,
			`the Stop loop guard could not count`, `the memory state is refused here: hookctl claude keeps nothing between calls`,
		}},
		{`{"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"}}`, []string{
			`"permissionDecision":"deny"`, `the memory state is refused here`,
		}},
	} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"claude", "--config", cfg, "--allow-untrusted"}, strings.NewReader(tc.payload), &stdout, &stderr)
		if code != 0 {
			t.Fatalf("exit %d: %s %s", code, stdout.String(), stderr.String())
		}
		for _, w := range tc.want {
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("reply %s\nlacks %s", stdout.String(), w)
			}
		}
	}
}
