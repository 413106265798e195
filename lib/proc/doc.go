// Package proc runs external programs for hooks: an argv (no shell), a
// bounded time, bounded output, and on timeout or cancellation the whole
// process group is killed — the program and every child it forked — rather
// than abandoned. It backs the hookctl/exec JavaScript module, the command
// handler and built-in hooks that shell out.
//
// Run is safe for concurrent use.
package proc
