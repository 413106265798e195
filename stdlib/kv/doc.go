// Package kv is a small key-value store for hook state: counters, flags and
// small records that hooks keep between events, such as how many times a
// session was blocked or whether a project was already checked today.
//
// Hooks run both inside the long-lived hookctl server and inside the
// short-lived hookctl processes that Claude Code spawns once per hook
// event, so state must survive across processes. Two stores implement the
// Store interface with identical semantics:
//
//   - Memory keeps state in the process. It suits the server and tests.
//   - File keeps state in one JSON file (DefaultPath by default) shared by
//     every process that opens it. Every operation locks a sibling lock
//     file, reads the file, applies the change and atomically replaces the
//     file, so concurrent processes never lose an update.
//
// Values are JSON values. Keys may expire: every write takes a TTL (0 for
// none) and an expired key is indistinguishable from a missing one. Incr
// and CompareAndSwap are atomic read-modify-write operations, within a
// process for Memory and across processes for File.
//
// Hooks address state by scope: Scoped(store, SessionScope(id)) sees only
// one session's keys, ProjectScope(dir) one project's and GlobalScope
// everything shared. LoopStore adapts a Store to the engine's Stop loop
// guard, which keeps its per-session block count in it.
//
// Both stores, every scoped view and the LoopStore adapter are safe for
// concurrent use; the package has no global mutable state.
package kv
