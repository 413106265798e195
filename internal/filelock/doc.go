// Package filelock is the cross-process lock the file-backed stores share
// (the kv store and the JSON Lines log): flock(2) where the system has it,
// shared or exclusive; elsewhere a lock file created with O_EXCL, always
// exclusive, with stale files of crashed holders removed.
package filelock
