package claude_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"go.uber.org/goleak"
)

func hookPath(name string) string {
	p, _ := filepath.Abs(filepath.Join("testdata", "hooks", name))
	return p
}

func newEngine(t *testing.T) *engine.Engine {
	t.Helper()
	e, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}

func bashPayload(cmd string) map[string]any {
	return map[string]any{"session_id": "s1", "cwd": "/tmp", "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": cmd, "description": "d"}, "tool_use_id": "toolu_1"}
}

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreCurrent())
}
