package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/engine"
)

// A condition calling a function the configuration declares but the
// program did not register fails its hook, under every fast path switch
// (the condition memo and the shared atoms included, with two hooks
// sharing the condition): on_error = "block" blocks, "ignore" records the
// error in the trace. Never a skip for "condition was false".
func TestDeclaredButMissingFunctionAppliesOnError(t *testing.T) {
	decl := conditions.Declaration{Name: "isOnCall", Params: []conditions.Type{conditions.TypeString}, Result: conditions.TypeBool}
	const msg = "function isOnCall is declared by the configuration but not supplied by this program"
	for _, off := range diffSwitches() {
		for _, policy := range []engine.ErrorPolicy{engine.ErrorIgnore, engine.ErrorBlock} {
			eng, err := engine.New(engine.WithoutFastPaths(off))
			if err != nil {
				t.Fatal(err)
			}
			c := eng.ConditionCompiler().Declare(decl)
			var hooks []engine.Hook
			for i, src := range []string{
				`tool_name == "Bash" && !isOnCall(session_id)`,
				`tool_name == "Bash" && !isOnCall(session_id)`, // the same condition: memo
				`(tool_name == "Bash") && !isOnCall(session_id)`,
			} {
				p, err := c.Compile(src)
				if err != nil {
					t.Fatal(err)
				}
				hooks = append(hooks, engine.Hook{
					ID: string(rune('a' + i)), Event: "PreToolUse", Condition: p,
					OnError: engine.OnError{Policy: policy},
					Handler: engine.Static(engine.Deny("not on call")),
				})
			}
			if err := eng.Load(&engine.Config{Hooks: hooks}); err != nil {
				t.Fatal(err)
			}
			out, err := eng.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{
				"tool_name": "Bash", "session_id": "s1", "tool_input": map[string]any{"command": "ls"},
			}})
			if err != nil {
				t.Fatal(err)
			}
			if out.Blocked != (policy == engine.ErrorBlock) {
				t.Errorf("off=%v policy=%v: blocked=%v", off, policy, out.Blocked)
			}
			if policy == engine.ErrorBlock && !strings.Contains(out.Reason, msg) {
				t.Errorf("off=%v: reason %q", off, out.Reason)
			}
			for _, h := range out.Hooks {
				if policy == engine.ErrorBlock && h.Status == engine.StatusSkipped {
					continue // the chain stopped at the first block
				}
				if h.Status != engine.StatusError || !strings.Contains(h.Error, msg) {
					t.Errorf("off=%v policy=%v hook %s: %s %q %q", off, policy, h.ID, h.Status, h.Error, h.SkipReason)
				}
			}
			eng.Close(context.Background())
		}
	}
}
