// Package jsonl is an append-only JSON Lines audit log: one JSON object
// per line, for a record of what hooks saw and decided.
//
// The hookctl server and the short-lived hookctl processes that Claude
// Code spawns for each hook event all append to the same file. A
// long-lived caller opens a Log once and appends many records; a one-shot
// process calls Append, which opens, appends and closes.
//
// Every record gets a "ts" field (RFC 3339, nanoseconds, UTC) unless it
// has one. Options.Redact, typically a secret redactor, is applied to
// every string value, nested ones included, before anything is written.
// Lines are valid JSON and valid UTF-8 whatever the input: invalid bytes
// in strings become U+FFFD.
//
// Concurrency: a Log is safe for concurrent use by goroutines, and any
// number of processes may append to the same path. Each append takes an
// exclusive lock on "<path>.lock" (flock(2) on Unix, an O_EXCL lock file
// elsewhere) and writes its line in one write, so lines from different
// processes never interleave. When a line would make the file exceed
// Options.MaxBytes the file is rotated under the same lock (file ->
// file.1 -> file.2 ... up to Options.MaxBackups, the oldest dropped), so
// every process sees one consistent rotation and no line is lost or split
// by it.
package jsonl
