package conformance_test

import (
	"context"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
)

// Citations into reference/claude-code-hooks.md and SPEC.md.
const (
	ccEvents   = "claude-code-hooks.md §1"
	ccOutput   = "claude-code-hooks.md §3"
	ccCombine  = "claude-code-hooks.md §5 Combining results"
	ccMatcher  = "claude-code-hooks.md §5 Matcher syntax"
	ccMCP      = "claude-code-hooks.md §5 MCP and plugin names"
	ccLoop     = "claude-code-hooks.md §5 Loop guards; SPEC §2 Stop loop guard"
	specMerge  = "SPEC §2 Merge rules"
	specStrat  = "SPEC §2 Strategies"
	specErrors = "SPEC §3 Errors and timeouts"
)

// modelSwitch is a PreModelSwitch payload shaped after claude-code-hooks.md
// §1 (no captured fixture exists for this event).
func modelSwitch(to string) map[string]any {
	return obj("session_id", "5571db9b-f86b-4717-a6e4-58d884fbb40d", "hook_event_name", "PreModelSwitch",
		"cwd", "/tmp/hookctl-run/project", "from_model", "claude-sonnet-4-5", "to_model", to,
		"requested_model", to, "source", "command", "context_tokens", 48213.0,
		"prompt_cache_warm", true, "cache_ttl", "5m", "estimated_cache_write_usd", 0.18)
}

func configChange(source string) map[string]any {
	return obj("session_id", "5571db9b-f86b-4717-a6e4-58d884fbb40d", "hook_event_name", "ConfigChange",
		"cwd", "/tmp/hookctl-run/project", "source", source, "file_path", "/tmp/hookctl-run/project/.claude/settings.json")
}

func taskCreated() map[string]any {
	return obj("session_id", "5571db9b-f86b-4717-a6e4-58d884fbb40d", "hook_event_name", "TaskCreated",
		"cwd", "/tmp/hookctl-run/project", "task_id", "task-1", "task_subject", "write the release notes")
}

// TestClaudeDecisionPrecedence checks how decisions combine on the events
// that take a permission decision.
func TestClaudeDecisionPrecedence(t *testing.T) {
	const pre = "PreToolUse"
	bash := func() map[string]any { return fx("PreToolUse.Bash") }
	run(t, []row{
		{
			rule: "Claude Code: PreToolUse ask beats allow", cite: ccCombine,
			hooks: []hk{dec("allow-ls", pre, 2, "allow", "ls is safe"), dec("ask-rm", pre, 1, "ask", "rm needs review")},
			event: pre, payload: bash(),
			want: want{decision: "ask", reason: "rm needs review", hooks: []tr{ran("allow-ls"), ran("ask-rm")}},
		},
		{
			rule: "Claude Code: PreToolUse ask beats a later allow", cite: ccCombine,
			hooks: []hk{dec("ask-rm", pre, 2, "ask", "rm needs review"), dec("allow-ls", pre, 1, "allow", "ls is safe")},
			event: pre, payload: bash(),
			want: want{decision: "ask", reason: "rm needs review", hooks: []tr{ran("ask-rm"), ran("allow-ls")}},
		},
		{
			rule: "Claude Code: PreToolUse defer beats ask and allow", cite: ccCombine,
			hooks: []hk{dec("a", pre, 3, "allow", "r-allow"), dec("b", pre, 2, "ask", "r-ask"), dec("c", pre, 1, "defer", "r-defer"), dec("d", pre, 0, "allow", "r-allow-2")},
			event: pre, payload: bash(),
			want: want{decision: "defer", reason: "r-defer", hooks: []tr{ran("a"), ran("b"), ran("c"), ran("d")}},
		},
		{
			rule: "Claude Code: PreToolUse deny > defer > ask > allow", cite: ccCombine,
			hooks: []hk{dec("a", pre, 4, "allow", "r-allow"), dec("b", pre, 3, "ask", "r-ask"), dec("c", pre, 2, "defer", "r-defer"), dec("d", pre, 1, "deny", "r-deny")},
			event: pre, payload: bash(),
			want: want{decision: "deny", reason: "r-deny", blocked: true},
		},
		{
			rule: "Claude Code: PreToolUse deny is terminal, lower priorities are skipped", cite: ccCombine + "; " + specStrat,
			hooks: []hk{dec("deny-rm", pre, 10, "deny", "rm -rf is not allowed"), dec("allow-all", pre, 0, "allow", "")},
			event: pre, payload: bash(),
			want: want{decision: "deny", reason: "rm -rf is not allowed", blocked: true,
				hooks: []tr{{id: "deny-rm", status: engine.StatusDecided, decision: "deny"}, stoppedBy("allow-all", "deny-rm")}},
		},
		{
			rule: "Claude Code: legacy top-level approve maps to allow", cite: ccEvents + " PreToolUse",
			hooks: []hk{dec("legacy", pre, 0, "approve", "old-style approve")},
			event: pre, payload: bash(),
			want: want{decision: "allow", reason: "old-style approve"},
		},
		{
			rule: "Claude Code: legacy top-level block maps to deny", cite: ccEvents + " PreToolUse",
			hooks: []hk{dec("allow", pre, 1, "allow", "fine"), dec("legacy", pre, 0, "block", "old-style block")},
			event: pre, payload: bash(),
			want: want{decision: "deny", reason: "old-style block", blocked: true},
		},
		{
			rule: "Claude Code: hookSpecificOutput permissionDecision / permissionDecisionReason", cite: ccOutput + " Decision patterns",
			hooks: []hk{gofn("json-hook", pre, 0, returning(engine.Result{"permissionDecision": "deny", "permissionDecisionReason": "blocked by policy"}))},
			event: pre, payload: bash(),
			want: want{decision: "deny", reason: "blocked by policy", blocked: true},
		},
		{
			rule: "SPEC: the reason is the winning decision's, even when it has none", cite: specMerge,
			hooks: []hk{dec("allow", pre, 1, "allow", "allowed because"), dec("ask", pre, 0, "ask", "")},
			event: pre, payload: bash(),
			want: want{decision: "ask", reason: ""},
		},
		{
			rule: "Claude Code: PermissionRequest deny beats allow", cite: ccEvents + " PermissionRequest; " + ccCombine,
			hooks: []hk{dec("allow", "PermissionRequest", 2, "allow", "trusted dir"), dec("deny", "PermissionRequest", 1, "deny", "victim dir")},
			event: "PermissionRequest", payload: fx("PermissionRequest.Bash"),
			want: want{decision: "deny", reason: "victim dir", blocked: true},
		},
		{
			rule: "Claude Code: PermissionRequest allow", cite: ccEvents + " PermissionRequest",
			hooks: []hk{dec("allow", "PermissionRequest", 0, "allow", "trusted dir")},
			event: "PermissionRequest", payload: fx("PermissionRequest.Bash"),
			want: want{decision: "allow", reason: "trusted dir"},
		},
		{
			rule: "Claude Code: PermissionRequest takes only allow|deny, ask is ignored with a note", cite: ccEvents + " PermissionRequest",
			hooks: []hk{dec("allow", "PermissionRequest", 1, "allow", "trusted dir"), gofn("asker", "PermissionRequest", 0, returning(engine.Ask("maybe")))},
			event: "PermissionRequest", payload: fx("PermissionRequest.Bash"),
			want: want{decision: "allow", reason: "trusted dir", hooks: []tr{{id: "asker", status: engine.StatusDecided, note: "ignored"}}},
		},
		{
			rule: "Claude Code: PreModelSwitch ask beats allow", cite: ccEvents + " PreModelSwitch; " + ccCombine,
			hooks: []hk{dec("allow", "PreModelSwitch", 1, "allow", "ok"), dec("ask", "PreModelSwitch", 0, "ask", "cache is warm")},
			event: "PreModelSwitch", payload: modelSwitch("claude-opus-4-5"),
			want: want{decision: "ask", reason: "cache is warm"},
		},
		{
			rule: "Claude Code: PreModelSwitch deny > ask > allow", cite: ccEvents + " PreModelSwitch; " + ccCombine,
			hooks: []hk{dec("allow", "PreModelSwitch", 2, "allow", "ok"), dec("ask", "PreModelSwitch", 1, "ask", "cache is warm"), dec("deny", "PreModelSwitch", 0, "deny", "too expensive")},
			event: "PreModelSwitch", payload: modelSwitch("claude-opus-4-5"),
			want: want{decision: "deny", reason: "too expensive", blocked: true},
		},
		{
			rule: "Claude Code: PreModelSwitch has no defer, it is ignored with a note", cite: ccEvents + " PreModelSwitch",
			hooks: []hk{dec("allow", "PreModelSwitch", 1, "allow", "ok"), gofn("deferrer", "PreModelSwitch", 0, returning(engine.Defer("later")))},
			event: "PreModelSwitch", payload: modelSwitch("claude-opus-4-5"),
			want: want{decision: "allow", reason: "ok", hooks: []tr{{id: "deferrer", status: engine.StatusDecided, note: "ignored"}}},
		},
		{
			rule: "Claude Code: top-level block on PreModelSwitch cancels the switch (deny)", cite: ccOutput + " Decision patterns",
			hooks: []hk{dec("block", "PreModelSwitch", 0, "block", "stay on sonnet")},
			event: "PreModelSwitch", payload: modelSwitch("claude-opus-4-5"),
			want: want{decision: "deny", reason: "stay on sonnet", blocked: true},
		},
	})
}

// TestClaudeFailurePolicy checks fail-open and fail-closed defaults.
func TestClaudeFailurePolicy(t *testing.T) {
	const pre = "PreToolUse"
	run(t, []row{
		{
			rule: "Claude Code: a failing PreToolUse hook fails open (no decision, the call proceeds)", cite: ccOutput + " Exit codes; " + specErrors,
			hooks: []hk{gofn("gate", pre, 1, failing("policy server unreachable")), res("ctx", pre, 0, engine.Result{"additional_context": "still ran"})},
			event: pre, payload: fx("PreToolUse.Bash"),
			want: want{context: "still ran", hooks: []tr{{id: "gate", status: engine.StatusError, errHas: "policy server unreachable"}, ran("ctx")}},
		},
		{
			rule: "Claude Code: a timed-out PreToolUse hook fails open", cite: ccOutput + " Exit codes (timeout)",
			hooks: []hk{{id: "slow", event: pre, timeout: 10 * time.Millisecond, fn: hanging}},
			event: pre, payload: fx("PreToolUse.Bash"),
			want: want{hooks: []tr{{id: "slow", status: engine.StatusTimeout}}},
		},
		{
			rule: "Claude Code: a panicking PreToolUse hook fails open", cite: specErrors,
			hooks: []hk{gofn("buggy", pre, 1, panicking), dec("allow", pre, 0, "allow", "fine")},
			event: pre, payload: fx("PreToolUse.Bash"),
			want: want{decision: "allow", reason: "fine", hooks: []tr{{id: "buggy", status: engine.StatusError, errHas: "panic"}, ran("allow")}},
		},
		{
			rule: "Claude Code: a timed-out UserPromptSubmit hook drops its context, the prompt proceeds", cite: ccEvents + " UserPromptSubmit",
			hooks: []hk{{id: "slow", event: "UserPromptSubmit", priority: 1, timeout: 10 * time.Millisecond, fn: hanging}, res("ctx", "UserPromptSubmit", 0, engine.Result{"additional_context": "repo uses uv"})},
			event: "UserPromptSubmit", payload: fx("UserPromptSubmit"),
			want: want{context: "repo uses uv", hooks: []tr{{id: "slow", status: engine.StatusTimeout}, ran("ctx")}},
		},
		{
			rule: "Claude Code: PreModelSwitch fails closed on a hook error", cite: ccOutput + " Exit codes; " + ccEvents + " PreModelSwitch",
			hooks: []hk{gofn("gate", "PreModelSwitch", 1, failing("pricing API down")), dec("allow", "PreModelSwitch", 0, "allow", "")},
			event: "PreModelSwitch", payload: modelSwitch("claude-opus-4-5"),
			want: want{decision: "deny", reasonHas: `"gate"`, blocked: true,
				hooks: []tr{{id: "gate", status: engine.StatusError, decision: "deny", failClosed: true}, stoppedBy("allow", "gate")}},
		},
		{
			rule: "Claude Code: PreModelSwitch fails closed on a timeout", cite: ccEvents + " PreModelSwitch (a timeout blocks the switch)",
			hooks: []hk{{id: "slow", event: "PreModelSwitch", timeout: 10 * time.Millisecond, fn: hanging}},
			event: "PreModelSwitch", payload: modelSwitch("claude-opus-4-5"),
			want: want{decision: "deny", reasonHas: "could not run", blocked: true,
				hooks: []tr{{id: "slow", status: engine.StatusTimeout, decision: "deny", failClosed: true}}},
		},
		{
			rule: "SPEC: on_error=ignore overrides PreModelSwitch's fail-closed default", cite: specErrors,
			hooks: []hk{{id: "gate", event: "PreModelSwitch", onError: engine.ErrorIgnore, fn: failing("down")}},
			event: "PreModelSwitch", payload: modelSwitch("claude-opus-4-5"),
			want: want{hooks: []tr{{id: "gate", status: engine.StatusError}}},
		},
		{
			rule: "SPEC: on_error=block makes a PreToolUse hook fail closed, naming the hook", cite: specErrors,
			hooks: []hk{{id: "gate", event: pre, priority: 1, onError: engine.ErrorBlock, fn: failing("down")}, dec("allow", pre, 0, "allow", "")},
			event: pre, payload: fx("PreToolUse.Bash"),
			want: want{decision: "deny", reasonHas: `hook "gate" could not run`, blocked: true,
				hooks: []tr{{id: "gate", status: engine.StatusError, decision: "deny", failClosed: true}, stoppedBy("allow", "gate")}},
		},
	})
}

// TestClaudeRewriteAndContext checks updated_input chaining, output
// rewriting and context concatenation.
func TestClaudeRewriteAndContext(t *testing.T) {
	const pre = "PreToolUse"
	pip := func() map[string]any {
		return fx("PreToolUse.Bash", "tool_input.command", "pip install requests", "tool_input.description", "install")
	}
	run(t, []row{
		{
			rule: "Claude Code: PreToolUse updated_input is chained into tool_input for the next hook", cite: specMerge + " (chain); " + ccEvents + " PreToolUse",
			hooks: []hk{
				gofn("pip-to-uv", pre, 2, func(_ context.Context, c *engine.Call) (engine.Result, error) {
					in := c.Payload["tool_input"].(map[string]any)
					return engine.Result{"updated_input": obj("command", "uv "+in["command"].(string), "description", in["description"])}, nil
				}),
				gofn("probe", pre, 1, see("tool_input.command", nil)),
			},
			event: pre, payload: pip(),
			want: want{
				updatedInput: obj("command", "uv pip install requests", "description", "install"),
				output:       map[string]any{"seen_probe": "uv pip install requests"},
			},
		},
		{
			rule: "Claude Code: updated_input replaces the whole tool_input", cite: ccEvents + " PreToolUse (updatedInput replaces the whole input)",
			hooks: []hk{
				res("rewrite", pre, 2, engine.Result{"updated_input": obj("command", "ls")}),
				gofn("probe", pre, 1, see("tool_input", nil)),
			},
			event: pre, payload: pip(),
			want: want{updatedInput: obj("command", "ls"), output: map[string]any{"seen_probe": obj("command", "ls")}},
		},
		{
			rule: "Claude Code: several rewrites compose in chain order, the last one is final (never last-finisher-wins)", cite: "claude-code-hooks.md §10 Deterministic rewrite pipeline; " + specMerge,
			hooks: []hk{
				res("first", pre, 2, engine.Result{"updatedInput": obj("command", "uv pip install requests")}),
				gofn("second", pre, 1, func(_ context.Context, c *engine.Call) (engine.Result, error) {
					in := c.Payload["tool_input"].(map[string]any)
					return engine.Result{"updated_input": obj("command", in["command"].(string)+" --dry-run")}, nil
				}),
			},
			event: pre, payload: pip(),
			want: want{updatedInput: obj("command", "uv pip install requests --dry-run")},
		},
		{
			rule: "SPEC: no rewrite leaves updated_input null", cite: "SPEC §5",
			hooks: []hk{dec("allow", pre, 0, "allow", "")},
			event: pre, payload: pip(),
			want: want{decision: "allow", output: map[string]any{"updated_input": absent}},
		},
		{
			rule: "Claude Code: additional_context from every hook is kept, joined by a blank line", cite: ccCombine + "; " + specMerge + " (concat)",
			hooks: []hk{
				res("a", pre, 3, engine.Result{"additional_context": "A"}),
				res("b", pre, 2, engine.Result{"additionalContext": "B"}),
				res("c", pre, 1, engine.Result{"additional_context": "C", "decision": "allow"}),
			},
			event: pre, payload: fx("PreToolUse.Write"),
			want: want{decision: "allow", context: "A\n\nB\n\nC"},
		},
		{
			rule: "Claude Code: systemMessage from every hook is kept, joined by a blank line", cite: ccOutput + " Universal JSON fields; SPEC §5",
			hooks: []hk{res("a", "PostToolUse", 2, engine.Result{"systemMessage": "lint: 2 warnings"}), res("b", "PostToolUse", 1, engine.Result{"system_message": "tests: ok"})},
			event: "PostToolUse", payload: fx("PostToolUse.Bash"),
			want: want{sysMsg: "lint: 2 warnings\n\ntests: ok"},
		},
		{
			rule: "Claude Code: PostToolUse updatedToolOutput is chained into tool_response", cite: ccOutput + " Content rewriting",
			hooks: []hk{
				res("redact", "PostToolUse", 2, engine.Result{"updatedToolOutput": obj("stdout", "[redacted]")}),
				gofn("probe", "PostToolUse", 1, see("tool_response.stdout", nil)),
			},
			event: "PostToolUse", payload: fx("PostToolUse.Bash"),
			want: want{output: map[string]any{"updated_output": obj("stdout", "[redacted]"), "seen_probe": "[redacted]"}},
		},
		{
			rule: "SPEC: a rewritten UserPromptSubmit prompt is chained into prompt", cite: specStrat + " (modifying)",
			hooks: []hk{
				res("rewrite", "UserPromptSubmit", 2, engine.Result{"prompt": "Please clean up /tmp/scratch only."}),
				gofn("probe", "UserPromptSubmit", 1, see("prompt", nil)),
			},
			event: "UserPromptSubmit", payload: fx("UserPromptSubmit"),
			want: want{output: map[string]any{"prompt": "Please clean up /tmp/scratch only.", "seen_probe": "Please clean up /tmp/scratch only."}},
		},
	})
}

// TestClaudeContinueFalse checks that continue=false stops the agent and
// beats every decision.
func TestClaudeContinueFalse(t *testing.T) {
	const pre = "PreToolUse"
	run(t, []row{
		{
			rule: "Claude Code: continue:false beats every decision and carries stop_reason", cite: ccOutput + " Universal JSON fields; " + ccCombine,
			hooks: []hk{
				dec("allow", pre, 4, "allow", "fine"),
				dec("ask", pre, 3, "ask", "check"),
				res("halt", pre, 2, engine.Result{"continue": false, "stop_reason": "budget exhausted"}),
				dec("late", pre, 1, "allow", "never merged"),
			},
			event: pre, payload: fx("PreToolUse.Bash"),
			want: want{decision: "ask", reason: "check", blocked: true, halted: true, stopReason: "budget exhausted",
				hooks: []tr{ran("halt"), stoppedBy("late", "halt")}},
		},
		{
			rule: "Claude Code: stopReason (camelCase) comes with continue:false", cite: ccOutput + " Universal JSON fields",
			hooks: []hk{res("halt", "UserPromptSubmit", 0, engine.Result{"continue": false, "stopReason": "maintenance window"})},
			event: "UserPromptSubmit", payload: fx("UserPromptSubmit"),
			want: want{blocked: true, halted: true, stopReason: "maintenance window"},
		},
		{
			rule: "Claude Code: continue:false works on an event with no decision (SessionStart)", cite: ccOutput + " Universal JSON fields (every event accepts them)",
			hooks: []hk{res("halt", "SessionStart", 0, engine.Result{"continue": false, "stop_reason": "repo not trusted"})},
			event: "SessionStart", payload: fx("SessionStart.startup"),
			want: want{blocked: true, halted: true, stopReason: "repo not trusted"},
		},
		{
			rule: "Claude Code: continue:true is the default and no decision", cite: ccOutput + " Universal JSON fields",
			hooks: []hk{res("go-on", pre, 1, engine.Result{"continue": true}), dec("allow", pre, 0, "allow", "")},
			event: pre, payload: fx("PreToolUse.Bash"),
			want: want{decision: "allow", hooks: []tr{ran("go-on"), ran("allow")}},
		},
		{
			rule: "Claude Code: continue:false on Stop stops the agent even when a hook blocked", cite: ccEvents + " Stop",
			hooks: []hk{res("halt", "Stop", 1, engine.Result{"continue": false, "stop_reason": "done for today"}), dec("keep-going", "Stop", 0, "block", "tests fail")},
			event: "Stop", payload: fx("Stop"),
			want: want{blocked: true, halted: true, stopReason: "done for today", hooks: []tr{ran("halt"), stoppedBy("keep-going", "halt")}},
		},
	})
}

// TestClaudeTopLevelBlock checks the events whose only decision is a
// top-level block.
func TestClaudeTopLevelBlock(t *testing.T) {
	cases := []struct {
		event   string
		payload map[string]any
	}{
		{"UserPromptSubmit", fx("UserPromptSubmit")},
		{"UserPromptExpansion", fx("UserPromptExpansion")},
		{"PostToolUse", fx("PostToolUse.Bash")},
		{"PostToolBatch", fx("PostToolBatch")},
		{"Stop", fx("Stop")},
		{"SubagentStop", fx("SubagentStop.general-purpose")},
		{"PreCompact", fx("PreCompact.manual")},
		{"ConfigChange", configChange("project_settings")},
		{"TaskCreated", taskCreated()},
	}
	var rows []row
	for _, c := range cases {
		rows = append(rows, row{
			rule: "Claude Code: top-level decision:block on " + c.event, cite: ccOutput + " Decision patterns (top-level decision:block)",
			hooks: []hk{dec("blocker", c.event, 1, "block", "policy says no"), res("after", c.event, 0, engine.Result{"additional_context": "late"})},
			event: c.event, payload: c.payload,
			want: want{decision: "block", reason: "policy says no", blocked: true,
				hooks: []tr{{id: "blocker", status: engine.StatusDecided, decision: "block"}, stoppedBy("after", "blocker")}},
		})
	}
	rows = append(rows,
		row{
			rule: "Claude Code: block is the only top-level decision, allow is ignored with a note", cite: ccOutput + ` Universal JSON fields (the only value of decision is "block")`,
			hooks: []hk{gofn("allower", "UserPromptSubmit", 0, returning(engine.Allow("looks fine")))},
			event: "UserPromptSubmit", payload: fx("UserPromptSubmit"),
			want: want{hooks: []tr{{id: "allower", status: engine.StatusDecided, note: "ignored"}}},
		},
	)
	run(t, rows)
}

// TestClaudeStopLoopGuard checks stop_hook_active, loop_count and the block
// cap on Stop and SubagentStop.
func TestClaudeStopLoopGuard(t *testing.T) {
	// keepGoing blocks (keep working) unless the payload says tests pass,
	// and reports what the guard told it.
	keepGoing := func(_ context.Context, c *engine.Call) (engine.Result, error) {
		r := engine.Result{"seen_active": c.Payload["stop_hook_active"], "seen_count": c.Payload["loop_count"]}
		if c.Payload["tests_pass"] == true {
			return r, nil
		}
		r["decision"] = "block"
		r["reason"] = "tests are failing"
		return r, nil
	}
	blocked := func(n int) want {
		return want{decision: "block", reason: "tests are failing", blocked: true,
			output: map[string]any{"seen_active": n > 0, "seen_count": n},
			guard:  &engine.StopGuard{LoopCount: n, Cap: engine.DefaultStopBlockCap}}
	}
	released := func(n, limit int) want {
		return want{reasonHas: "cap", output: map[string]any{"seen_count": n, "decision": absent},
			guard: &engine.StopGuard{LoopCount: n, Cap: limit, Released: true}}
	}
	stop := func(kv ...any) map[string]any { return fx("Stop", kv...) }
	sub := func(agent string) map[string]any { return fx("SubagentStop.general-purpose", "agent_id", agent) }
	run(t, []row{
		{
			rule: "Claude Code: Stop block keeps the agent working; the cap (default 3) then lets it stop", cite: ccLoop,
			hooks: []hk{gofn("keep-going", "Stop", 0, keepGoing)},
			fires: []step{
				{"Stop", stop(), blocked(0)},
				{"Stop", stop(), blocked(1)},
				{"Stop", stop(), blocked(2)},
				{"Stop", stop(), released(3, engine.DefaultStopBlockCap)},
				{"Stop", stop(), blocked(0)}, // the streak starts over
			},
		},
		{
			rule: "Claude Code: a Stop that lets the agent stop resets the streak", cite: ccLoop,
			hooks: []hk{gofn("keep-going", "Stop", 0, keepGoing)},
			fires: []step{
				{"Stop", stop(), blocked(0)},
				{"Stop", stop(), blocked(1)},
				{"Stop", stop("tests_pass", true), want{output: map[string]any{"seen_count": 2}, guard: &engine.StopGuard{LoopCount: 2, Cap: 3}}},
				{"Stop", stop(), blocked(0)},
			},
		},
		{
			rule: "Claude Code: the Stop streak is counted per session_id", cite: ccLoop,
			hooks: []hk{gofn("keep-going", "Stop", 0, keepGoing)},
			fires: []step{
				{"Stop", stop(), blocked(0)},
				{"Stop", stop(), blocked(1)},
				{"Stop", stop("session_id", "another-session"), blocked(0)},
				{"Stop", stop(), blocked(2)},
			},
		},
		{
			rule: "Claude Code: SubagentStop has the loop guard, counted per subagent", cite: ccLoop + "; " + ccEvents + " SubagentStop",
			hooks: []hk{gofn("keep-going", "SubagentStop", 0, keepGoing)},
			fires: []step{
				{"SubagentStop", sub("agent-a"), blocked(0)},
				{"SubagentStop", sub("agent-a"), blocked(1)},
				{"SubagentStop", sub("agent-b"), blocked(0)},
				{"SubagentStop", sub("agent-a"), blocked(2)},
				{"SubagentStop", sub("agent-a"), released(3, engine.DefaultStopBlockCap)},
			},
		},
		{
			rule: "SPEC: settings.stop_block_cap sets the cap", cite: "SPEC §2 Stop loop guard; SPEC §4 settings",
			opts:  []engine.Option{engine.WithStopBlockCap(1)},
			hooks: []hk{gofn("keep-going", "Stop", 0, keepGoing)},
			fires: []step{
				{"Stop", stop(), want{decision: "block", reason: "tests are failing", blocked: true, guard: &engine.StopGuard{LoopCount: 0, Cap: 1},
					output: map[string]any{"seen_active": false, "seen_count": 0}}},
				{"Stop", stop(), released(1, 1)},
			},
		},
	})
}

// TestClaudeMatchers checks the matcher syntax against each event's
// matcher field.
func TestClaudeMatchers(t *testing.T) {
	type mcase struct {
		rule    string
		cite    string
		event   string
		matcher string
		payload map[string]any
		match   bool
	}
	tool := func(name string) map[string]any { return fx("PreToolUse.Write", "tool_name", name) }
	cases := []mcase{
		{"exact tool name matches", ccMatcher, "PreToolUse", "Bash", fx("PreToolUse.Bash"), true},
		{"exact tool name does not match another tool", ccMatcher, "PreToolUse", "Bash", fx("PreToolUse.Write"), false},
		{"exact match is not a substring match", ccMatcher, "PreToolUse", "Edit", tool("NotebookEdit"), false},
		{"matching is case-sensitive", ccMatcher, "PreToolUse", "bash", fx("PreToolUse.Bash"), false},
		{"| list matches any listed name", ccMatcher, "PreToolUse", "Edit|Write", fx("PreToolUse.Write"), true},
		{"| list does not match an unlisted name", ccMatcher, "PreToolUse", "Edit|Write", fx("PreToolUse.Bash"), false},
		{", list matches any listed name", ccMatcher, "PreToolUse", "Edit,Write", fx("PreToolUse.Write"), true},
		{"spaced list matches", ccMatcher, "PreToolUse", "Edit, Write", fx("PreToolUse.Write"), true},
		{`unanchored regex "Edit.*" also matches NotebookEdit`, ccMatcher, "PreToolUse", "Edit.*", tool("NotebookEdit"), true},
		{`anchored regex "^Edit$" does not match NotebookEdit`, ccMatcher, "PreToolUse", "^Edit$", tool("NotebookEdit"), false},
		{`anchored regex "^Edit$" matches Edit`, ccMatcher, "PreToolUse", "^Edit$", tool("Edit"), true},
		{`"*" matches every tool`, ccMatcher, "PreToolUse", "*", fx("PreToolUse.Agent"), true},
		{`"" matches every tool`, ccMatcher, "PreToolUse", "", fx("PreToolUse.Agent"), true},
		{`"mcp__memory__.*" matches the server's tools`, ccMCP, "PreToolUse", "mcp__memory__.*", tool("mcp__memory__create_entities"), true},
		{`"mcp__memory__.*" does not match another server`, ccMCP, "PreToolUse", "mcp__memory__.*", tool("mcp__github__create_issue"), false},
		{`bare "mcp__memory" is exact and matches nothing`, ccMCP, "PreToolUse", "mcp__memory", tool("mcp__memory__create_entities"), false},
		{"PermissionRequest matches on tool_name", ccEvents + " PermissionRequest", "PermissionRequest", "Bash", fx("PermissionRequest.Bash"), true},
		{"PostToolUse matches on tool_name", ccEvents + " PostToolUse", "PostToolUse", "Write|Edit", fx("PostToolUse.Write"), true},
		{"PostToolUseFailure matches on tool_name", ccEvents + " PostToolUseFailure", "PostToolUseFailure", "Write", fx("PostToolUseFailure.Bash"), false},
		{"SessionStart matches on source", ccEvents + " SessionStart", "SessionStart", "startup|resume", fx("SessionStart.resume"), true},
		{"SessionStart source mismatch", ccEvents + " SessionStart", "SessionStart", "clear|compact", fx("SessionStart.startup"), false},
		{"PreCompact matches on trigger", ccEvents + " PreCompact", "PreCompact", "manual", fx("PreCompact.manual"), true},
		{"PreCompact trigger mismatch", ccEvents + " PreCompact", "PreCompact", "auto", fx("PreCompact.manual"), false},
		{"SubagentStart: a hyphenated name is exact", ccMatcher + " (hyphens)", "SubagentStart", "general-purpose", fx("SubagentStart.general-purpose"), true},
		{"SubagentStart: a hyphenated exact name is not a prefix match", ccMatcher + " (hyphens)", "SubagentStart", "general", fx("SubagentStart.general-purpose"), false},
		{"SubagentStop matches on agent_type", ccEvents + " SubagentStop", "SubagentStop", "Explore|general-purpose", fx("SubagentStop.general-purpose"), true},
		{"plugin agents: the colon forces a regex, anchored it is exact", ccMCP, "SubagentStart", "^plugin:reviewer$", obj("session_id", "s", "agent_type", "plugin:reviewer"), true},
		{"plugin agents: the anchored regex rejects a longer name", ccMCP, "SubagentStart", "^plugin:reviewer$", obj("session_id", "s", "agent_type", "plugin:reviewer-2"), false},
		{"Notification matches on notification_type", ccEvents + " Notification", "Notification", "permission_prompt", fx("Notification.permission_prompt"), true},
		{"Notification type mismatch", ccEvents + " Notification", "Notification", "idle_prompt|auth_success", fx("Notification.permission_prompt"), false},
		{"SessionEnd matches on reason", ccEvents + " SessionEnd", "SessionEnd", "clear|logout", fx("SessionEnd.other"), false},
		{"ConfigChange matches on source", ccEvents + " ConfigChange", "ConfigChange", "user_settings|project_settings", configChange("project_settings"), true},
		{"ConfigChange source mismatch", ccEvents + " ConfigChange", "ConfigChange", "user_settings|project_settings", configChange("skills"), false},
		{"PreModelSwitch matches on to_model (| list)", ccEvents + " PreModelSwitch", "PreModelSwitch", "claude-opus-4-5|claude-haiku-4-5", modelSwitch("claude-opus-4-5"), true},
		{"PreModelSwitch matches on to_model (regex)", ccEvents + " PreModelSwitch", "PreModelSwitch", "opus-.*", modelSwitch("claude-opus-4-5"), true},
		{"PreModelSwitch to_model mismatch", ccEvents + " PreModelSwitch", "PreModelSwitch", "claude-haiku-4-5", modelSwitch("claude-opus-4-5"), false},
		{"UserPromptExpansion matches on command_name", ccEvents + " UserPromptExpansion", "UserPromptExpansion", "hello", fx("UserPromptExpansion"), true},
		{"FileChanged matches the file's base name", ccEvents + " FileChanged", "FileChanged", "Makefile|Dockerfile", obj("session_id", "s", "file_path", "/tmp/hookctl-run/project/sub/Dockerfile", "event", "change"), true},
		{"FileChanged base name mismatch", ccEvents + " FileChanged", "FileChanged", "Makefile|Dockerfile", obj("session_id", "s", "file_path", "/tmp/hookctl-run/project/Dockerfile.bak", "event", "change"), false},
		{"StopFailure matches on error", ccEvents + " StopFailure", "StopFailure", "rate_limit|overloaded", obj("session_id", "s", "error", "overloaded"), true},
		{"a matcher on an event without a matcher field is ignored (UserPromptSubmit)", ccEvents + " (handler types: a matcher on an event without one is silently ignored)", "UserPromptSubmit", "Bash", fx("UserPromptSubmit"), true},
		{"a matcher on an event without a matcher field is ignored (Stop)", ccEvents + " (handler types: a matcher on an event without one is silently ignored)", "Stop", "nothing-matches-this", fx("Stop"), true},
	}
	var rows []row
	for _, c := range cases {
		w := want{hooks: []tr{unmatched("h")}}
		if c.match {
			w = want{hooks: []tr{{id: "h", status: engine.StatusDecided}}}
		}
		switch {
		case c.event == "Notification" || c.event == "SessionEnd" || c.event == "StopFailure":
			// Void events: the result is traced but never merged.
			w.noOutput = true
		case c.event == "PreModelSwitch":
			// PreModelSwitch takes no context: the trace alone tells.
		case c.match:
			w.context = "matched"
		}
		rows = append(rows, row{
			rule: "Claude Code matcher: " + c.rule + " (" + c.event + " " + `"` + c.matcher + `")`, cite: c.cite,
			hooks: []hk{{id: "h", event: c.event, matcher: c.matcher, result: engine.Result{"additional_context": "matched"}}},
			event: c.event, payload: c.payload, want: w,
		})
	}
	run(t, rows)
}

// TestClaudeVoidAndNoDecision checks events whose results do not merge,
// and events that take no decision.
func TestClaudeVoidAndNoDecision(t *testing.T) {
	observed := engine.Result{"additional_context": "ignored", "system_message": "ignored", "continue": false}
	voidRow := func(event string, payload map[string]any) row {
		return row{
			rule: "Claude Code: " + event + " is void, its hooks' results do not merge", cite: ccOutput + " Decision patterns (Nothing); " + specStrat + " (void)",
			hooks: []hk{res("observer", event, 0, observed), gofn("denier", event, 0, returning(engine.Deny("ignored")))},
			event: event, payload: payload,
			want: want{noOutput: true, hooks: []tr{
				{id: "observer", status: engine.StatusDecided, phase: engine.PhaseVoid},
				{id: "denier", status: engine.StatusDecided, phase: engine.PhaseVoid},
			}},
		}
	}
	noDecision := func(event string, payload map[string]any) row {
		return row{
			rule: "Claude Code: " + event + " takes no decision, a returned decision is ignored with a note", cite: ccOutput + " Decision patterns (Context only)",
			hooks: []hk{gofn("decider", event, 0, returning(engine.Result{"decision": "block", "reason": "no", "additional_context": "kept"}))},
			event: event, payload: payload,
			want: want{context: "kept", hooks: []tr{{id: "decider", status: engine.StatusDecided, note: "takes no decision"}}},
		}
	}
	run(t, []row{
		voidRow("Notification", fx("Notification.permission_prompt")),
		voidRow("SessionEnd", fx("SessionEnd.other")),
		voidRow("PostCompact", fx("PostCompact.manual")),
		voidRow("InstructionsLoaded", obj("session_id", "s", "file_path", "/tmp/hookctl-run/project/CLAUDE.md", "memory_type", "Project", "load_reason", "session_start")),
		voidRow("StopFailure", obj("session_id", "s", "error", "rate_limit")),
		voidRow("WorktreeRemove", obj("session_id", "s", "worktree_path", "/tmp/hookctl-run/wt")),
		{
			rule: "Claude Code: every hook of a void event runs, even when one fails", cite: ccCombine + " (Execution); " + specStrat + " (void)",
			hooks: []hk{gofn("broken", "Notification", 1, failing("no display")), res("ok", "Notification", 0, engine.Result{"additional_context": "x"})},
			event: "Notification", payload: fx("Notification.permission_prompt"),
			want: want{noOutput: true, hooks: []tr{{id: "broken", status: engine.StatusError, phase: engine.PhaseVoid}, {id: "ok", status: engine.StatusDecided, phase: engine.PhaseVoid}}},
		},
		noDecision("SessionStart", fx("SessionStart.startup")),
		noDecision("SubagentStart", fx("SubagentStart.general-purpose")),
		noDecision("PostModelSwitch", with(modelSwitch("claude-opus-4-5"), "hook_event_name", "PostModelSwitch")),
		noDecision("Setup", obj("session_id", "s", "trigger", "init")),
		{
			rule: "Claude Code: SessionStart additional_context reaches the outcome", cite: ccEvents + " SessionStart",
			hooks: []hk{res("branch", "SessionStart", 1, engine.Result{"additional_context": "branch: main"}), res("todo", "SessionStart", 0, engine.Result{"additionalContext": "3 open TODOs"})},
			event: "SessionStart", payload: fx("SessionStart.startup"),
			want: want{context: "branch: main\n\n3 open TODOs"},
		},
	})
}

// TestClaudeAliases checks that other systems' names fire the Claude Code
// event and that hooks declared under an alias run on it.
func TestClaudeAliases(t *testing.T) {
	cases := []struct {
		alias, canonical string
		payload          map[string]any
	}{
		{"before_tool_call", "PreToolUse", fx("PreToolUse.Bash")},
		{"after_tool_call", "PostToolUse", fx("PostToolUse.Bash")},
		{"session_start", "SessionStart", fx("SessionStart.startup")},
		{"session_end", "SessionEnd", fx("SessionEnd.other")},
		{"before_compaction", "PreCompact", fx("PreCompact.manual")},
		{"after_compaction", "PostCompact", fx("PostCompact.manual")},
		{"tool.pre", "PreToolUse", fx("PreToolUse.Bash")},
		{"tool.post", "PostToolUse", fx("PostToolUse.Bash")},
		{"session.start", "SessionStart", fx("SessionStart.startup")},
		{"session.end", "SessionEnd", fx("SessionEnd.other")},
	}
	var rows []row
	for _, c := range cases {
		cite := "SPEC §2 Events (OpenClaw hooks as aliases of the same Claude Code point; seed names)"
		rows = append(rows,
			row{
				rule: "alias: firing " + c.alias + " fires " + c.canonical, cite: cite,
				hooks: []hk{{id: "h", event: c.canonical}},
				event: c.alias, payload: c.payload,
				want: want{event: c.canonical, hooks: []tr{ranEmpty("h")}},
			},
			row{
				rule: "alias: a hook declared on " + c.alias + " runs when " + c.canonical + " fires", cite: cite,
				hooks: []hk{{id: "h", event: c.alias}},
				event: c.canonical, payload: c.payload,
				want: want{event: c.canonical, hooks: []tr{ranEmpty("h")}},
			},
		)
	}
	rows = append(rows, row{
		rule: "alias: a hook on an event and its alias runs once", cite: "SPEC §2 Events",
		hooks: []hk{{id: "h", events: []string{"PreToolUse", "before_tool_call", "tool.pre"}, result: engine.Result{"additional_context": "once"}}},
		event: "before_tool_call", payload: fx("PreToolUse.Bash"),
		want: want{event: "PreToolUse", context: "once", order: []string{"h"}},
	})
	run(t, rows)
}
