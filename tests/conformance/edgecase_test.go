package conformance_test

import (
	"context"
	"testing"

	"github.com/hookctl/hookctl/engine"
)

// edgeCase is a row for a rule the references spell out in detail and an
// engine easily gets wrong; each one failed once, so each stays as a
// regression test. observed records the wrong behaviour it guards against.
type edgeCase struct {
	row
	observed string
}

// TestReferenceEdgeCases checks the finer points of the references: reason
// pairing in OpenClaw's before_agent_finalize, invalid gate outcomes,
// frozen params after requireApproval, camelCase matcher fields, sync hooks
// without a timer, fields an event ignores and the narrower matcher syntax
// of StopFailure and FileChanged.
func TestReferenceEdgeCases(t *testing.T) {
	for _, d := range edgeCases() {
		t.Run(d.rule, func(t *testing.T) {
			if d.observed == "" {
				t.Fatal("an edge case must say what it guards against")
			}
			runRow(t, d.row)
		})
	}
}

func edgeCases() []edgeCase {
	const finalize = "before_agent_finalize"
	return []edgeCase{
		{
			row: row{
				rule: "OpenClaw before_agent_finalize: the first finalize sticks, earlier revise reasons are not joined to it", cite: ocCatalog + " before_agent_finalize",
				hooks: []hk{
					res("tests", finalize, 2, engine.Result{"action": "revise", "reason": "fix tests"}),
					res("ship", finalize, 1, engine.Result{"action": "finalize", "reason": "ship it"}),
				},
				event: finalize, payload: ocFinalize(),
				want: want{decision: "finalize", reason: "ship it", output: map[string]any{"action": "finalize", "reason": "ship it"}},
			},
			observed: `reason is "fix tests\n\nship it": the catalog merges before_agent_finalize "reason" with concat for every action`,
		},
		{
			row: row{
				rule: "OpenClaw before_agent_finalize: after the first finalize, later revise reasons are dropped", cite: ocCatalog + " before_agent_finalize",
				hooks: []hk{
					res("ship", finalize, 2, engine.Result{"action": "finalize", "reason": "ship it"}),
					res("tests", finalize, 1, engine.Result{"action": "revise", "reason": "more tests"}),
				},
				event: finalize, payload: ocFinalize(),
				want: want{decision: "finalize", reason: "ship it", output: map[string]any{"action": "finalize", "reason": "ship it"}},
			},
			observed: `reason is "ship it\n\nmore tests"`,
		},
		{
			row: row{
				rule: "OpenClaw before_agent_finalize: revise beats continue, the continue reason is dropped", cite: ocCatalog + " before_agent_finalize (revise beats continue; only revise+revise joins reasons)",
				hooks: []hk{
					res("ok", finalize, 2, engine.Result{"action": "continue", "reason": "looks fine"}),
					res("tests", finalize, 1, engine.Result{"action": "revise", "reason": "fix tests"}),
				},
				event: finalize, payload: ocFinalize(),
				want: want{decision: "revise", reason: "fix tests", output: map[string]any{"action": "revise", "reason": "fix tests"}},
			},
			observed: `reason is "looks fine\n\nfix tests"`,
		},
		{
			row: row{
				rule: "OpenClaw before_agent_run: an unknown outcome is an invalid decision and blocks", cite: ocCatalog + " before_agent_run (null or an unknown outcome => block)",
				hooks: []hk{gofn("confused", "before_agent_run", 1, returning(engine.Result{"outcome": "maybe"})), res("pass", "before_agent_run", 0, engine.Result{"outcome": "pass"})},
				event: "before_agent_run", payload: ocAgentRun(),
				want: want{anyDecision: true, reasonHas: "invalid decision", blocked: true, hooks: []tr{stoppedBy("pass", "confused")}},
			},
			observed: `the outcome "maybe" is ignored with a note ("outcome \"maybe\" ignored: want one of block, pass"), the run is not blocked and later hooks run`,
		},
		{
			row: row{
				rule: "OpenClaw before_tool_call: after the first requireApproval, params are frozen (later hooks cannot change what the operator reviews)", cite: ocToolCall,
				hooks: []hk{
					res("rewrite", "before_tool_call", 20, engine.Result{"params": obj("command", "ls -la")}),
					res("approval", "before_tool_call", 10, engine.Result{"requireApproval": obj("title", "run exec?")}),
					res("sneaky", "before_tool_call", 5, engine.Result{"params": obj("command", "rm -rf /")}),
				},
				event: "before_tool_call", payload: ocToolCallPayload(),
				want: want{event: "PreToolUse", decision: "ask", reason: "run exec?", updatedInput: obj("command", "ls -la"),
					output: map[string]any{"params": obj("command", "ls -la"), "require_approval": obj("title", "run exec?")}},
			},
			observed: `params is {"command":"rm -rf /"}: require_approval is merged "first" but params keep chaining after it`,
		},
		{
			row: row{
				rule: "OpenClaw before_tool_call: matcher filters on the canonical tool id (toolName)", cite: ocToolCall + " (matcher pre-filters handlers)",
				hooks: []hk{
					{id: "exec-only", event: "before_tool_call", priority: 1, matcher: "exec", result: engine.Result{"block": true, "block_reason": "no exec"}},
					{id: "read-only", event: "before_tool_call", matcher: "read", result: engine.Result{"params": obj("path", "never")}},
				},
				event: "before_tool_call", payload: ocToolCallPayload(),
				want: want{event: "PreToolUse", decision: "deny", reason: "no exec", blocked: true, output: map[string]any{"block": true, "block_reason": "no exec"},
					hooks: []tr{ran("exec-only"), stoppedBy("read-only", "exec-only")}},
			},
			observed: `both hooks are skipped with "matcher did not match": the PreToolUse matcher reads only tool_name, which OpenClaw's before_tool_call event does not carry (it has toolName)`,
		},
		{
			row: row{
				rule: "OpenClaw reply_payload_sending: reason last-defined", cite: ocCatalog + " reply_payload_sending",
				hooks: []hk{
					res("a", "reply_payload_sending", 2, engine.Result{"reason": "first"}),
					res("b", "reply_payload_sending", 1, engine.Result{"cancel": true, "reason": "second"}),
				},
				event: "reply_payload_sending", payload: obj("payload", obj("text", "hi")),
				want: want{reason: "second", blocked: true, output: map[string]any{"cancel": true, "reason": "second"}},
			},
			observed: `reason is "first": without a decision the engine keeps the first reason (reply_payload_sending has no merge rule for "reason")`,
		},
		{
			row: row{
				rule: "OpenClaw tool_result_persist: sync hooks cannot be timed out (no per-hook timer)", cite: "openclaw-hooks.md §2 Timeouts (sync hooks cannot be timed out); engine.Sync doc",
				hooks: []hk{gofn("redact", "tool_result_persist", 0, func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
					_, hasDeadline := ctx.Deadline()
					return engine.Result{"had_deadline": hasDeadline}, nil
				})},
				event: "tool_result_persist", payload: ocPersist(),
				want: want{output: map[string]any{"had_deadline": false}},
			},
			observed: `the handler's context carries a deadline (the event's or the engine's default timeout): tool_result_persist has no default, so the 60 s fallback timer applies and a slow sync hook is cut off like a modifying one`,
		},
		{
			row: row{
				rule: "Claude Code: continue:false is ignored on TaskCreated", cite: ccEvents + " TaskCreated (continue:false ignored)",
				hooks: []hk{res("halt", "TaskCreated", 1, engine.Result{"continue": false}), res("ctx", "TaskCreated", 0, engine.Result{"additional_context": "noted"})},
				event: "TaskCreated", payload: taskCreated(),
				want: want{context: "noted", hooks: []tr{ran("halt"), ran("ctx")}},
			},
			observed: `continue=false stops the agent (continue=false, blocked=true) and ends the chain: the universal continue rule applies to every modifying event`,
		},
		{
			row: row{
				rule: "Claude Code: PreModelSwitch takes no additional context", cite: ccEvents + " PreModelSwitch (no defer, updatedInput or context)",
				hooks: []hk{res("hint", "PreModelSwitch", 0, engine.Result{"decision": "allow", "additional_context": "cache will be rebuilt"})},
				event: "PreModelSwitch", payload: modelSwitch("claude-opus-4-5"),
				want: want{decision: "allow", output: map[string]any{"additional_context": absent}},
			},
			observed: `additional_context is merged into the outcome like on any modifying event`,
		},
		{
			row: row{
				rule: `Claude Code matcher: on StopFailure only "|" separates names, "," does not`, cite: ccMatcher + " (FileChanged and StopFailure: [A-Za-z0-9_|], only | separates)",
				hooks: []hk{{id: "h", event: "StopFailure", matcher: "rate_limit,overloaded"}},
				event: "StopFailure", payload: obj("session_id", "s", "error", "overloaded"),
				want: want{noOutput: true, hooks: []tr{unmatched("h")}},
			},
			observed: `the hook runs: the general exact-list syntax (| and ,) is used for every event`,
		},
		{
			row: row{
				rule: `Claude Code matcher: on FileChanged only "|" separates base names, "," does not`, cite: ccMatcher + " (FileChanged and StopFailure: [A-Za-z0-9_|], only | separates)",
				hooks: []hk{{id: "h", event: "FileChanged", matcher: "Makefile,Dockerfile"}},
				event: "FileChanged", payload: obj("session_id", "s", "file_path", "/tmp/hookctl-run/project/Dockerfile", "event", "change"),
				want: want{hooks: []tr{unmatched("h")}},
			},
			observed: `the hook runs: "Makefile,Dockerfile" is read as a two-name list`,
		},
		{
			row: row{
				rule: `Claude Code matcher: FileChanged names are literal base names (".env" is not a regex)`, cite: ccEvents + " FileChanged (literal basenames split on |; the matcher is also the watch list)",
				hooks: []hk{{id: "h", event: "FileChanged", matcher: ".env|.envrc"}},
				event: "FileChanged", payload: obj("session_id", "s", "file_path", "/tmp/hookctl-run/project/dotenv", "event", "change"),
				want: want{hooks: []tr{unmatched("h")}},
			},
			observed: `the hook runs for "dotenv": ".env|.envrc" contains '.', so it is compiled as an unanchored regex (".env" matches "tenv")`,
		},
	}
}
