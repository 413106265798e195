package engine_test

import (
	"context"
	"errors"
	"maps"
	"reflect"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
)

// TestRestrictiveDecision checks PreToolUse's deny > defer > ask > allow in
// every order, and that the winning decision's reason is the outcome's.
func TestRestrictiveDecision(t *testing.T) {
	cases := []struct {
		name      string
		decisions []string // in firing order
		want      string
		reason    string
		blocked   bool
	}{
		{"allow only", []string{"allow"}, "allow", "r-allow", false},
		{"ask beats allow", []string{"allow", "ask"}, "ask", "r-ask", false},
		{"ask beats later allow", []string{"ask", "allow"}, "ask", "r-ask", false},
		{"defer beats ask", []string{"ask", "defer", "allow"}, "defer", "r-defer", false},
		{"deny beats all", []string{"allow", "ask", "defer", "deny"}, "deny", "r-deny", true},
		{"legacy approve is allow", []string{"approve"}, "allow", "r-approve", false},
		{"legacy block is deny", []string{"allow", "block"}, "deny", "r-block", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEngine(t)
			for i, d := range tc.decisions {
				register(t, e, engine.Hook{ID: d + "-hook", Event: "PreToolUse", Priority: -i,
					Handler: engine.Static(engine.Result{"decision": d, "reason": "r-" + d})})
			}
			out := fire(t, e, "PreToolUse", bash("ls"))
			if string(out.Decision) != tc.want || out.Reason != tc.reason || out.Blocked != tc.blocked {
				t.Fatalf("got decision=%q reason=%q blocked=%v, want %q %q %v", out.Decision, out.Reason, out.Blocked, tc.want, tc.reason, tc.blocked)
			}
		})
	}
}

func TestEqualDecisionKeepsFirstReason(t *testing.T) {
	e := newEngine(t)
	register(t, e,
		engine.Hook{ID: "a", Event: "PreToolUse", Priority: 2, Handler: engine.Static(engine.Ask("first"))},
		engine.Hook{ID: "b", Event: "PreToolUse", Priority: 1, Handler: engine.Static(engine.Ask("second"))},
		engine.Hook{ID: "c", Event: "PreToolUse", Handler: engine.Static(engine.Allow("third"))},
	)
	out := fire(t, e, "PreToolUse", bash("ls"))
	if out.Decision != "ask" || out.Reason != "first" {
		t.Fatalf("got %q %q", out.Decision, out.Reason)
	}
}

func TestDecisionNotAcceptedIsIgnoredWithNote(t *testing.T) {
	e := newEngine(t)
	register(t, e, engine.Hook{ID: "g", Event: "PostToolUse", Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) {
		return engine.Result{"decision": "ask"}, nil
	})})
	out := fire(t, e, "PostToolUse", bash("ls"))
	if out.Decision != "" {
		t.Fatalf("decision %q should be ignored", out.Decision)
	}
	if tr := traceOf(t, out, "g"); tr.Note == "" {
		t.Fatal("expected a note explaining the ignored decision")
	}
}

// TestMalformedDecisions: a hook's decision in another spelling than the
// event's ("DENY", "deny ", a number, an object that is not Claude Code's
// decision object) fails the hook, and on_error = "block" blocks; Claude
// Code's own output shapes are read as a command hook's stdout is.
func TestMalformedDecisions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		res     engine.Result
		want    engine.Decision
		failure bool
	}{
		{"upper case", engine.Result{"decision": "DENY"}, "", true},
		{"trailing space", engine.Result{"decision": "deny "}, "", true},
		{"a number", engine.Result{"decision": 1}, "", true},
		{"an object without behavior", engine.Result{"decision": map[string]any{"verdict": "deny"}}, "", true},
		{"hookSpecificOutput not an object", engine.Result{"hookSpecificOutput": "deny"}, "", true},
		{"permissionDecision upper case", engine.Result{"permissionDecision": "Deny"}, "", true},
		{"decision.behavior", engine.Result{"decision": map[string]any{"behavior": "deny", "message": "m"}}, "deny", false},
		{"hookSpecificOutput.permissionDecision", engine.Result{"hookSpecificOutput": map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "r"}}, "deny", false},
		{"hookSpecificOutput.decision.behavior", engine.Result{"hookSpecificOutput": map[string]any{"decision": map[string]any{"behavior": "deny"}}}, "deny", false},
		{"legacy block", engine.Result{"decision": "block", "reason": "r"}, "deny", false},
		{"legacy approve", engine.Result{"decision": "approve"}, "allow", false},
		{"hookSpecificOutput over a top-level approve", engine.Result{"decision": "approve", "hookSpecificOutput": map[string]any{"permissionDecision": "deny"}}, "deny", false},
		{"hookSpecificOutput over a top-level permissionDecision", engine.Result{"permissionDecision": "allow", "hookSpecificOutput": map[string]any{"permissionDecision": "deny"}}, "deny", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, onError := range []engine.ErrorPolicy{engine.ErrorDefault, engine.ErrorBlock} {
				e := newEngine(t)
				res := tc.res
				register(t, e, engine.Hook{ID: "g", Event: "PreToolUse", OnError: engine.OnError{Policy: onError}, Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) {
					return res, nil
				})})
				out := fire(t, e, "PreToolUse", bash("ls"))
				tr := traceOf(t, out, "g")
				switch {
				case tc.failure && tr.Status != engine.StatusError:
					t.Fatalf("on_error %v: not a hook failure: %+v", onError, tr)
				case tc.failure && onError == engine.ErrorBlock && out.Decision != engine.DecisionDeny:
					t.Fatalf("on_error block: decision %q", out.Decision)
				case tc.failure && onError == engine.ErrorDefault && out.Decision != "":
					t.Fatalf("decision %q", out.Decision)
				case !tc.failure && out.Decision != tc.want:
					t.Fatalf("decision %q, want %q (%+v)", out.Decision, tc.want, tr)
				}
			}
		})
	}
}

func TestContinueFalseBeatsEveryDecision(t *testing.T) {
	e := newEngine(t)
	register(t, e,
		static("allow", "PreToolUse", engine.Allow("fine")),
		static("halt", "PreToolUse", engine.Result{"continue": false, "stop_reason": "out of budget"}),
		static("after", "PreToolUse", engine.Result{"continue": true, "additional_context": "never merged"}),
	)
	out := fire(t, e, "PreToolUse", bash("ls"))
	if out.Continue || !out.Blocked || out.StopReason != "out of budget" {
		t.Fatalf("continue=%v blocked=%v stop_reason=%q", out.Continue, out.Blocked, out.StopReason)
	}
	if out.Decision != "allow" {
		t.Fatalf("decision %q", out.Decision)
	}
	if tr := traceOf(t, out, "after"); tr.Status != engine.StatusSkipped || tr.SkipReason != "chain stopped by halt" {
		t.Fatalf("after: %+v", tr)
	}
}

func TestTerminalDecisionStopsChain(t *testing.T) {
	e := newEngine(t)
	ran := false
	register(t, e,
		engine.Hook{ID: "no-rm-rf", Event: "PreToolUse", Matcher: "Bash", Priority: 100, When: "tool_input.command matches `\\brm\\s+-rf\\b`",
			Handler: engine.Static(engine.Deny("rm -rf is not allowed"))},
		engine.Hook{ID: "pip-to-uv", Event: "PreToolUse", Matcher: "Bash", Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) {
			ran = true
			return nil, nil
		})},
	)
	out := fire(t, e, "PreToolUse", bash("rm -rf /"))
	if ran {
		t.Fatal("a hook after a terminal decision ran")
	}
	if out.Decision != "deny" || out.Reason != "rm -rf is not allowed" || !out.Blocked {
		t.Fatalf("outcome %+v", out)
	}
	if tr := traceOf(t, out, "pip-to-uv"); tr.Status != engine.StatusSkipped || tr.SkipReason != "chain stopped by no-rm-rf" {
		t.Fatalf("trace %+v", tr)
	}
	if tr := traceOf(t, out, "no-rm-rf"); tr.Status != engine.StatusDecided || tr.Decision != "deny" {
		t.Fatalf("trace %+v", tr)
	}
}

func TestConcatJoinsAndEmptyNeverErases(t *testing.T) {
	e := newEngine(t)
	register(t, e,
		static("a", "UserPromptSubmit", engine.Context("first")),
		static("b", "UserPromptSubmit", engine.Context("")),
		static("c", "UserPromptSubmit", engine.Result{"additional_context": "second", "system_message": "warn"}),
		static("d", "UserPromptSubmit", engine.Result{"system_message": ""}),
	)
	out := fire(t, e, "UserPromptSubmit", map[string]any{"prompt": "hi"})
	if out.AdditionalContext != "first\n\nsecond" {
		t.Fatalf("context %q", out.AdditionalContext)
	}
	if out.SystemMessage != "warn" {
		t.Fatalf("system message %q", out.SystemMessage)
	}
}

// TestChainRewritesPayload checks that updated_input becomes the next
// hook's tool_input, that the caller's payload is untouched, and that the
// outcome carries the final input.
func TestChainRewritesPayload(t *testing.T) {
	e := newEngine(t)
	var seen []string
	register(t, e,
		engine.Hook{ID: "pip-to-uv", Event: "PreToolUse", Priority: 10, Handler: fn(func(_ context.Context, c *engine.Call) (engine.Result, error) {
			in := c.Payload["tool_input"].(map[string]any)
			seen = append(seen, in["command"].(string))
			return engine.Result{"updated_input": map[string]any{"command": "uv " + in["command"].(string)}}, nil
		})},
		engine.Hook{ID: "quiet", Event: "PreToolUse", Priority: 5, Handler: fn(func(_ context.Context, c *engine.Call) (engine.Result, error) {
			in := c.Payload["tool_input"].(map[string]any)
			seen = append(seen, in["command"].(string))
			return engine.Result{"updatedInput": map[string]any{"command": in["command"].(string) + " -q"}}, nil
		})},
		engine.Hook{ID: "observer", Event: "PreToolUse", Handler: fn(func(_ context.Context, c *engine.Call) (engine.Result, error) {
			seen = append(seen, c.Payload["tool_input"].(map[string]any)["command"].(string))
			return nil, nil
		})},
	)
	payload := bash("pip install x")
	out := fire(t, e, "PreToolUse", payload)
	want := []string{"pip install x", "uv pip install x", "uv pip install x -q"}
	if !reflect.DeepEqual(seen, want) {
		t.Fatalf("hooks saw %q, want %q", seen, want)
	}
	if got := out.UpdatedInput["command"]; got != "uv pip install x -q" {
		t.Fatalf("updated_input %v", out.UpdatedInput)
	}
	if payload["tool_input"].(map[string]any)["command"] != "pip install x" {
		t.Fatal("the caller's payload was modified")
	}
	if tr := traceOf(t, out, "observer"); tr.Status != engine.StatusRan {
		t.Fatalf("observer status %s", tr.Status)
	}
}

func TestNoRewriteKeepsUpdatedInputNull(t *testing.T) {
	e := newEngine(t)
	register(t, e, static("a", "PreToolUse", engine.Allow("")))
	out := fire(t, e, "PreToolUse", bash("ls"))
	if out.UpdatedInput != nil {
		t.Fatalf("updated_input %v", out.UpdatedInput)
	}
}

func TestStateSharedAlongChain(t *testing.T) {
	e := newEngine(t)
	register(t, e,
		engine.Hook{ID: "writer", Event: "PreToolUse", Priority: 1, Handler: fn(func(_ context.Context, c *engine.Call) (engine.Result, error) {
			c.State.Set("rewrote", true)
			return nil, nil
		})},
		engine.Hook{ID: "gated", Event: "PreToolUse", When: "state.rewrote == true", Handler: engine.Static(engine.Context("saw state"))},
		engine.Hook{ID: "not-gated", Event: "PreToolUse", When: "state.other == true", Handler: engine.Static(engine.Context("never"))},
	)
	out := fire(t, e, "PreToolUse", bash("ls"))
	if out.AdditionalContext != "saw state" {
		t.Fatalf("context %q", out.AdditionalContext)
	}
	if out.State["rewrote"] != true {
		t.Fatalf("state %v", out.State)
	}
	// Each fire starts with fresh state.
	out = fire(t, e, "PostToolUse", bash("ls"))
	if len(out.State) != 0 {
		t.Fatalf("state leaked into another fire: %v", out.State)
	}
}

// TestOpenClawMergeRules exercises the rules OpenClaw's typed hooks use.
func TestOpenClawMergeRules(t *testing.T) {
	t.Run("first: higher priority wins", func(t *testing.T) {
		e := newEngine(t)
		register(t, e,
			engine.Hook{ID: "low", Event: "before_model_resolve", Priority: 1, Handler: engine.Static(engine.Result{"model_override": "low"})},
			engine.Hook{ID: "high", Event: "before_model_resolve", Priority: 10, Handler: engine.Static(engine.Result{"model_override": "high"})},
		)
		if got := fire(t, e, "before_model_resolve", nil).Output["model_override"]; got != "high" {
			t.Fatalf("model_override %v", got)
		}
	})
	t.Run("last: lower priority overrides; cancel is sticky and terminal", func(t *testing.T) {
		e := newEngine(t)
		register(t, e,
			engine.Hook{ID: "p10", Event: "message_sending", Priority: 10, Handler: engine.Static(engine.Result{"content": "ten", "cancel": false})},
			engine.Hook{ID: "p5", Event: "message_sending", Priority: 5, Handler: engine.Static(engine.Result{"content": "five"})},
		)
		out := fire(t, e, "message_sending", map[string]any{"content": "x"})
		if out.Output["content"] != "five" || out.Blocked {
			t.Fatalf("output %v blocked=%v", out.Output, out.Blocked)
		}
		register(t, e,
			engine.Hook{ID: "cancel", Event: "message_sending", Priority: 7, Handler: engine.Static(engine.Result{"cancel": true, "cancel_reason": "spam"})},
		)
		out = fire(t, e, "message_sending", map[string]any{"content": "x"})
		if out.Output["cancel"] != true || !out.Blocked || out.Output["content"] != "ten" || out.Output["cancel_reason"] != "spam" {
			t.Fatalf("output %v blocked=%v", out.Output, out.Blocked)
		}
		if tr := traceOf(t, out, "p5"); tr.SkipReason != "chain stopped by cancel" {
			t.Fatalf("p5 %+v", tr)
		}
	})
	t.Run("concat: prepend_context joined by a blank line", func(t *testing.T) {
		e := newEngine(t)
		register(t, e,
			static("a", "before_prompt_build", engine.Result{"prepend_context": "A"}),
			static("b", "before_prompt_build", engine.Result{"prepend_context": ""}),
			static("c", "before_prompt_build", engine.Result{"prepend_context": "C"}),
		)
		if got := fire(t, e, "before_prompt_build", nil).Output["prepend_context"]; got != "A\n\nC" {
			t.Fatalf("prepend_context %q", got)
		}
	})
	t.Run("intersect: tools_allow most restrictive, * is identity", func(t *testing.T) {
		e := newEngine(t)
		register(t, e,
			static("a", "before_prompt_build", engine.Result{"tools_allow": []any{"read", "write", "exec"}}),
			static("star", "before_prompt_build", engine.Result{"tools_allow": []any{"*"}}),
			static("b", "before_prompt_build", engine.Result{"tools_allow": []string{"read", "exec"}}),
		)
		got := fire(t, e, "before_prompt_build", nil).Output["tools_allow"]
		if !reflect.DeepEqual(got, []any{"read", "exec"}) {
			t.Fatalf("tools_allow %v", got)
		}
	})
	t.Run("intersect: a non-list denies all", func(t *testing.T) {
		e := newEngine(t)
		register(t, e,
			static("a", "before_prompt_build", engine.Result{"tools_allow": []any{"read"}}),
			static("bad", "before_prompt_build", engine.Result{"tools_allow": "read"}),
		)
		got := fire(t, e, "before_prompt_build", nil).Output["tools_allow"]
		if !reflect.DeepEqual(got, []any{}) {
			t.Fatalf("tools_allow %v", got)
		}
	})
	t.Run("merge: env shallow-merged, later keys win", func(t *testing.T) {
		e := newEngine(t)
		register(t, e,
			engine.Hook{ID: "a", Event: "resolve_exec_env", Priority: 2, Handler: engine.Static(engine.Result{"env": map[string]any{"A": "1", "B": "1"}})},
			engine.Hook{ID: "b", Event: "resolve_exec_env", Priority: 1, Handler: engine.Static(engine.Result{"env": map[string]any{"B": "2", "C": "2"}})},
		)
		got := fire(t, e, "resolve_exec_env", nil).Output["env"]
		if !reflect.DeepEqual(got, map[string]any{"A": "1", "B": "2", "C": "2"}) {
			t.Fatalf("env %v", got)
		}
	})
	t.Run("append: findings in priority order; block sticky", func(t *testing.T) {
		e := newEngine(t)
		register(t, e,
			engine.Hook{ID: "a", Event: "before_install", Priority: 2, Handler: engine.Static(engine.Result{"findings": []any{"f1"}})},
			engine.Hook{ID: "b", Event: "before_install", Priority: 1, Handler: engine.Static(engine.Result{"findings": []any{"f2", "f3"}, "block": true, "block_reason": "malware"})},
			engine.Hook{ID: "c", Event: "before_install", Handler: engine.Static(engine.Result{"findings": []any{"f4"}})},
		)
		out := fire(t, e, "before_install", nil)
		if !reflect.DeepEqual(out.Output["findings"], []any{"f1", "f2", "f3"}) || !out.Blocked {
			t.Fatalf("output %v blocked=%v", out.Output, out.Blocked)
		}
	})
	t.Run("union: watch_paths", func(t *testing.T) {
		e := newEngine(t)
		register(t, e,
			static("a", "SessionStart", engine.Result{"watch_paths": []any{"a", "b"}}),
			static("b", "SessionStart", engine.Result{"watch_paths": []any{"b", "c"}}),
		)
		got := fire(t, e, "SessionStart", map[string]any{"source": "startup"}).Output["watch_paths"]
		if !reflect.DeepEqual(got, []any{"a", "b", "c"}) {
			t.Fatalf("watch_paths %v", got)
		}
	})
	t.Run("restrictive field: before_agent_finalize action", func(t *testing.T) {
		e := newEngine(t)
		register(t, e,
			static("a", "before_agent_finalize", engine.Result{"action": "continue"}),
			static("b", "before_agent_finalize", engine.Result{"action": "revise", "reason": "fix tests"}),
			static("c", "before_agent_finalize", engine.Result{"action": "revise", "reason": "add docs"}),
		)
		out := fire(t, e, "before_agent_finalize", nil)
		if out.Output["action"] != "revise" || out.Output["reason"] != "fix tests\n\nadd docs" {
			t.Fatalf("output %v", out.Output)
		}
	})
	t.Run("claim: first handled wins without blocking", func(t *testing.T) {
		e := newEngine(t)
		register(t, e,
			engine.Hook{ID: "decline", Event: "inbound_claim", Priority: 3, Handler: engine.Static(engine.Result{"handled": false})},
			engine.Hook{ID: "claim", Event: "inbound_claim", Priority: 2, Handler: engine.Static(engine.Result{"handled": true, "reply": "mine"})},
			engine.Hook{ID: "late", Event: "inbound_claim", Priority: 1, Handler: engine.Static(engine.Result{"handled": true, "reply": "late"})},
		)
		out := fire(t, e, "inbound_claim", nil)
		if out.Output["handled"] != true || out.Output["reply"] != "mine" || out.Blocked {
			t.Fatalf("output %v blocked=%v", out.Output, out.Blocked)
		}
	})
}

func TestUnknownFieldsMergeLast(t *testing.T) {
	e := newEngine(t)
	register(t, e,
		static("a", "PreToolUse", engine.Result{"custom": 1}),
		static("b", "PreToolUse", engine.Result{"custom": 2}),
	)
	if got := fire(t, e, "PreToolUse", bash("ls")).Output["custom"]; got != 2 {
		t.Fatalf("custom %v", got)
	}
}

func TestCamelCaseResultFieldsAreNormalised(t *testing.T) {
	e := newEngine(t)
	register(t, e, engine.Hook{ID: "cc", Event: "PreToolUse", Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) {
		return engine.Result{"permissionDecision": "ask", "permissionDecisionReason": "check", "additionalContext": "ctx", "systemMessage": "msg"}, nil
	})})
	out := fire(t, e, "PreToolUse", bash("ls"))
	if out.Decision != "ask" || out.Reason != "check" || out.AdditionalContext != "ctx" || out.SystemMessage != "msg" {
		t.Fatalf("outcome %+v", out)
	}
}

// TestEquivalentsInFieldOrder: OpenClaw's fields that stand for a decision
// are read in the order of their names, the same on every fire: a hook
// that blocks and asks for approval at once is denied with the block's
// reason, never with the approval's title (the fields were read in the
// random order of a map).
func TestEquivalentsInFieldOrder(t *testing.T) {
	e := newEngine(t)
	register(t, e, engine.Hook{ID: "both", Event: "PreToolUse", Handler: engine.Static(engine.Result{
		"block": true, "require_approval": map[string]any{"title": "approve me"},
	})})
	for range 64 {
		out := fire(t, e, "PreToolUse", bash("ls"))
		if out.Decision != engine.DecisionDeny || out.Reason != `blocked by hook "both" (block)` {
			t.Fatalf("decision %q reason %q, want deny with the block's reason", out.Decision, out.Reason)
		}
	}
}

// TestStaticResultRefusesClaudeShapes: a declarative result is written in
// hookctl's fields; one in Claude Code's hookSpecificOutput shape is
// refused when registered (its deny was an unknown field, noted and lost).
func TestStaticResultRefusesClaudeShapes(t *testing.T) {
	e := newEngine(t)
	err := e.Register(engine.Hook{ID: "s", Event: "PreToolUse", Handler: engine.Static(engine.Result{
		"hookSpecificOutput": map[string]any{"permissionDecision": "deny"},
	})})
	var ce *engine.HookConfigError
	if !errors.As(err, &ce) || ce.Field != "result" || !strings.Contains(err.Error(), "hookSpecificOutput") {
		t.Fatalf("register: %v", err)
	}
}

// TestParamsRewriteIsJudged: OpenClaw's params on PreToolUse is the
// rewritten tool input: the hooks after it judge the rewrite as
// tool_input (a guard denies it), and the last rewrite in either spelling
// is what the host runs. (params chained into payload.params alone: the
// guard judged the original input and the host ran the rewrite.)
func TestParamsRewriteIsJudged(t *testing.T) {
	guard := fn(func(_ context.Context, c *engine.Call) (engine.Result, error) {
		in, _ := c.Payload["tool_input"].(map[string]any)
		if cmd, _ := in["command"].(string); strings.Contains(cmd, "rm -rf") {
			return engine.Deny("rm -rf: " + cmd), nil
		}
		return nil, nil
	})
	rewrite := func(field string, cmd string) engine.Handler {
		return fn(func(context.Context, *engine.Call) (engine.Result, error) {
			return engine.Result{field: map[string]any{"command": cmd}}, nil
		})
	}
	for _, field := range []string{"params", "updated_input"} {
		e := newEngine(t)
		register(t, e,
			engine.Hook{ID: "rewrite", Event: "PreToolUse", Priority: 10, Handler: rewrite(field, "rm -rf ~")},
			engine.Hook{ID: "guard", Event: "PreToolUse", Handler: guard})
		out := fire(t, e, "PreToolUse", bash("ls"))
		if out.Decision != engine.DecisionDeny {
			t.Errorf("%s: decision %q, want the guard's deny of the rewrite", field, out.Decision)
		}
	}
	// The last rewrite wins, whichever spelling it comes in.
	for _, order := range [][2]string{{"params", "updated_input"}, {"updated_input", "params"}} {
		e := newEngine(t)
		register(t, e,
			engine.Hook{ID: "first", Event: "PreToolUse", Priority: 10, Handler: rewrite(order[0], "echo first")},
			engine.Hook{ID: "second", Event: "PreToolUse", Priority: 5, Handler: rewrite(order[1], "echo second")})
		out := fire(t, e, "PreToolUse", bash("ls"))
		if cmd, _ := out.UpdatedInput["command"].(string); cmd != "echo second" {
			t.Errorf("%v: updated input %v, want the second rewrite", order, out.UpdatedInput)
		}
	}
}

// TestRewriteMustBeAnObject: a rewritten tool input that is not an object
// ('x', 5, true, []) is ignored with a note: the next hooks judge the
// input the host runs (it was their tool_input, so a guard had no opinion,
// and the host ran the original call).
func TestRewriteMustBeAnObject(t *testing.T) {
	guard := fn(func(_ context.Context, c *engine.Call) (engine.Result, error) {
		in, _ := c.Payload["tool_input"].(map[string]any)
		if cmd, _ := in["command"].(string); strings.Contains(cmd, "rm -rf") {
			return engine.Deny("rm -rf"), nil
		}
		return nil, nil
	})
	for _, field := range []string{"updated_input", "params", "updatedInput"} {
		for _, v := range []any{"x", 5.0, true, []any{}} {
			e := newEngine(t)
			register(t, e,
				engine.Hook{ID: "rewrite", Event: "PreToolUse", Priority: 10, Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) {
					return engine.Result{field: v}, nil
				})},
				engine.Hook{ID: "guard", Event: "PreToolUse", Handler: guard})
			out := fire(t, e, "PreToolUse", bash("rm -rf ~"))
			if out.Decision != engine.DecisionDeny || traceOf(t, out, "rewrite").Note == "" {
				t.Errorf("%s = %v: decision %q note %q, want the guard's deny of the original and a note", field, v, out.Decision, traceOf(t, out, "rewrite").Note)
			}
		}
	}
}

// TestRewriteReadAsTheHostReadsIt: with Event.ReadInput, a rewritten
// tool input is read as the host's decoder read the original before the
// next hooks judge it (a field derived from the one the host runs,
// replaced rather than left stale), in either spelling; the host gets
// the rewrite as the hook returned it, and the hook's map is not changed.
func TestRewriteReadAsTheHostReadsIt(t *testing.T) {
	readInput := func(_ string, in map[string]any) map[string]any {
		cmd, ok := in["cmd"].(string)
		if !ok || in["command"] == any(cmd) {
			return in
		}
		out := maps.Clone(in)
		out["command"] = cmd
		return out
	}
	guard := fn(func(_ context.Context, c *engine.Call) (engine.Result, error) {
		in, _ := c.Payload["tool_input"].(map[string]any)
		if cmd, _ := in["command"].(string); strings.Contains(cmd, "rm -rf") {
			return engine.Deny("rm -rf: " + cmd), nil
		}
		return nil, nil
	})
	for _, field := range []string{"params", "updated_input"} {
		returned := map[string]any{"cmd": "rm -rf ~", "command": "ls"} // a stale command beside it
		e := newEngine(t)
		register(t, e,
			engine.Hook{ID: "rewrite", Event: "PreToolUse", Priority: 10, Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) {
				return engine.Result{field: returned}, nil
			})},
			engine.Hook{ID: "guard", Event: "PreToolUse", Handler: guard})
		payload := map[string]any{"tool_name": "exec_command", "tool_input": map[string]any{"cmd": "ls", "command": "ls"}}
		for _, read := range []bool{false, true} {
			ev := engine.Event{Name: "PreToolUse", Payload: payload}
			if read {
				ev.ReadInput = readInput
			}
			out, err := e.Fire(context.Background(), ev)
			if err != nil {
				t.Fatal(err)
			}
			if denied := out.Decision == engine.DecisionDeny; denied != read {
				t.Errorf("%s, read %v: decision %q", field, read, out.Decision)
			}
		}
		if returned["command"] != "ls" || len(returned) != 2 {
			t.Errorf("%s: the hook's result changed: %v", field, returned)
		}
	}
	// What the host gets is the rewrite as returned.
	e := newEngine(t)
	register(t, e, engine.Hook{ID: "rewrite", Event: "PreToolUse", Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) {
		return engine.Result{"updated_input": map[string]any{"cmd": "echo hi"}}, nil
	})})
	out, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{"tool_name": "exec_command",
		"tool_input": map[string]any{"cmd": "ls"}}, ReadInput: readInput})
	if err != nil || !reflect.DeepEqual(out.UpdatedInput, map[string]any{"cmd": "echo hi"}) {
		t.Fatalf("host's input %v, %v", out.UpdatedInput, err)
	}
}
