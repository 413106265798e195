package engine

import (
	"context"
	"encoding/json"
	"testing"
)

func TestSmoke(t *testing.T) {
	e, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(e.Register(Hook{ID: "no-rm", Event: "PreToolUse", Matcher: "Bash", When: "tool_input.command matches `\\brm\\s+-rf\\b`", Priority: 100, Handler: Static(Deny("rm -rf is not allowed"))}))
	must(e.Register(Hook{ID: "ctx", Event: "PreToolUse", Handler: Static(Context("hello"))}))
	out, err := e.Fire(context.Background(), Event{Name: "PreToolUse", Payload: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /"}}})
	must(err)
	b, _ := json.MarshalIndent(out, "", "  ")
	t.Log(string(b))
}
