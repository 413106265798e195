package builtin_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/hookctl/hookctl/builtin"
	"github.com/hookctl/hookctl/engine"
)

// TestMain fails the package if a test leaves a goroutine behind (an
// engine not closed, a background hook still running).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreCurrent())
}

// The agent's home and project directory in the tests.
const (
	home       = "/home/dev"
	projectDir = "/home/dev/project"
)

// newHook builds a builtin that yields exactly one hook, with the test
// home directory unless cfg names one.
func newHook(t testing.TB, name string, cfg builtin.Config) engine.Hook {
	t.Helper()
	if cfg.Home == "" {
		cfg.Home = home
	}
	hooks, err := builtin.New(name, cfg)
	if err != nil {
		t.Fatalf("New(%q): %v", name, err)
	}
	if len(hooks) != 1 {
		t.Fatalf("New(%q) returned %d hooks, want 1", name, len(hooks))
	}
	return hooks[0]
}

// call runs a hook's handler directly.
func call(t testing.TB, h engine.Hook, event string, payload map[string]any) engine.Result {
	t.Helper()
	r, err := h.Handler.Handle(context.Background(), &engine.Call{Event: event, Hook: h.ID, Payload: payload})
	if err != nil {
		t.Fatalf("%s: handler error: %v", h.ID, err)
	}
	return r
}

// tool returns a PreToolUse-style payload for a tool call in the project.
func tool(name string, input map[string]any) map[string]any {
	return map[string]any{
		"session_id": "s-1", "hook_event_name": "PreToolUse", "cwd": projectDir,
		"tool_name": name, "tool_input": input, "tool_use_id": "toolu_1",
	}
}

// bash returns the payload of a Bash tool call.
func bash(cmd string) map[string]any {
	return tool("Bash", map[string]any{"command": cmd, "description": "run it"})
}

// decisionOf returns a result's decision and reason.
func decisionOf(r engine.Result) (string, string) {
	d, _ := r["decision"].(string)
	reason, _ := r["reason"].(string)
	return d, reason
}

// fixture reads a Claude Code payload from testdata, with the run
// directory placeholders replaced by dir.
func fixture(t testing.TB, name, dir string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "claude-code", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.NewReplacer(
		"<SLUG:RUN_DIR>", "-run", "<RUN_DIR>", dir, "<VICTIM_DIR>", dir+"/victim", "<HARNESS_DIR>", dir+"/harness",
	).Replace(string(raw))
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// newEngine returns an engine with the hooks registered; it is closed when
// the test ends (tests that read background output close it earlier).
func newEngine(t testing.TB, hooks ...engine.Hook) *engine.Engine {
	t.Helper()
	eng, err := engine.New(engine.WithSkippedTraces()) // the tests read skipped hooks' traces
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeEngine(t, eng) })
	for _, h := range hooks {
		if err := eng.Register(h); err != nil {
			t.Fatalf("Register(%s): %v", h.ID, err)
		}
	}
	return eng
}

// closeEngine closes an engine, draining its background hooks.
func closeEngine(t testing.TB, eng *engine.Engine) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := eng.Close(ctx); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// fire fires an event and fails the test on an error.
func fire(t testing.TB, eng *engine.Engine, event string, payload map[string]any) engine.Outcome {
	t.Helper()
	out, err := eng.Fire(context.Background(), engine.Event{Name: event, Payload: payload})
	if err != nil {
		t.Fatalf("Fire(%s): %v", event, err)
	}
	return out
}

// readJSONL reads every record of a JSONL file.
func readJSONL(t testing.TB, path string) []map[string]any {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for line := range strings.SplitSeq(strings.TrimSpace(string(raw)), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%s: bad line %q: %v", path, line, err)
		}
		out = append(out, m)
	}
	return out
}
