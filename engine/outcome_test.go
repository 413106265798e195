package engine_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/engine"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestOutcomeJSON pins the SPEC §5 encoding of an outcome.
func TestOutcomeJSON(t *testing.T) {
	e := newEngine(t)
	register(t, e,
		engine.Hook{ID: "no-rm-rf", Event: "PreToolUse", Matcher: "Bash", Priority: 100,
			When: "tool_input.command matches `\\brm\\s+-rf\\b`", Handler: engine.Static(engine.Deny("rm -rf is not allowed"))},
		engine.Hook{ID: "pip-to-uv", Event: "PreToolUse", Matcher: "Bash", Handler: engine.Static(engine.Context("x"))},
		engine.Hook{ID: "reads", Event: "PreToolUse", Matcher: "Read", Priority: 200, Handler: engine.Static(engine.Allow(""))},
	)
	out := fire(t, e, "PreToolUse", bash("rm -rf /"))
	for i := range out.Hooks {
		out.Hooks[i].Duration = 3000 // 3µs, for a stable file
	}
	got, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "outcome.golden.json")
	if *update {
		if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bytes.TrimSpace(got), bytes.TrimSpace(want)) {
		t.Fatalf("outcome JSON changed (run with -update to accept):\n%s", got)
	}
	// The field names and types of SPEC §5.
	var m map[string]any
	if err := json.Unmarshal(got, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"event", "decision", "reason", "blocked", "continue", "stop_reason", "updated_input",
		"additional_context", "system_message", "output", "state", "hooks"} {
		if _, ok := m[k]; !ok {
			t.Errorf("missing %q", k)
		}
	}
	if m["updated_input"] != nil {
		t.Errorf("updated_input %v, want null", m["updated_input"])
	}
	h0 := m["hooks"].([]any)[1].(map[string]any)
	if h0["id"] != "no-rm-rf" || h0["status"] != "decided" || h0["decision"] != "deny" || h0["duration_us"] != 3.0 {
		t.Errorf("hook trace %v", h0)
	}
	h1 := m["hooks"].([]any)[2].(map[string]any)
	if h1["status"] != "skipped" || h1["skip_reason"] != "chain stopped by no-rm-rf" {
		t.Errorf("hook trace %v", h1)
	}
	if _, has := h1["duration_us"]; has {
		t.Error("a skipped hook has a duration")
	}
}

func TestEmptyOutcomeJSON(t *testing.T) {
	e := newEngine(t)
	out := fire(t, e, "Stop", nil)
	b, _ := json.Marshal(out)
	want := `{"event":"Stop","decision":"","reason":"","blocked":false,"continue":true,"stop_reason":"","updated_input":null,"additional_context":"","system_message":"","output":{},"state":{},"hooks":[]}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}
