package conformance_test

import (
	"context"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
)

const (
	emptyRule = "openclaw-hooks.md Implications (the empty-string quirk); SPEC §2 Merge rules (concat: empty strings never erase)"
	specTrace = "SPEC §2 Strategies (a terminal decision stops the chain and the trace says why); SPEC §5"
)

// TestEmptyStringNeverErases checks that an empty string in a concat field
// never erases the context accumulated before it, in either system.
func TestEmptyStringNeverErases(t *testing.T) {
	run(t, []row{
		{
			rule: "Claude Code: an empty additional_context does not erase earlier context", cite: emptyRule,
			hooks: []hk{
				res("a", "PreToolUse", 3, engine.Result{"additional_context": "A"}),
				res("empty", "PreToolUse", 2, engine.Result{"additional_context": ""}),
				res("c", "PreToolUse", 1, engine.Result{"additional_context": "C"}),
			},
			event: "PreToolUse", payload: fx("PreToolUse.Bash"),
			want: want{context: "A\n\nC"},
		},
		{
			rule: "Claude Code: an empty additional_context last in the chain keeps the context", cite: emptyRule,
			hooks: []hk{res("a", "SessionStart", 1, engine.Result{"additionalContext": "branch: main"}), res("empty", "SessionStart", 0, engine.Result{"additionalContext": ""})},
			event: "SessionStart", payload: fx("SessionStart.startup"),
			want: want{context: "branch: main"},
		},
		{
			rule: "Claude Code: an empty first additional_context adds no leading blank line", cite: emptyRule,
			hooks: []hk{res("empty", "UserPromptSubmit", 1, engine.Result{"additional_context": ""}), res("b", "UserPromptSubmit", 0, engine.Result{"additional_context": "B"})},
			event: "UserPromptSubmit", payload: fx("UserPromptSubmit"),
			want: want{context: "B"},
		},
		{
			rule: "Claude Code: an empty system_message does not erase earlier messages", cite: emptyRule,
			hooks: []hk{res("a", "PostToolUse", 1, engine.Result{"system_message": "lint: ok"}), res("empty", "PostToolUse", 0, engine.Result{"systemMessage": ""})},
			event: "PostToolUse", payload: fx("PostToolUse.Bash"),
			want: want{sysMsg: "lint: ok"},
		},
		{
			rule: "OpenClaw before_prompt_build: an empty prepend_context does not erase earlier context", cite: emptyRule,
			hooks: []hk{
				res("a", "before_prompt_build", 3, engine.Result{"prepend_context": "A"}),
				res("empty", "before_prompt_build", 2, engine.Result{"prependContext": ""}),
			},
			event: "before_prompt_build", payload: ocPromptBuild(),
			want: want{output: map[string]any{"prepend_context": "A"}},
		},
		{
			rule: "OpenClaw before_prompt_build: empty append/system contexts do not erase earlier ones", cite: emptyRule,
			hooks: []hk{
				res("a", "before_prompt_build", 2, engine.Result{"append_context": "A", "prepend_system_context": "S", "append_system_context": "E"}),
				res("empty", "before_prompt_build", 1, engine.Result{"append_context": "", "prepend_system_context": "", "append_system_context": ""}),
				res("b", "before_prompt_build", 0, engine.Result{"append_context": "B"}),
			},
			event: "before_prompt_build", payload: ocPromptBuild(),
			want: want{output: map[string]any{"append_context": "A\n\nB", "prepend_system_context": "S", "append_system_context": "E"}},
		},
		{
			rule: "OpenClaw agent_turn_prepare: an empty append_context does not erase earlier context", cite: emptyRule,
			hooks: []hk{res("a", "agent_turn_prepare", 1, engine.Result{"append_context": "A"}), res("empty", "agent_turn_prepare", 0, engine.Result{"append_context": ""})},
			event: "agent_turn_prepare", payload: obj("injections", list()),
			want: want{output: map[string]any{"append_context": "A"}},
		},
		{
			rule: "OpenClaw before_agent_finalize: an empty revise reason does not erase earlier reasons", cite: emptyRule,
			hooks: []hk{
				res("a", "before_agent_finalize", 1, engine.Result{"action": "revise", "reason": "fix tests"}),
				res("empty", "before_agent_finalize", 0, engine.Result{"action": "revise", "reason": ""}),
			},
			event: "before_agent_finalize", payload: ocFinalize(),
			want: want{decision: "revise", reason: "fix tests", output: map[string]any{"action": "revise"}},
		},
	})
}

// TestChainStoppedTrace checks that hooks skipped after a terminal
// decision say which hook stopped the chain, in both systems.
func TestChainStoppedTrace(t *testing.T) {
	run(t, []row{
		{
			rule: "Claude Code PreToolUse deny: later hooks show \"chain stopped by <id>\"", cite: specTrace,
			hooks: []hk{
				dec("no-rm-rf", "PreToolUse", 100, "deny", "rm -rf is not allowed"),
				res("pip-to-uv", "PreToolUse", 0, engine.Result{"updated_input": obj("command", "never")}),
				{id: "writes-only", event: "PreToolUse", matcher: "Write", priority: -1, result: engine.Result{"additional_context": "never"}},
			},
			event: "PreToolUse", payload: fx("PreToolUse.Bash"),
			want: want{decision: "deny", reason: "rm -rf is not allowed", blocked: true,
				order: []string{"no-rm-rf", "pip-to-uv", "writes-only"},
				hooks: []tr{ran("no-rm-rf"), stoppedBy("pip-to-uv", "no-rm-rf"), stoppedBy("writes-only", "no-rm-rf")}},
		},
		{
			rule: "Claude Code Stop block: later hooks show \"chain stopped by <id>\"", cite: specTrace,
			hooks: []hk{dec("tests", "Stop", 1, "block", "tests fail"), res("summary", "Stop", 0, engine.Result{"additional_context": "never"})},
			event: "Stop", payload: fx("Stop"),
			want: want{decision: "block", reason: "tests fail", blocked: true, hooks: []tr{stoppedBy("summary", "tests")}},
		},
		{
			rule: "Claude Code continue:false: later hooks show \"chain stopped by <id>\"", cite: specTrace,
			hooks: []hk{res("halt", "PostToolUse", 1, engine.Result{"continue": false}), res("lint", "PostToolUse", 0, engine.Result{"additional_context": "never"})},
			event: "PostToolUse", payload: fx("PostToolUse.Write"),
			want: want{blocked: true, halted: true, hooks: []tr{stoppedBy("lint", "halt")}},
		},
		{
			rule: "fail-closed failure: later hooks show \"chain stopped by <failing id>\"", cite: specTrace + "; " + specErrors,
			hooks: []hk{{id: "gate", event: "PreToolUse", priority: 1, onError: engine.ErrorBlock, fn: failing("down")}, dec("allow", "PreToolUse", 0, "allow", "")},
			event: "PreToolUse", payload: fx("PreToolUse.Bash"),
			want: want{decision: "deny", reasonHas: "gate", blocked: true, hooks: []tr{stoppedBy("allow", "gate")}},
		},
		{
			rule: "OpenClaw message_sending cancel: later hooks show \"chain stopped by <id>\"", cite: specTrace + "; " + ocCatalog + " message_sending",
			hooks: []hk{res("spam", "message_sending", 1, engine.Result{"cancel": true}), res("sig", "message_sending", 0, engine.Result{"content": "never"})},
			event: "message_sending", payload: ocSending(),
			want: want{blocked: true, output: map[string]any{"content": absent}, hooks: []tr{stoppedBy("sig", "spam")}},
		},
		{
			rule: "OpenClaw before_tool_call block: later hooks show \"chain stopped by <id>\"", cite: specTrace + "; " + ocToolCall,
			hooks: []hk{res("firewall", "before_tool_call", 1, engine.Result{"block": true}), res("audit", "before_tool_call", 0, engine.Result{"params": obj("x", "never")})},
			event: "before_tool_call", payload: ocToolCallPayload(),
			want: want{event: "PreToolUse", decision: "deny", reasonHas: `blocked by hook "firewall"`, blocked: true, hooks: []tr{stoppedBy("audit", "firewall")}},
		},
		{
			rule: "OpenClaw claim: later hooks show \"chain stopped by <id>\" without a block", cite: specTrace + "; " + ocCatalog + " inbound_claim",
			hooks: []hk{res("owner", "inbound_claim", 1, engine.Result{"handled": true}), res("other", "inbound_claim", 0, engine.Result{"handled": true})},
			event: "inbound_claim", payload: obj("content", "hi", "channel", "telegram"),
			want: want{output: map[string]any{"handled": true}, hooks: []tr{stoppedBy("other", "owner")}},
		},
		{
			rule: "OpenClaw before_agent_run block: later hooks show \"chain stopped by <id>\"", cite: specTrace + "; " + ocCatalog + " before_agent_run",
			hooks: []hk{res("deny", "before_agent_run", 1, engine.Result{"outcome": "block", "reason": "no"}), res("pass", "before_agent_run", 0, engine.Result{"outcome": "pass"})},
			event: "before_agent_run", payload: ocAgentRun(),
			want: want{decision: "block", reason: "no", blocked: true, hooks: []tr{stoppedBy("pass", "deny")}},
		},
	})
}

// TestSpecContract checks engine-wide rules of SPEC.md that both systems
// rely on: unknown events, skip reasons, statuses, observe and background
// hooks, shared state and conditions.
func TestSpecContract(t *testing.T) {
	run(t, []row{
		{
			rule: "SPEC: firing an unknown event is an error, never a silent no-op", cite: "SPEC §2 Events",
			event: "PreToolUsee", payload: fx("PreToolUse.Bash"),
			want: want{err: true},
		},
		{
			rule: "SPEC: an event with no hooks gives an empty, non-blocking outcome", cite: "SPEC §5",
			event: "PreToolUse", payload: fx("PreToolUse.Bash"),
			want: want{event: "PreToolUse", noOutput: true},
		},
		{
			rule: "SPEC: statuses decided, ran and skipped with their reasons", cite: "SPEC §5 (status, skip_reason)",
			hooks: []hk{
				{id: "decides", event: "PreToolUse", priority: 5, result: engine.Result{"additional_context": "x"}},
				{id: "silent", event: "PreToolUse", priority: 4},
				{id: "writes", event: "PreToolUse", priority: 3, matcher: "Write|Edit", result: engine.Result{"additional_context": "never"}},
				{id: "cond", event: "PreToolUse", priority: 2, when: "tool_input.command startsWith 'git '", result: engine.Result{"additional_context": "never"}},
				{id: "off", event: "PreToolUse", priority: 1, disabled: true, result: engine.Result{"additional_context": "never"}},
				{id: "rm", event: "PreToolUse", priority: 0, when: "tool_input.command contains 'rm -rf'", result: engine.Result{"additional_context": "rm seen"}},
			},
			event: "PreToolUse", payload: fx("PreToolUse.Bash"),
			want: want{context: "x\n\nrm seen", hooks: []tr{
				ran("decides"), ranEmpty("silent"), unmatched("writes"),
				{id: "cond", status: engine.StatusSkipped, skip: engine.SkipCondition},
				{id: "off", status: engine.StatusSkipped, skip: engine.SkipDisabled},
				ran("rm"),
			}},
		},
		{
			rule: "SPEC: ctx.state written by a hook is visible to later hooks and in the outcome", cite: "SPEC §2 Strategies (shared ctx.state); SPEC §5 state",
			hooks: []hk{
				gofn("writer", "PreToolUse", 1, func(_ context.Context, c *engine.Call) (engine.Result, error) {
					c.State.Set("rewrote", true)
					return nil, nil
				}),
				{id: "reader", event: "PreToolUse", when: "state.rewrote == true", fn: func(_ context.Context, c *engine.Call) (engine.Result, error) {
					v, _ := c.State.Get("rewrote")
					return engine.Result{"seen_reader": v}, nil
				}},
			},
			event: "PreToolUse", payload: fx("PreToolUse.Bash"),
			want: want{state: map[string]any{"rewrote": true}, output: map[string]any{"seen_reader": true}, hooks: []tr{ranEmpty("writer"), ran("reader")}},
		},
		{
			rule: "SPEC: an observe hook sees the final outcome and cannot change it", cite: "SPEC §2 Strategies (observe = true)",
			hooks: []hk{
				{id: "audit", event: "PreToolUse", priority: 100, observe: true, fn: func(_ context.Context, c *engine.Call) (engine.Result, error) {
					c.State.Set("audit_saw", string(c.Outcome.Decision))
					return engine.Allow("observer cannot allow"), nil
				}},
				dec("no-rm-rf", "PreToolUse", 0, "deny", "rm -rf is not allowed"),
			},
			event: "PreToolUse", payload: fx("PreToolUse.Bash"),
			want: want{decision: "deny", reason: "rm -rf is not allowed", blocked: true, state: map[string]any{"audit_saw": "deny"},
				order: []string{"no-rm-rf", "audit"},
				hooks: []tr{ran("no-rm-rf"), {id: "audit", status: engine.StatusDecided, phase: engine.PhaseObserve}}},
		},
		{
			rule: "SPEC: a background hook is queued and Fire does not wait for it", cite: "SPEC §2 Strategies (background = true); SPEC §5 queued",
			hooks: []hk{
				{id: "bg", event: "PostToolUse", background: true, fn: func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
					return engine.Result{"additional_context": "never merged"}, nil
				}},
				res("ctx", "PostToolUse", 0, engine.Result{"additional_context": "merged"}),
			},
			event: "PostToolUse", payload: fx("PostToolUse.Bash"),
			want: want{context: "merged", hooks: []tr{{id: "bg", status: engine.StatusQueued, phase: engine.PhaseBackground}, ran("ctx")}},
		},
		{
			rule: "SPEC: the trace tells a hook that denied from a hook that could not run", cite: specErrors,
			hooks: []hk{
				{id: "timed-out", event: "PreModelSwitch", priority: 2, timeout: 5 * time.Millisecond, onError: engine.ErrorIgnore, fn: hanging},
				{id: "crashed", event: "PreModelSwitch", priority: 1, onError: engine.ErrorIgnore, fn: failing("boom")},
				dec("denied", "PreModelSwitch", 0, "deny", "too expensive"),
			},
			event: "PreModelSwitch", payload: modelSwitch("claude-opus-4-5"),
			want: want{decision: "deny", reason: "too expensive", blocked: true, hooks: []tr{
				{id: "timed-out", status: engine.StatusTimeout},
				{id: "crashed", status: engine.StatusError, errHas: "boom"},
				{id: "denied", status: engine.StatusDecided, decision: "deny"},
			}},
		},
	})
}
