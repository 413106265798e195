// Package ostest holds the operating-system helpers tests share: making a
// FIFO, asking whether a process still runs. Each has a file per platform,
// so tests that use them compile everywhere and skip, with the reason,
// where the platform has no such thing.
package ostest
