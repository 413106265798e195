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
//   - File keeps state in files (DefaultPath by default) shared by every
//     process that opens them: one small file per key, so an operation
//     costs the same whether the store holds ten keys or ten thousand, and
//     concurrent processes never lose an update.
//
// # File format
//
// A File at path P is three things:
//
//   - P, the manifest: {"version": 2, "layout": "..."}. A missing or empty
//     manifest is an empty store; one with another version, or that is not
//     JSON, fails OpenFile with ErrCorrupt. A version 1 file (the earlier
//     format, one document {"version": 1, "entries": {KEY: {"value": V,
//     "expires": T}}} rewritten whole by every operation) is migrated by
//     the first operation, under the lock file P.lock: every live entry is
//     written to its own file, then the manifest replaces the document.
//   - P.d/BB/, 256 bucket directories, BB the first byte, in hex, of the
//     SHA-256 of the key. Each holds a lock file .lock, a marker .swept
//     whose modification time is the bucket's last sweep, and the files of
//     its keys.
//   - P.d/BB/kHEX, one file per key, HEX the hex of the key's bytes (or
//     hHEX, HEX the SHA-256 of the key, for keys longer than 120 bytes),
//     holding one line {"key": K, "value": V, "expires": T}; expires is an
//     RFC 3339 time, absent for an entry that never expires.
//
// An operation on a key takes the bucket's lock (flock(2), exclusive to
// write, shared to read), reads the key's file and, if it changes the
// entry, writes the new one to a temporary file .tmp-* in the bucket,
// syncs it and renames it over the key's file (or removes the file), then
// syncs the bucket directory. A crash at any point leaves the key's old
// file or its new one, never a mix, and cannot touch any other key; a
// temporary file it leaves behind is removed by a later sweep. The first
// write into a bucket an hour or more after its last sweep removes the
// bucket's expired entries. Keys reads every bucket, each under its shared
// lock.
//
// Every wait for a lock ends when the operation's context ends, and after
// DefaultLockWait (WithLockWait) in any case, with an error matching
// ErrLockWait: a hook never waits past its deadline for a process that
// holds a lock and hangs. Waiters sleep in the kernel rather than poll,
// so hundreds of processes contending for one key take turns at the speed
// of the disk.
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
// A Store kept elsewhere (natsstate keeps one in NATS JetStream) gets the
// same values by storing what Normalize accepts and reading it back with
// DecodeValue, and proves the same semantics by running the conformance
// suite of package kvtest, as Memory and File do.
//
// Both stores, every scoped view and the LoopStore adapter are safe for
// concurrent use; the package has no global mutable state.
package kv
