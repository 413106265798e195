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
//
// The path of one fire, in fire.go: Fire finds the event in the current
// snapshot (an immutable view of the registry, swapped atomically by
// Register and Load) and returns at once when it has no hooks; otherwise a
// firing carries the fire's context, snapshot, event and outcome through
// its phases: the chain (admit checks switch, matcher and condition;
// execute runs the handler with its timeout and error policy; the merger
// folds the result in, one function per merge rule in merge.go), then the
// void or observe hooks (runParallel), then the background queue. Close
// waits for the fires in progress (drain) and the background queue.
//
// Decisions are typed (Decision, with the catalog's values as constants),
// and so are trace phases (Phase) and skip codes (SkipCode). Middleware
// (WithMiddleware) wraps every hook's handler once, at registration. An
// Observer (WithObserver) is told when a fire starts and ends and when each
// hook that ran is done, background hooks included; it can put values (a
// trace span) in the fire's context. Without one, a fire pays one nil
// check per call site.
// Typed and On give Go hooks a typed payload (ToolPayload, PromptPayload,
// StopPayload or a struct of your own). Background hooks keep the values
// of the context of the fire that queued them, not its cancellation.
package engine
