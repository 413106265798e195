// Package opta is the OpenClaw (opta) convention of command hooks: the
// payload on stdin as Claude Code's, the context in OPTA_* variables
// (metadata only: tool arguments without file contents), any non-zero
// exit on a tool call's gate denies it with stderr as the reason, stdout
// is not read. It is a command convention only, not a host hookctl
// answers.
package opta
