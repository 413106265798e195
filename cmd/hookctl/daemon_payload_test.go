package main

import (
	"context"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/daemon"
	"github.com/hookctl/hookctl/internal/filestamp"
	"github.com/hookctl/hookctl/runtime"
)

// TestDaemonPayloadLimits: the daemon decodes the request's input where
// it is, within the input limits as hookctl claude reads stdin: a payload
// nested past max-depth, or none at all, is blocked, never decoded
// unbounded or read from the daemon's own stdin.
func TestDaemonPayloadLimits(t *testing.T) {
	cfg, _ := filepath.Abs("../../tests/bench/testdata/peers/hooks.hcl")
	t.Setenv("HOOKCTL_ALLOW_UNTRUSTED", "1")
	t.Setenv("HOOKCTL_STATE_DIR", t.TempDir())
	cache := settledCache()
	defer cache.Close()
	rt := newHookRuntime(runtime.Hosts(), cache, nil)
	cwd, _ := os.Getwd()
	deep := `{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": ` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}`
	for name, c := range map[string]struct {
		stdin []byte
		want  string
	}{
		"deep":     {[]byte(deep), "max-depth"},
		"no input": {nil, "JSON"},
	} {
		req := &daemon.Request{Hook: daemon.Hook{Command: "claude", Config: cfg}, Stdin: c.stdin, Cwd: cwd, Env: os.Environ()}
		resp := runCall(context.Background(), req, rt)
		if resp.Code != 2 || !strings.Contains(string(resp.Stderr), c.want) {
			t.Errorf("%s: exit %d, stderr %s", name, resp.Code, resp.Stderr)
		}
	}
}

// TestDaemonDecodesInPlace: a 10 MB payload is checked and decoded where
// the request holds it: a warm call allocates about the decoded payload
// (its strings), not copies of the input read again.
func TestDaemonDecodesInPlace(t *testing.T) {
	rt, req := bigCall(t)
	if resp := runCall(context.Background(), req, rt); resp.Code != 0 {
		t.Fatal(string(resp.Stderr))
	}
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	if resp := runCall(context.Background(), req, rt); resp.Code != 0 {
		t.Fatal(string(resp.Stderr))
	}
	goruntime.ReadMemStats(&after)
	if got, limit := after.TotalAlloc-before.TotalAlloc, 4*uint64(len(req.Stdin)); got > limit {
		t.Fatalf("a warm call with a %d-byte payload allocated %d bytes (more than %d)", len(req.Stdin), got, limit)
	}
}

// settledCache is the daemon's engine cache with a clock a settle tick
// ahead: every file a test wrote counts as written before the load, as a
// configuration a daemon serves mostly was, so the engine is kept.
func settledCache() *runtime.Cache {
	return runtime.NewCache(runtime.WithCacheClock(func() time.Time { return time.Now().Add(filestamp.SettleTick + time.Second) }))
}
