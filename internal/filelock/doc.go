// Package filelock is the cross-process lock the file-backed stores share
// (the kv store and the JSON Lines log): a lock the system releases when
// its holder's file is closed, so a holder that crashes or is killed
// leaves no lock behind. flock(2) on Unix systems (Linux, macOS, the BSDs,
// illumos and Solaris), shared or exclusive; LockFileEx on Windows, always
// exclusive. Elsewhere (AIX, Plan 9, WebAssembly) Lock refuses with
// ErrNoLocks rather than fall back to a lock file, whose stale-file
// removal cannot keep two holders out.
package filelock
