package engine_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol/claude"
)

// outcomes fires event 24 times (a session each, so that no loop guard
// counts) at one hook returning res, in an engine with opts, and returns
// the distinct outcomes it gave: decision, blocked, continue, and whether
// the hook failed.
func outcomes(t *testing.T, event string, res engine.Result, onError engine.ErrorPolicy, opts ...engine.Option) []string {
	t.Helper()
	e := newEngine(t, opts...)
	register(t, e, engine.Hook{ID: "h", Event: event, OnError: engine.OnError{Policy: onError},
		Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) { return res, nil })})
	seen := map[string]bool{}
	var list []string
	for i := range 24 {
		p := bash("ls")
		p["session_id"] = fmt.Sprintf("s%d", i)
		out := fire(t, e, event, p)
		tr := traceOf(t, out, "h")
		o := fmt.Sprintf("decision=%q blocked=%v continue=%v failed=%v", out.Decision, out.Blocked, out.Continue, tr.Status == engine.StatusError)
		if !seen[o] {
			seen[o] = true
			list = append(list, o)
		}
	}
	return list
}

// TestResultSpellings: a handler's result read the same way on every
// call, whatever names it gives its fields in, and never with a deny or a
// block lost to another spelling: the cases an outside review found, each
// with and without the output reader an assembled engine has.
func TestResultSpellings(t *testing.T) {
	deny := `decision="deny" blocked=true continue=true failed=false`
	cases := []struct {
		name    string
		event   string
		res     engine.Result
		onError engine.ErrorPolicy
		want    string
	}{
		{"a Decision beside decision", "Stop", engine.Result{"Decision": nil, "decision": "block", "reason": "keep going"}, 0,
			`decision="block" blocked=true continue=true failed=false`},
		{"two spellings disagree: the more restrictive", "PreToolUse", engine.Result{"Decision": "allow", "permissionDecision": "deny"}, 0, deny},
		{"an empty decision hides no alias", "PreToolUse", engine.Result{"decision": nil, "permissionDecision": "deny", "permissionDecisionReason": "no"}, 0, deny},
		{"an empty decision string hides no alias", "PreToolUse", engine.Result{"decision": "", "Decision": "deny"}, 0, deny},
		{"a malformed Decision is a failure", "PreToolUse", engine.Result{"Decision": "DENY", "reason": "r"}, engine.ErrorBlock,
			`decision="deny" blocked=true continue=true failed=true`},
		{"a Decision object", "PreToolUse", engine.Result{"Decision": map[string]any{"behavior": "deny"}}, 0, deny},
		{"a Decision object on PermissionRequest", "PermissionRequest", engine.Result{"Decision": map[string]any{"behavior": "deny"}}, 0, deny},
		{"a null hookSpecificOutput is none", "Stop", engine.Result{"decision": "block", "reason": "x", "hookSpecificOutput": nil}, 0,
			`decision="block" blocked=true continue=true failed=false`},
		{"an empty decision hides no outcome", "before_agent_run", engine.Result{"decision": nil, "outcome": "block", "message": "no"}, 0,
			`decision="block" blocked=true continue=true failed=false`},
		{"approve where pass is the word", "before_agent_run", engine.Result{"decision": "approve"}, 0,
			`decision="pass" blocked=false continue=true failed=false`},
		{"behavior over a decision key in its object", "PermissionRequest", engine.Result{"hookSpecificOutput": map[string]any{
			"hookEventName": "PermissionRequest", "decision": map[string]any{"behavior": "deny", "message": "no", "decision": "allow"}}}, 0, deny},
		{"behavior over a permissionDecision key in its object", "PreToolUse", engine.Result{"decision": map[string]any{"behavior": "deny", "permissionDecision": "allow"}}, 0, deny},
		{"Go's Decision type", "PreToolUse", engine.Result{"decision": engine.DecisionDeny, "reason": "typed"}, 0, deny},
		{"Go's Result type for hookSpecificOutput", "PreToolUse", engine.Result{"hookSpecificOutput": engine.Result{"permissionDecision": engine.DecisionDeny}}, 0, deny},
		{"Go's map[string]string for a decision object", "PreToolUse", engine.Result{"decision": map[string]string{"behavior": "deny"}}, 0, deny},
		{"a malformed decision keeps block beside it", "PreToolUse", engine.Result{"block": true, "block_reason": "no", "decision": "Deny"}, 0,
			`decision="deny" blocked=true continue=true failed=true`},
		{"a malformed decision keeps continue: false beside it", "PostToolBatch", engine.Result{"continue": false, "stopReason": "stop now", "decision": map[string]any{}}, 0,
			`decision="" blocked=true continue=false failed=true`},
		{"a malformed decision keeps require_approval beside it", "PreToolUse", engine.Result{"require_approval": map[string]any{"title": "t"}, "decision": "Deny"}, 0,
			`decision="ask" blocked=false continue=true failed=true`},
		{"an empty-string hookSpecificOutput is none", "PreToolUse", engine.Result{"decision": "deny", "reason": "no", "hookSpecificOutput": ""}, 0, deny},
		{"a false hookSpecificOutput is none", "PreToolUse", engine.Result{"decision": "deny", "hookSpecificOutput": false}, 0, deny},
		{"a zero hookSpecificOutput is none", "PreToolUse", engine.Result{"decision": "deny", "hookSpecificOutput": 0.0}, 0, deny},
		{"an empty-list hookSpecificOutput is none", "PreToolUse", engine.Result{"decision": "deny", "hookSpecificOutput": []any{}}, 0, deny},
		{"a zero hookSpecificOutput alone is none", "PreToolUse", engine.Result{"hookSpecificOutput": int64(0), "additional_context": "x"}, 0,
			`decision="" blocked=false continue=true failed=false`},
		{"a string hookSpecificOutput beside a top-level deny", "PreToolUse", engine.Result{"decision": "deny", "hookSpecificOutput": "x"}, 0, deny},
		{"the event's decision field more restrictive than decision", "before_agent_run", engine.Result{"decision": "pass", "outcome": "block"}, 0,
			`decision="block" blocked=true continue=true failed=false`},
		{"an empty outcome hides no Outcome", "before_agent_run", engine.Result{"Outcome": "block", "outcome": ""}, 0,
			`decision="block" blocked=true continue=true failed=false`},
		{"a null permissionDecision beside a behavior deny", "PermissionRequest", engine.Result{"hookSpecificOutput": map[string]any{
			"decision": map[string]any{"behavior": "deny"}, "permissionDecision": nil}}, 0, deny},
		{"Go's Decision type in a decision object", "PermissionRequest", engine.Result{"hookSpecificOutput": map[string]any{
			"decision": map[string]any{"behavior": engine.DecisionDeny}}}, 0, deny},
	}
	for _, c := range cases {
		for _, reader := range []bool{false, true} {
			var opts []engine.Option
			if reader {
				opts = append(opts, engine.WithOutputReader(claude.ReadOutputFor))
			}
			got := outcomes(t, c.event, c.res, c.onError, opts...)
			if len(got) != 1 || got[0] != c.want {
				t.Errorf("%s (%s %v, reader %v): %q, want %q every time", c.name, c.event, c.res, reader, got, c.want)
			}
		}
	}
}

// TestOneResultMergesInNameOrder: a result naming fields that freeze one
// another (require_approval freezes params) merges them the same way on
// every call: in name order, as a declarative result's.
func TestOneResultMergesInNameOrder(t *testing.T) {
	res := engine.Result{"require_approval": map[string]any{"title": "review"}, "params": map[string]any{"command": "echo rewritten"}}
	e := newEngine(t)
	register(t, e, engine.Hook{ID: "h", Event: "PreToolUse", Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) { return res, nil })})
	for range 64 {
		out := fire(t, e, "PreToolUse", bash("ls"))
		if cmd, _ := out.UpdatedInput["command"].(string); cmd != "echo rewritten" || out.Decision != engine.DecisionAsk {
			t.Fatalf("decision %q updated input %v, want ask about the rewritten call every time", out.Decision, out.UpdatedInput)
		}
	}
}

// TestBareEngineBothChannels: an engine built without an output reader
// reads every channel of hookSpecificOutput; when both give a decision,
// the more restrictive stands (PermissionRequest's behavior deny beside a
// permissionDecision allow).
func TestBareEngineBothChannels(t *testing.T) {
	res := engine.Result{"hookSpecificOutput": map[string]any{"permissionDecision": "allow", "decision": map[string]any{"behavior": "deny", "message": "not this"}}}
	got := outcomes(t, "PermissionRequest", res, 0)
	if want := `decision="deny" blocked=true continue=true failed=false`; len(got) != 1 || got[0] != want {
		t.Fatalf("%q, want %q", got, want)
	}
}

// TestStaticResultsReadAsHandlers: a declarative result is read when it is
// registered as a handler's is on every call: a decision object's
// behavior decides, and what a handler's result would fail on is refused
// (it decided nothing, silently).
func TestStaticResultsReadAsHandlers(t *testing.T) {
	e := newEngine(t)
	register(t, e, static("object", "PreToolUse", engine.Result{"decision": map[string]any{"behavior": "deny", "message": "no"}}))
	if out := fire(t, e, "PreToolUse", bash("ls")); out.Decision != engine.DecisionDeny || out.Reason != "no" {
		t.Errorf("decision %q reason %q, want the object's deny", out.Decision, out.Reason)
	}
	for _, res := range []engine.Result{
		{"decision": 1},
		{"decision": true},
		{"permissionDecision": "DENY"},
		{"Decision": "allow", "permissionDecision": "deny"},
		{"decision": map[string]any{"verdict": "deny"}},
	} {
		err := newEngine(t).Register(static("bad", "PreToolUse", res))
		if err == nil || !strings.Contains(err.Error(), "decision") {
			t.Errorf("%v: registered (%v), want refused", res, err)
		}
	}
}

// TestBareEngineTopLevelBlock: without an output reader, a top-level
// block beside hookSpecificOutput's allow on an event that reads the
// top-level decision (Stop) still blocks: the most restrictive channel.
func TestBareEngineTopLevelBlock(t *testing.T) {
	res := engine.Result{"decision": "block", "reason": "keep going", "hookSpecificOutput": map[string]any{"decision": "allow"}}
	for _, opts := range [][]engine.Option{nil, {engine.WithOutputReader(claude.ReadOutputFor)}} {
		got := outcomes(t, "Stop", res, 0, opts...)
		if want := `decision="block" blocked=true continue=true failed=false`; len(got) != 1 || got[0] != want {
			t.Errorf("reader %v: %q, want %q", opts != nil, got, want)
		}
	}
}

// TestApprovalFreezesEitherRewrite: once a hook asked for approval, a
// later rewrite of the tool input is frozen out whichever spelling it
// comes in (params or updated_input): what is reviewed cannot change.
func TestApprovalFreezesEitherRewrite(t *testing.T) {
	for _, field := range []string{"params", "updated_input"} {
		e := newEngine(t)
		register(t, e,
			static("ask", "PreToolUse", engine.Result{"require_approval": map[string]any{"title": "review"}}),
			engine.Hook{ID: "rewrite", Event: "PreToolUse", Priority: -1, Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) {
				return engine.Result{field: map[string]any{"command": "rm -rf ~"}}, nil
			})})
		out := fire(t, e, "PreToolUse", bash("ls"))
		if out.UpdatedInput != nil || !strings.Contains(traceOf(t, out, "rewrite").Note, "frozen") {
			t.Errorf("%s: updated input %v, note %q; want it frozen out", field, out.UpdatedInput, traceOf(t, out, "rewrite").Note)
		}
	}
}
