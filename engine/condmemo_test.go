package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/engine"
)

// TestRepeatedConditionsEvaluateOnce: hooks that repeat a condition share
// its evaluation within a fire while the payload is the same; a rewrite of
// the payload between them, or a condition on state, is evaluated again.
func TestRepeatedConditionsEvaluateOnce(t *testing.T) {
	calls := 0
	count := conditions.Function{Name: "counted", Fn: func(params ...any) (any, error) {
		calls++
		return params[0], nil
	}}
	e := newEngine(t, engine.WithConditionOptions(conditions.WithFunctions(count)))
	cond := `counted(tool_input.command == "ls")`
	for i := range 3 {
		register(t, e, engine.Hook{ID: fmt.Sprint("h", i), Event: "PreToolUse", Priority: -i, When: cond,
			Handler: engine.Static(engine.Context(fmt.Sprint("h", i)))})
	}
	out := fire(t, e, "PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}})
	if calls != 1 || out.AdditionalContext != "h0\n\nh1\n\nh2" {
		t.Fatalf("calls %d, context %q", calls, out.AdditionalContext)
	}
	// A hook that rewrites the input between two: the later one sees
	// another payload and evaluates again, on the rewritten command.
	register(t, e, engine.Hook{ID: "rewrite", Event: "PreToolUse", Priority: -1, Handler: engine.Static(engine.Result{"updated_input": map[string]any{"command": "pwd"}})})
	calls = 0
	out = fire(t, e, "PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}})
	if calls != 2 || strings.Contains(out.AdditionalContext, "h2") {
		t.Fatalf("after a rewrite: calls %d, context %q", calls, out.AdditionalContext)
	}
	// A new fire evaluates anew.
	calls = 0
	fire(t, e, "PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}})
	if calls != 2 {
		t.Fatalf("second fire: calls %d", calls)
	}
}

// TestRememberedConditionsSeeEveryRewrite: a payload rewritten twice in
// place (the chain owns its copy after the first rewrite) is evaluated
// again after each rewrite, so a guard after the second one sees it.
func TestRememberedConditionsSeeEveryRewrite(t *testing.T) {
	e := newEngine(t)
	rm := `tool_input.command contains "rm -rf"`
	rewrite := func(id string, prio int, cmd string) engine.Hook {
		return engine.Hook{ID: id, Event: "PreToolUse", Priority: prio, Handler: engine.Static(engine.Result{"updated_input": map[string]any{"command": cmd}})}
	}
	register(t, e,
		engine.Hook{ID: "guard-0", Event: "PreToolUse", Priority: 10, When: rm, Handler: engine.Static(engine.Deny("rm 0"))},
		rewrite("rewrite-1", 9, "echo safe"),
		engine.Hook{ID: "guard-1", Event: "PreToolUse", Priority: 8, When: rm, Handler: engine.Static(engine.Deny("rm 1"))},
		rewrite("rewrite-2", 7, "rm -rf /"),
		engine.Hook{ID: "guard-2", Event: "PreToolUse", Priority: 6, When: rm, Handler: engine.Static(engine.Deny("rm 2"))},
	)
	out := fire(t, e, "PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}})
	if out.Decision != engine.DecisionDeny || out.Reason != "rm 2" {
		t.Fatalf("the guard after the second rewrite did not see it: %+v", out)
	}
}

// TestSharedSubConditionsSeeRewrites: hooks whose conditions share a
// sub-condition share its evaluation only while the payload is the same:
// after a rewrite, the next hook's condition sees the new payload.
func TestSharedSubConditionsSeeRewrites(t *testing.T) {
	e := newEngine(t)
	register(t, e,
		engine.Hook{ID: "rewrite", Event: "PreToolUse", Priority: 2, When: `tool_input.command == "a" && session_id != "x"`,
			Handler: engine.Static(engine.Result{"updated_input": map[string]any{"command": "b"}})},
		engine.Hook{ID: "deny-a", Event: "PreToolUse", Priority: 1, When: `tool_input.command == "a" && session_id != "y"`,
			Handler: engine.Static(engine.Deny("saw a"))},
		engine.Hook{ID: "note-b", Event: "PreToolUse", When: `!(tool_input.command == "a") && session_id != "z"`,
			Handler: engine.Static(engine.Context("saw b"))},
	)
	out := fire(t, e, "PreToolUse", map[string]any{"tool_name": "Bash", "session_id": "s", "tool_input": map[string]any{"command": "a"}})
	if out.Decision != "" || out.AdditionalContext != "saw b" {
		t.Fatalf("decision %q context %q: the hooks after the rewrite saw the old command", out.Decision, out.AdditionalContext)
	}
	if tr := traceOf(t, out, "deny-a"); tr.Status != engine.StatusSkipped {
		t.Fatalf("deny-a: %s", tr.Status)
	}
}
