// Package engine is hookctl's hook engine: the event catalog, the hook
// registry, dispatch, merge rules and the outcome. It is the API most
// callers import.
//
// An Engine knows events through a data-driven catalog of EventSpecs: every
// Claude Code hook event under its Claude Code name, every OpenClaw typed
// and internal hook (an alias where it is the same point, its own event
// otherwise) and the seed documents' names as aliases. Custom events are
// added with RegisterEvent or through a loaded Config. Firing an unknown
// event is an error, never a silent no-op.
//
// Hooks are registered from Go with Register or as a whole config with
// Load; both are safe while other goroutines Fire, because every fire reads
// one immutable snapshot of the registry behind an atomic pointer.
//
// Fire runs an event's hooks by the event's strategy:
//
//   - modifying: hooks run one after another, highest priority first (ties
//     keep declaration order); each sees the payload as rewritten by the
//     hooks before it and a shared State; results merge field by field by
//     the event's merge rules; a terminal decision (deny, block, cancel)
//     or continue=false stops the chain;
//   - void: hooks only observe and run in parallel, bounded by the
//     engine's ants worker pool (cheap handlers run inline instead);
//   - sync: like modifying, for hot paths.
//
// Hooks may also be observe hooks (run after the chain with the final
// outcome) or background hooks (queued; Fire does not wait; Close drains
// them).
//
// The Outcome carries the merged decision, reason, blocked flag, rewritten
// input, context, every merged field, the chain's state and a trace of every
// hook: decided, ran, skipped (and why), error, timeout or queued.
package engine
