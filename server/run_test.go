package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/server"
)

// syncBuffer is a lifecycle's stderr, read while it runs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startRunning starts serving the configuration at path on a free
// loopback port; the test shuts it down at its end.
func startRunning(t *testing.T, path string, stderr io.Writer, cfg server.Config) *server.Running {
	t.Helper()
	cfg.Path, cfg.Listen, cfg.ProjectDir, cfg.AllowUntrusted = path, "127.0.0.1:0", filepath.Dir(path), true
	t.Setenv("HOOKCTL_STATE_DIR", t.TempDir())
	r, err := server.Start(t.Context(), cfg, server.WithStderr(stderr))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Shutdown(context.Background()) })
	return r
}

// getJSON is the status and JSON body of a request to the server.
func getJSON(t *testing.T, r *server.Running, method, path, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, "http://"+r.Addr().String()+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return resp.StatusCode, out
}

// waitHealth polls /healthz until ok says it is what the test waits for.
func waitHealth(t *testing.T, r *server.Running, ok func(map[string]any) bool) map[string]any {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, h := getJSON(t, r, "GET", "/healthz", "")
		if ok(h) {
			return h
		}
		if time.Now().After(deadline) {
			t.Fatalf("/healthz never got there: %v", h)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// replace writes a file's new contents at once (a rename), as editors
// do: the watcher never reads half of it.
func replace(t *testing.T, path, contents string) {
	t.Helper()
	tmp := path + ".new"
	if err := os.WriteFile(tmp, []byte(contents), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

const denyRm = `
hook "no-rm" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "tool_input.command contains 'rm'"
  decision = "deny"
  reason   = "no rm"
}
`

// TestRunReloadKeepsLastGood: a reload that breaks the configuration
// keeps the last good one serving (its decisions and its hash), /healthz
// says what failed and stderr that the previous configuration serves; a
// good configuration then reloads and clears the error.
func TestRunReloadKeepsLastGood(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hooks.hcl")
	if err := os.WriteFile(path, []byte(denyRm), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	r := startRunning(t, path, &stderr, server.Config{ReloadInterval: 10 * time.Millisecond})
	fire := func() string {
		code, out := getJSON(t, r, "POST", "/v1/fire/PreToolUse", `{"tool_name":"Bash","tool_input":{"command":"rm -rf x"}}`)
		if code != 200 {
			t.Fatalf("fire: %d %v", code, out)
		}
		d, _ := out["decision"].(string)
		return d
	}
	_, h := getJSON(t, r, "GET", "/healthz", "")
	good, _ := h["config_hash"].(string)
	if good == "" || h["hooks"] != float64(1) || fire() != "deny" {
		t.Fatalf("before: %v", h)
	}
	replace(t, path, denyRm+"\nhook \"broken\" {\n")
	h = waitHealth(t, r, func(h map[string]any) bool { return h["last_error"] != nil })
	if h["config_hash"] != good || h["hooks"] != float64(1) {
		t.Fatalf("a broken reload replaced the configuration: %v", h)
	}
	if fire() != "deny" {
		t.Fatal("the last good configuration no longer denies")
	}
	if code, ready := getJSON(t, r, "GET", "/readyz", ""); code != 200 {
		t.Fatalf("/readyz after a failed reload: %d %v", code, ready)
	}
	if !strings.Contains(stderr.String(), "hookctl: reload failed; the previous configuration keeps serving:\n") {
		t.Fatalf("stderr: %q", stderr.String())
	}
	// A good configuration again: served, the error gone.
	replace(t, path, strings.Replace(denyRm, "'rm'", "'rmdir'", 1))
	h = waitHealth(t, r, func(h map[string]any) bool { return h["last_error"] == nil })
	if h["config_hash"] == good || fire() == "deny" {
		t.Fatalf("after the fix: %v", h)
	}
}

// TestRunShutdownOrder: Shutdown closes the listener first, then waits
// for a background hook still running, within its context; the hook ends
// its work and counts as done, none dropped.
func TestRunShutdownOrder(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.hcl")
	release, done := filepath.Join(dir, "release"), filepath.Join(dir, "done")
	if err := os.WriteFile(path, []byte(`
hook "audit" {
  event      = "PostToolUse"
  background = true
  command    = "while [ ! -e release ]; do sleep 0.01; done; echo ok > done"
  timeout    = "60s"
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	r := startRunning(t, path, &stderr, server.Config{})
	if code, out := getJSON(t, r, "POST", "/v1/fire/PostToolUse", `{"tool_name":"Bash"}`); code != 200 {
		t.Fatalf("fire: %d %v", code, out)
	}
	shut := make(chan error, 1)
	go func() { shut <- r.Shutdown(context.Background()) }()
	// The listener closes first ...
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		c, err := net.Dial("tcp", r.Addr().String())
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the listener still accepts connections while Shutdown waits for the engine")
		}
	}
	// ... and Shutdown waits for the background hook.
	select {
	case err := <-shut:
		t.Fatalf("Shutdown returned (%v) with a background hook running", err)
	default:
	}
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := <-shut; err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(done); err != nil || string(b) != "ok\n" {
		t.Fatalf("the background hook did not finish: %q %v", b, err)
	}
	if st := r.Engine().Stats(); st.BackgroundDone != 1 || st.BackgroundDropped != 0 {
		t.Fatalf("stats: %+v", st)
	}
}

// TestRunShutdownKeepsStateForBackgroundHooks: the state shuts down after
// the engine drained, so that a background hook finishing during
// shutdown still writes its kv (the state refuses uses once shut down).
func TestRunShutdownKeepsStateForBackgroundHooks(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.hcl")
	release := filepath.Join(dir, "release")
	if err := os.WriteFile(path, []byte(fmt.Sprintf(`
settings {
  state_file = "state.json"
}
hook "late" {
  event      = "PostToolUse"
  background = true
  allow      = ["exec"]
  timeout    = "60s"
  js         = <<-JS
    const r = require("hookctl/exec").run(["sh", "-c", "while [ ! -e %s ]; do sleep 0.01; done"]);
    if (r.code !== 0) throw new Error("waiting: " + JSON.stringify(r));
    require("hookctl/kv").set("late", "written-during-shutdown", { scope: "global" });
  JS
}
`, release)), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	r := startRunning(t, path, &stderr, server.Config{})
	if code, out := getJSON(t, r, "POST", "/v1/fire/PostToolUse", `{"tool_name":"Bash"}`); code != 200 {
		t.Fatalf("fire: %d %v", code, out)
	}
	shut := make(chan error, 1)
	go func() { shut <- r.Shutdown(context.Background()) }()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		c, err := net.Dial("tcp", r.Addr().String())
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the listener still accepts connections")
		}
	}
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := <-shut; err != nil {
		t.Fatal(err)
	}
	// The file store keeps a file per key beside state.json.
	found := false
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && p != path {
			b, _ := os.ReadFile(p)
			found = found || strings.Contains(string(b), "written-during-shutdown")
		}
		return nil
	})
	if !found {
		t.Fatalf("the background hook's kv write is lost\nstderr: %s", stderr.String())
	}
	if st := r.Engine().Stats(); st.BackgroundDone != 1 || st.BackgroundDropped != 0 || st.HookErrors != 0 {
		t.Fatalf("stats: %+v", st)
	}
}
