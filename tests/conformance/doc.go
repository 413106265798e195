// Package conformance holds hookctl's conformance suite: table-driven tests
// that check the engine against the behaviour of the hook systems it is a
// superset of, as written down in SPEC.md and the reference notes
// (reference/claude-code-hooks.md and reference/openclaw-hooks.md).
//
// Every table row names the system rule it checks ("Claude Code:
// PreToolUse deny > defer > ask > allow", "OpenClaw message_sending: cancel
// is sticky and terminal, content last-defined", ...) and cites the
// reference section it comes from. A row declares the hooks to register
// (id, event, priority, matcher, condition, a static result or a small Go
// handler), the events to fire with their payloads, and the outcome
// expected from each fire: decision, reason, blocked, continue, stop
// reason, rewritten input, context, selected merged output fields, and the
// trace of the hooks that ran or were skipped (with the skip reason).
//
// The tables are split by origin:
//
//   - claude_test.go: Claude Code semantics (decision precedence, input
//     rewriting, context, continue=false, top-level block, the Stop loop
//     guard, matchers, void events, error policies, aliases);
//   - openclaw_test.go: OpenClaw typed-hook merge rules (priority order,
//     first/last/concat/intersect/merge/append fields, sticky terminal
//     block and cancel, claim hooks, sync chaining, gates);
//   - cross_test.go: rules shared by both (the empty-string rule, chain
//     stopped skip reasons) and the engine-wide contract of SPEC.md §2-§5;
//   - catalog_test.go: the data-driven catalog (canonical names, aliases,
//     strategy, matcher field, decisions, default timeouts, fail-closed
//     defaults) against both references;
//   - edgecase_test.go: the finer points (reason pairing of
//     before_agent_finalize, invalid gate outcomes, params frozen after
//     requireApproval, camelCase matcher fields, untimed sync hooks, fields
//     an event ignores, the narrower matchers of StopFailure and
//     FileChanged), each guarding against a behaviour an engine easily gets
//     wrong.
//
// Payloads of Claude Code events are the real ones captured from the
// Claude Code CLI (testdata/claude-code, run-specific paths replaced by
// plain strings). Every test is deterministic and fast (timeouts under test
// are a few milliseconds, nothing sleeps), closes its engine and is checked
// for leaked goroutines.
package conformance
