package conformance_test

import (
	"context"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
)

// Citations into reference/openclaw-hooks.md.
const (
	ocCatalog  = "openclaw-hooks.md §1"
	ocToolCall = "openclaw-hooks.md §1.1"
	ocOrder    = "openclaw-hooks.md §2 Ordering"
	ocErrors   = "openclaw-hooks.md §2 Errors"
	ocTimeouts = "openclaw-hooks.md §2 Timeouts"
	ocNull     = "openclaw-hooks.md §2 Null/undefined results"
)

// OpenClaw event payloads, shaped after the "Event (key fields)" column of
// openclaw-hooks.md §1.
func ocModelResolve() map[string]any {
	return obj("prompt", "summarise the thread", "attachments", list(obj("kind", "image", "mimeType", "image/png")))
}

func ocPromptBuild() map[string]any {
	return obj("prompt", "summarise the thread", "messages", list(obj("role", "user", "content", "hi")))
}

func ocSending() map[string]any {
	return obj("to", "telegram:4242", "content", "hello there", "replyToId", "m-1")
}

func ocToolCallPayload() map[string]any {
	return obj("toolName", "exec", "params", obj("command", "ls"), "runId", "run-1", "toolCallId", "call-1")
}

func ocInstall() map[string]any {
	return obj("targetType", "skill", "targetName", "pdf-tools", "sourcePath", "/tmp/hookctl-run/skills/pdf-tools",
		"request", obj("source", "clawhub"), "builtinScan", obj("findings", list()))
}

func ocFinalize() map[string]any {
	return obj("sessionId", "sess-1", "turnId", "turn-3", "stopHookActive", false, "lastAssistantMessage", "All done.")
}

func ocAgentRun() map[string]any {
	return obj("prompt", "deploy to prod", "messages", list(), "senderId", "u-7", "senderIsOwner", false)
}

func ocPersist() map[string]any {
	return obj("toolName", "exec", "toolCallId", "call-1", "message", obj("role", "tool", "content", "token=abc123"))
}

// TestOpenClawPriority checks the ordering of modifying hooks.
func TestOpenClawPriority(t *testing.T) {
	order := func(event string) []hk {
		var hs []hk
		for _, h := range []struct {
			id string
			p  int
		}{{"a", 0}, {"b", 5}, {"c", -3}, {"d", 5}, {"e", 0}, {"f", -3}, {"g", 100}} {
			hs = append(hs, hk{id: h.id, event: event, priority: h.p, fn: recordOrder})
		}
		return hs
	}
	wantOrder := []string{"g", "b", "d", "a", "e", "c", "f"}
	run(t, []row{
		{
			rule: "OpenClaw: higher priority runs first, ties keep registration order, negative allowed (before_prompt_build)", cite: ocOrder,
			hooks: order("before_prompt_build"), event: "before_prompt_build", payload: ocPromptBuild(),
			want: want{order: wantOrder, state: map[string]any{"order": list("g", "b", "d", "a", "e", "c", "f")}},
		},
		{
			rule: "OpenClaw: the same ordering on a gate (message_sending)", cite: ocOrder,
			hooks: order("message_sending"), event: "message_sending", payload: ocSending(),
			want: want{order: wantOrder, state: map[string]any{"order": list("g", "b", "d", "a", "e", "c", "f")}},
		},
		{
			rule: "SPEC: the same ordering on a Claude Code event (PreToolUse)", cite: specStrat + " (modifying: highest priority first, ties keep declaration order)",
			hooks: order("PreToolUse"), event: "PreToolUse", payload: fx("PreToolUse.Bash"),
			want: want{order: wantOrder, state: map[string]any{"order": list("g", "b", "d", "a", "e", "c", "f")}},
		},
	})
}

// TestOpenClawMergeRules checks the per-hook merge rules of the typed
// hooks.
func TestOpenClawMergeRules(t *testing.T) {
	const (
		resolve = "before_model_resolve"
		build   = "before_prompt_build"
	)
	run(t, []row{
		// before_model_resolve
		{
			rule: "OpenClaw before_model_resolve: model_override first-defined, higher priority wins even when registered later", cite: ocCatalog + " before_model_resolve",
			hooks: []hk{res("low", resolve, 1, engine.Result{"model_override": "gpt-mini"}), res("high", resolve, 10, engine.Result{"model_override": "claude-opus-4-5"})},
			event: resolve, payload: ocModelResolve(),
			want: want{output: map[string]any{"model_override": "claude-opus-4-5"}, hooks: []tr{ran("high"), ran("low")}},
		},
		{
			rule: "OpenClaw before_model_resolve: model_override and provider_override are first-defined independently", cite: ocCatalog + " before_model_resolve",
			hooks: []hk{
				res("provider", resolve, 10, engine.Result{"providerOverride": "anthropic"}),
				res("both", resolve, 5, engine.Result{"modelOverride": "claude-sonnet-4-5", "providerOverride": "openai"}),
				res("model", resolve, 1, engine.Result{"model_override": "gpt-mini"}),
			},
			event: resolve, payload: ocModelResolve(),
			want: want{output: map[string]any{"model_override": "claude-sonnet-4-5", "provider_override": "anthropic"}},
		},
		{
			rule: "OpenClaw before_model_resolve: an undefined (null) override is not a defined value", cite: ocCatalog + " before_model_resolve (first-defined)",
			hooks: []hk{res("null", resolve, 10, engine.Result{"model_override": nil}), res("real", resolve, 1, engine.Result{"model_override": "claude-haiku-4-5"})},
			event: resolve, payload: ocModelResolve(),
			want: want{output: map[string]any{"model_override": "claude-haiku-4-5"}},
		},
		// before_prompt_build
		{
			rule: "OpenClaw before_prompt_build: system_prompt first-defined, higher priority wins (PR #51763)", cite: ocCatalog + " before_prompt_build",
			hooks: []hk{res("low", build, 1, engine.Result{"system_prompt": "low"}), res("high", build, 9, engine.Result{"systemPrompt": "high"})},
			event: build, payload: ocPromptBuild(),
			want: want{output: map[string]any{"system_prompt": "high"}},
		},
		{
			rule: "OpenClaw before_prompt_build: prepend/append context concatenated with \\n\\n in priority order", cite: ocCatalog + " before_prompt_build",
			hooks: []hk{
				res("a", build, 2, engine.Result{"prepend_context": "P1", "append_context": "A1"}),
				res("b", build, 1, engine.Result{"prependContext": "P2", "appendContext": "A2"}),
				res("c", build, 0, engine.Result{"prepend_context": "P3"}),
			},
			event: build, payload: ocPromptBuild(),
			want: want{output: map[string]any{"prepend_context": "P1\n\nP2\n\nP3", "append_context": "A1\n\nA2"}},
		},
		{
			rule: "OpenClaw before_prompt_build: prepend/append system context concatenated with \\n\\n", cite: ocCatalog + " before_prompt_build",
			hooks: []hk{
				res("a", build, 1, engine.Result{"prepend_system_context": "S1", "append_system_context": "E1"}),
				res("b", build, 0, engine.Result{"prependSystemContext": "S2", "appendSystemContext": "E2"}),
			},
			event: build, payload: ocPromptBuild(),
			want: want{output: map[string]any{"prepend_system_context": "S1\n\nS2", "append_system_context": "E1\n\nE2"}},
		},
		{
			rule: "OpenClaw before_prompt_build: tools_allow lists are intersected (most restrictive)", cite: ocCatalog + " before_prompt_build",
			hooks: []hk{
				res("a", build, 2, engine.Result{"tools_allow": list("read", "write", "exec")}),
				res("b", build, 1, engine.Result{"toolsAllow": []string{"grep", "read", "exec"}}),
			},
			event: build, payload: ocPromptBuild(),
			want: want{output: map[string]any{"tools_allow": list("read", "exec")}},
		},
		{
			rule: `OpenClaw before_prompt_build: "*" is the identity of the tools_allow intersection`, cite: ocCatalog + " before_prompt_build",
			hooks: []hk{
				res("a", build, 3, engine.Result{"tools_allow": list("*")}),
				res("b", build, 2, engine.Result{"tools_allow": list("read", "write")}),
				res("c", build, 1, engine.Result{"tools_allow": list("*")}),
			},
			event: build, payload: ocPromptBuild(),
			want: want{output: map[string]any{"tools_allow": list("read", "write")}},
		},
		{
			rule: `OpenClaw before_prompt_build: "*" alone allows everything`, cite: ocCatalog + " before_prompt_build",
			hooks: []hk{res("a", build, 0, engine.Result{"tools_allow": list("*")})},
			event: build, payload: ocPromptBuild(),
			want: want{output: map[string]any{"tools_allow": list("*")}},
		},
		{
			rule: "OpenClaw before_prompt_build: a non-list tools_allow denies all", cite: ocCatalog + " before_prompt_build",
			hooks: []hk{res("a", build, 1, engine.Result{"tools_allow": list("read")}), res("bad", build, 0, engine.Result{"tools_allow": "read"})},
			event: build, payload: ocPromptBuild(),
			want: want{output: map[string]any{"tools_allow": list()}, hooks: []tr{{id: "bad", status: engine.StatusDecided, note: "tools_allow"}}},
		},
		{
			rule: "OpenClaw before_prompt_build: a non-string tools_allow entry denies all, and deny-all sticks", cite: ocCatalog + " before_prompt_build",
			hooks: []hk{
				res("bad", build, 2, engine.Result{"tools_allow": list("read", 42.0)}),
				res("a", build, 1, engine.Result{"tools_allow": list("read")}),
				res("star", build, 0, engine.Result{"tools_allow": list("*")}),
			},
			event: build, payload: ocPromptBuild(),
			want: want{output: map[string]any{"tools_allow": list()}},
		},
		{
			rule: "OpenClaw agent_turn_prepare / heartbeat_prompt_contribution: context concatenated with \\n\\n", cite: ocCatalog + " agent_turn_prepare, heartbeat_prompt_contribution",
			hooks: []hk{
				res("a", "agent_turn_prepare", 1, engine.Result{"prepend_context": "memory: likes tea"}),
				res("b", "agent_turn_prepare", 0, engine.Result{"prepend_context": "calendar: free at 3"}),
			},
			event: "agent_turn_prepare", payload: obj("injections", list()),
			want: want{output: map[string]any{"prepend_context": "memory: likes tea\n\ncalendar: free at 3"}},
		},
		// resolve_exec_env
		{
			rule: "OpenClaw resolve_exec_env: env shallow-merged, later (lower priority) keys win", cite: ocCatalog + " resolve_exec_env",
			hooks: []hk{
				res("a", "resolve_exec_env", 2, engine.Result{"env": obj("A", "1", "B", "1")}),
				res("b", "resolve_exec_env", 1, engine.Result{"env": obj("B", "2", "C", "2")}),
				res("c", "resolve_exec_env", 0, engine.Result{"env": obj("C", "3")}),
			},
			event: "resolve_exec_env", payload: obj("sessionKey", "agent:main", "toolName", "exec", "host", "local"),
			want: want{output: map[string]any{"env": obj("A", "1", "B", "2", "C", "3")}},
		},
		// subagent hooks
		{
			rule: "OpenClaw subagent_spawning: status error sticky, thread_binding_ready ORed", cite: ocCatalog + " subagent_spawning",
			hooks: []hk{
				res("a", "subagent_spawning", 2, engine.Result{"status": "ok", "thread_binding_ready": false}),
				res("b", "subagent_spawning", 1, engine.Result{"status": "error", "threadBindingReady": true}),
				res("c", "subagent_spawning", 0, engine.Result{"status": "ok", "thread_binding_ready": false}),
			},
			event: "subagent_spawning", payload: obj("childSessionKey", "agent:child", "agentId", "helper", "mode", "run", "threadRequested", true),
			want: want{output: map[string]any{"status": "error", "thread_binding_ready": true}},
		},
		{
			rule: "OpenClaw subagent_delivery_target: the first result carrying origin wins", cite: ocCatalog + " subagent_delivery_target",
			hooks: []hk{
				res("none", "subagent_delivery_target", 3, engine.Result{"note": "no origin"}),
				res("first", "subagent_delivery_target", 2, engine.Result{"origin": obj("channel", "slack", "to", "C1")}),
				res("second", "subagent_delivery_target", 1, engine.Result{"origin": obj("channel", "telegram", "to", "42")}),
			},
			event: "subagent_delivery_target", payload: obj("childSessionKey", "agent:child", "requesterSessionKey", "agent:main", "expectsCompletionMessage", true),
			want: want{output: map[string]any{"origin": obj("channel", "slack", "to", "C1")}},
		},
	})
}

// TestOpenClawGates checks the sticky terminal block and cancel of the
// gating hooks, and their fail-closed defaults.
func TestOpenClawGates(t *testing.T) {
	const send = "message_sending"
	run(t, []row{
		// message_sending
		{
			rule: "OpenClaw message_sending: cancel is sticky and terminal, content last-defined", cite: ocCatalog + " message_sending",
			hooks: []hk{
				res("rewrite", send, 10, engine.Result{"content": "hello there!"}),
				res("spam-filter", send, 7, engine.Result{"cancel": true, "cancel_reason": "spam"}),
				res("late", send, 5, engine.Result{"content": "never", "cancel": false}),
			},
			event: send, payload: ocSending(),
			want: want{blocked: true, output: map[string]any{"cancel": true, "content": "hello there!", "cancel_reason": "spam"},
				hooks: []tr{ran("rewrite"), ran("spam-filter"), stoppedBy("late", "spam-filter")}},
		},
		{
			rule: "OpenClaw message_sending: content last-defined, a lower priority overrides", cite: ocCatalog + " message_sending",
			hooks: []hk{res("high", send, 10, engine.Result{"content": "ten"}), res("low", send, 5, engine.Result{"content": "five"})},
			event: send, payload: ocSending(),
			want: want{output: map[string]any{"content": "five"}},
		},
		{
			rule: "OpenClaw message_sending: cancel:false is no decision", cite: ocCatalog + " message_sending",
			hooks: []hk{res("no", send, 10, engine.Result{"cancel": false, "content": "ten"}), res("low", send, 5, engine.Result{"content": "five"})},
			event: send, payload: ocSending(),
			want: want{output: map[string]any{"content": "five"}, hooks: []tr{ran("no"), ran("low")}},
		},
		{
			rule: "OpenClaw message_sending: cancel_reason last-defined", cite: ocCatalog + " message_sending",
			hooks: []hk{res("a", send, 10, engine.Result{"cancel_reason": "a"}), res("b", send, 5, engine.Result{"cancel": true, "cancelReason": "b"})},
			event: send, payload: ocSending(),
			want: want{blocked: true, output: map[string]any{"cancel": true, "cancel_reason": "b"}},
		},
		{
			rule: "OpenClaw message_sending: an earlier cancel_reason stays when the canceller gives none", cite: ocCatalog + " message_sending (last-defined)",
			hooks: []hk{res("a", send, 10, engine.Result{"cancel_reason": "a"}), res("b", send, 5, engine.Result{"cancel": true})},
			event: send, payload: ocSending(),
			want: want{blocked: true, output: map[string]any{"cancel": true, "cancel_reason": "a"}},
		},
		{
			rule: "OpenClaw message_sending: metadata is next ?? acc (last-defined)", cite: ocCatalog + " message_sending",
			hooks: []hk{res("a", send, 10, engine.Result{"metadata": obj("a", "1")}), res("none", send, 7, nil), res("b", send, 5, engine.Result{"metadata": obj("b", "2")})},
			event: send, payload: ocSending(),
			want: want{output: map[string]any{"metadata": obj("b", "2")}, hooks: []tr{ranEmpty("none")}},
		},
		// before_tool_call
		{
			rule: "OpenClaw before_tool_call: block sticky and terminal, lower priorities are not called", cite: ocToolCall,
			hooks: []hk{
				res("rewrite", "before_tool_call", 10, engine.Result{"params": obj("command", "ls -la")}),
				res("firewall", "before_tool_call", 5, engine.Result{"block": true, "blockReason": "exec is not allowed"}),
				res("late", "before_tool_call", 1, engine.Result{"block": false, "params": obj("command", "whoami")}),
			},
			event: "before_tool_call", payload: ocToolCallPayload(),
			want: want{event: "PreToolUse", decision: "deny", reason: "exec is not allowed", blocked: true, updatedInput: obj("command", "ls -la"),
				output: map[string]any{"block": true, "block_reason": "exec is not allowed", "params": obj("command", "ls -la")},
				hooks:  []tr{ran("rewrite"), ran("firewall"), stoppedBy("late", "firewall")}},
		},
		{
			rule: "OpenClaw before_tool_call: block:false is no decision", cite: ocToolCall,
			hooks: []hk{res("no", "before_tool_call", 10, engine.Result{"block": false}), res("ctx", "before_tool_call", 1, engine.Result{"params": obj("command", "ls")})},
			event: "before_tool_call", payload: ocToolCallPayload(),
			want: want{event: "PreToolUse", updatedInput: obj("command", "ls"), hooks: []tr{ran("no"), ran("ctx")}},
		},
		{
			rule: "OpenClaw before_tool_call: block_reason last-defined", cite: ocToolCall,
			hooks: []hk{res("a", "before_tool_call", 10, engine.Result{"block_reason": "first"}), res("b", "before_tool_call", 5, engine.Result{"block": true, "block_reason": "second"})},
			event: "before_tool_call", payload: ocToolCallPayload(),
			want: want{event: "PreToolUse", decision: "deny", reason: "second", blocked: true, output: map[string]any{"block": true, "block_reason": "second"}},
		},
		{
			rule: "OpenClaw before_tool_call: params last-defined, a lower priority can rewrite them (chained)", cite: ocToolCall,
			hooks: []hk{
				res("high", "before_tool_call", 10, engine.Result{"params": obj("command", "ls")}),
				gofn("low", "before_tool_call", 1, func(_ context.Context, c *engine.Call) (engine.Result, error) {
					p := c.Payload["params"].(map[string]any)
					return engine.Result{"params": obj("command", p["command"].(string)+" -la")}, nil
				}),
			},
			event: "before_tool_call", payload: ocToolCallPayload(),
			want: want{event: "PreToolUse", updatedInput: obj("command", "ls -la"), output: map[string]any{"params": obj("command", "ls -la")}},
		},
		{
			rule: "OpenClaw before_tool_call: the first requireApproval wins", cite: ocToolCall,
			hooks: []hk{
				res("a", "before_tool_call", 10, engine.Result{"requireApproval": obj("title", "run exec?", "severity", "high")}),
				res("b", "before_tool_call", 5, engine.Result{"require_approval": obj("title", "second")}),
			},
			event: "before_tool_call", payload: ocToolCallPayload(),
			want: want{event: "PreToolUse", decision: "ask", reason: "run exec?", output: map[string]any{"require_approval": obj("title", "run exec?", "severity", "high")}},
		},
		// before_install
		{
			rule: "OpenClaw before_install: findings appended in priority order, block sticky and terminal", cite: ocCatalog + " before_install",
			hooks: []hk{
				res("a", "before_install", 3, engine.Result{"findings": list("f1")}),
				res("b", "before_install", 2, engine.Result{"findings": list("f2", "f3"), "block": true, "blockReason": "malware"}),
				res("c", "before_install", 1, engine.Result{"findings": list("f4")}),
			},
			event: "before_install", payload: ocInstall(),
			want: want{blocked: true, output: map[string]any{"findings": list("f1", "f2", "f3"), "block": true, "block_reason": "malware"},
				hooks: []tr{ran("a"), ran("b"), stoppedBy("c", "b")}},
		},
		{
			rule: "OpenClaw before_install: findings of every hook when nobody blocks", cite: ocCatalog + " before_install",
			hooks: []hk{
				res("low", "before_install", -1, engine.Result{"findings": list("low")}),
				res("high", "before_install", 4, engine.Result{"findings": list("high")}),
				res("mid", "before_install", 0, engine.Result{"findings": list("mid-1", "mid-2"), "block": false}),
			},
			event: "before_install", payload: ocInstall(),
			want: want{output: map[string]any{"findings": list("high", "mid-1", "mid-2", "low")}},
		},
		{
			rule: "OpenClaw before_install: fails closed by default", cite: ocCatalog + " before_install (FC); " + ocErrors,
			hooks: []hk{gofn("scanner", "before_install", 1, failing("scanner crashed")), res("after", "before_install", 0, engine.Result{"findings": list("x")})},
			event: "before_install", payload: ocInstall(),
			want: want{decision: "block", reasonHas: `hook "scanner" could not run`, blocked: true,
				hooks: []tr{{id: "scanner", status: engine.StatusError, decision: "block", failClosed: true}, stoppedBy("after", "scanner")}},
		},
		// before_agent_run
		{
			rule: "OpenClaw before_agent_run: fails closed by default on an error", cite: ocCatalog + " before_agent_run (FC); " + ocErrors,
			hooks: []hk{gofn("policy", "before_agent_run", 1, failing("policy store offline")), res("pass", "before_agent_run", 0, engine.Result{"outcome": "pass"})},
			event: "before_agent_run", payload: ocAgentRun(),
			want: want{decision: "block", reasonHas: `hook "policy" could not run`, blocked: true,
				hooks: []tr{{id: "policy", status: engine.StatusError, decision: "block", failClosed: true}, stoppedBy("pass", "policy")}},
		},
		{
			rule: "OpenClaw before_agent_run: a timeout fails closed", cite: ocTimeouts + " (a fail-closed timeout => deny)",
			hooks: []hk{{id: "slow", event: "before_agent_run", timeout: 10 * time.Millisecond, fn: hanging}},
			event: "before_agent_run", payload: ocAgentRun(),
			want: want{decision: "block", reasonHas: "could not run", blocked: true,
				hooks: []tr{{id: "slow", status: engine.StatusTimeout, decision: "block", failClosed: true}}},
		},
		{
			rule: "OpenClaw before_agent_run: the first block is terminal", cite: ocCatalog + " before_agent_run",
			hooks: []hk{
				res("pass", "before_agent_run", 2, engine.Result{"outcome": "pass"}),
				res("owner-only", "before_agent_run", 1, engine.Result{"outcome": "block", "reason": "only the owner may deploy", "category": "policy"}),
				res("later", "before_agent_run", 0, engine.Result{"outcome": "block", "reason": "second"}),
			},
			event: "before_agent_run", payload: ocAgentRun(),
			want: want{decision: "block", reason: "only the owner may deploy", blocked: true, output: map[string]any{"outcome": "block", "category": "policy"},
				hooks: []tr{ran("pass"), ran("owner-only"), stoppedBy("later", "owner-only")}},
		},
		{
			rule: "OpenClaw before_agent_run: void counts as pass", cite: ocCatalog + " before_agent_run",
			hooks: []hk{res("void", "before_agent_run", 1, nil), res("pass", "before_agent_run", 0, engine.Result{"outcome": "pass"})},
			event: "before_agent_run", payload: ocAgentRun(),
			want: want{decision: "pass", output: map[string]any{"outcome": "pass"}, hooks: []tr{ranEmpty("void"), ran("pass")}},
		},
		// before_agent_finalize
		{
			rule: "OpenClaw before_agent_finalize: revise beats continue", cite: ocCatalog + " before_agent_finalize",
			hooks: []hk{res("ok", "before_agent_finalize", 2, engine.Result{"action": "continue"}), res("tests", "before_agent_finalize", 1, engine.Result{"action": "revise", "reason": "fix tests"})},
			event: "before_agent_finalize", payload: ocFinalize(),
			want: want{decision: "revise", reason: "fix tests", output: map[string]any{"action": "revise"}},
		},
		{
			rule: "OpenClaw before_agent_finalize: revise + revise joins reasons with \\n\\n, the first retry is used", cite: ocCatalog + " before_agent_finalize",
			hooks: []hk{
				res("tests", "before_agent_finalize", 2, engine.Result{"action": "revise", "reason": "fix tests", "retry": obj("instruction", "run go test")}),
				res("docs", "before_agent_finalize", 1, engine.Result{"action": "revise", "reason": "add docs", "retry": obj("instruction", "update README")}),
			},
			event: "before_agent_finalize", payload: ocFinalize(),
			want: want{decision: "revise", reason: "fix tests\n\nadd docs", output: map[string]any{"action": "revise", "retry": obj("instruction", "run go test")}},
		},
		{
			rule: "OpenClaw before_agent_finalize: finalize > revise > continue", cite: ocCatalog + " before_agent_finalize",
			hooks: []hk{
				res("tests", "before_agent_finalize", 3, engine.Result{"action": "revise"}),
				res("ship", "before_agent_finalize", 2, engine.Result{"action": "finalize", "reason": "ship it"}),
				res("ok", "before_agent_finalize", 1, engine.Result{"action": "continue"}),
			},
			event: "before_agent_finalize", payload: ocFinalize(),
			want: want{decision: "finalize", reason: "ship it", output: map[string]any{"action": "finalize"}},
		},
		{
			rule: "OpenClaw before_agent_finalize: the first finalize sticks", cite: ocCatalog + " before_agent_finalize",
			hooks: []hk{
				res("ship", "before_agent_finalize", 2, engine.Result{"action": "finalize", "reason": "ship it"}),
				res("tests", "before_agent_finalize", 1, engine.Result{"action": "revise"}),
				res("ok", "before_agent_finalize", 0, engine.Result{"action": "continue"}),
			},
			event: "before_agent_finalize", payload: ocFinalize(),
			want: want{decision: "finalize", reason: "ship it", output: map[string]any{"action": "finalize"}},
		},
		{
			rule: "OpenClaw before_agent_finalize: a timeout lets the original answer go out", cite: ocCatalog + " before_agent_finalize (timeout => the original answer goes out)",
			hooks: []hk{{id: "slow", event: "before_agent_finalize", timeout: 10 * time.Millisecond, fn: hanging}},
			event: "before_agent_finalize", payload: ocFinalize(),
			want: want{output: map[string]any{"action": absent}, hooks: []tr{{id: "slow", status: engine.StatusTimeout}}},
		},
	})
}

// TestOpenClawClaimSyncVoid checks claim hooks, sync hooks and observe
// (void) hooks.
func TestOpenClawClaimSyncVoid(t *testing.T) {
	claim := func(event string, extra engine.Result) row {
		r := engine.Result{"handled": true}
		for k, v := range extra {
			r[k] = v
		}
		return row{
			rule: "OpenClaw " + event + ": the first handled:true wins, it is not a block", cite: ocCatalog + " " + event + " (Claim)",
			hooks: []hk{
				res("decline", event, 3, engine.Result{"handled": false}),
				res("claim", event, 2, r),
				res("late", event, 1, engine.Result{"handled": true, "reply": "late"}),
			},
			event: event, payload: obj("content", "/status", "channel", "telegram", "senderId", "u-1"),
			want: want{output: map[string]any{"handled": true},
				hooks: []tr{ran("decline"), ran("claim"), stoppedBy("late", "claim")}},
		}
	}
	persist := "tool_result_persist"
	write := "before_message_write"
	run(t, []row{
		claim("inbound_claim", engine.Result{"reply": "mine"}),
		claim("before_agent_reply", engine.Result{"reply": "cached answer"}),
		claim("before_dispatch", engine.Result{"text": "handled by plugin"}),
		{
			rule: "OpenClaw inbound_claim: nobody claims, nothing is blocked", cite: ocCatalog + " inbound_claim (Claim)",
			hooks: []hk{res("a", "inbound_claim", 1, engine.Result{"handled": false}), res("b", "inbound_claim", 0, engine.Result{"handled": false})},
			event: "inbound_claim", payload: obj("content", "hello", "channel", "telegram"),
			want: want{output: map[string]any{"handled": false}, hooks: []tr{ran("a"), ran("b")}},
		},
		{
			rule: "OpenClaw tool_result_persist: message chained, each handler sees the latest one", cite: ocCatalog + " tool_result_persist (Sync)",
			hooks: []hk{
				gofn("redact", persist, 2, func(_ context.Context, c *engine.Call) (engine.Result, error) {
					return engine.Result{"message": obj("role", "tool", "content", "token=***")}, nil
				}),
				gofn("tag", persist, 1, func(_ context.Context, c *engine.Call) (engine.Result, error) {
					m := c.Payload["message"].(map[string]any)
					return engine.Result{"message": obj("role", m["role"], "content", m["content"].(string)+" [checked]")}, nil
				}),
			},
			event: persist, payload: ocPersist(),
			want: want{output: map[string]any{"message": obj("role", "tool", "content", "token=*** [checked]")}},
		},
		{
			rule: "OpenClaw before_message_write: message chained", cite: ocCatalog + " before_message_write (Sync gate)",
			hooks: []hk{
				res("rewrite", write, 2, engine.Result{"message": obj("role", "assistant", "content", "hi (edited)")}),
				gofn("probe", write, 1, see("message.content", nil)),
			},
			event: write, payload: obj("message", obj("role", "assistant", "content", "hi"), "sessionKey", "agent:main"),
			want: want{output: map[string]any{"message": obj("role", "assistant", "content", "hi (edited)"), "seen_probe": "hi (edited)"}},
		},
		{
			rule: "OpenClaw before_message_write: block returns immediately", cite: ocCatalog + " before_message_write (Sync gate)",
			hooks: []hk{
				res("rewrite", write, 2, engine.Result{"message": obj("role", "assistant", "content", "hi (edited)")}),
				res("guard", write, 1, engine.Result{"block": true}),
				res("late", write, 0, engine.Result{"message": obj("role", "assistant", "content", "never")}),
			},
			event: write, payload: obj("message", obj("role", "assistant", "content", "hi"), "sessionKey", "agent:main"),
			want: want{blocked: true, output: map[string]any{"block": true, "message": obj("role", "assistant", "content", "hi (edited)")},
				hooks: []tr{ran("rewrite"), ran("guard"), stoppedBy("late", "guard")}},
		},
		{
			rule: "OpenClaw reply_payload_sending: payload chained, cancel sticky and terminal", cite: ocCatalog + " reply_payload_sending",
			hooks: []hk{
				res("rewrite", "reply_payload_sending", 2, engine.Result{"payload": obj("text", "hi!")}),
				gofn("probe", "reply_payload_sending", 1, see("payload.text", engine.Result{"cancel": true})),
				res("late", "reply_payload_sending", 0, engine.Result{"payload": obj("text", "never")}),
			},
			event: "reply_payload_sending", payload: obj("payload", obj("text", "hi")),
			want: want{blocked: true, output: map[string]any{"payload": obj("text", "hi!"), "seen_probe": "hi!", "cancel": true},
				hooks: []tr{stoppedBy("late", "probe")}},
		},
		{
			rule: "OpenClaw modify hooks: a null result is skipped", cite: ocNull,
			hooks: []hk{res("null", "before_model_resolve", 1, nil), res("real", "before_model_resolve", 0, engine.Result{"model_override": "m"})},
			event: "before_model_resolve", payload: ocModelResolve(),
			want: want{output: map[string]any{"model_override": "m"}, hooks: []tr{ranEmpty("null"), ran("real")}},
		},
		voidOC("message_received", obj("from", "telegram:4242", "content", "hi", "messageId", "m-1")),
		voidOC("llm_output", obj("runId", "run-1", "sessionId", "sess-1", "provider", "anthropic", "model", "claude-sonnet-4-5", "assistantTexts", list("hello"))),
		voidOC("llm_input", obj("runId", "run-1", "sessionId", "sess-1", "provider", "anthropic", "model", "claude-sonnet-4-5", "prompt", "hi")),
		voidOC("agent_end", obj("runId", "run-1", "messages", list(), "success", true)),
		voidOC("message_sent", obj("to", "telegram:4242", "content", "hi", "success", true)),
		voidOC("model_call_started", obj("runId", "run-1", "callId", "c-1", "provider", "anthropic", "model", "claude-sonnet-4-5")),
	})
}

// voidOC is a row checking that an OpenClaw observe hook's result (even a
// cancel or a block) does not merge.
func voidOC(event string, payload map[string]any) row {
	return row{
		rule: "OpenClaw " + event + " is observe-only, return values are ignored", cite: ocCatalog + " " + event + " (Observe)",
		hooks: []hk{
			res("a", event, 1, engine.Result{"cancel": true, "content": "changed", "block": true}),
			gofn("b", event, 0, returning(engine.Result{"decision": "block", "additional_context": "x"})),
		},
		event: event, payload: payload,
		want: want{noOutput: true, hooks: []tr{
			{id: "a", status: engine.StatusDecided, phase: engine.PhaseVoid},
			{id: "b", status: engine.StatusDecided, phase: engine.PhaseVoid},
		}},
	}
}
