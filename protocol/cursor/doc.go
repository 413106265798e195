// Package cursor is Cursor's hook protocol: camelCase events, shell and
// file reads as events of their own (beforeShellExecution is PreToolUse
// on the shell tool), and a flat permission reply that must always be
// printed on the gates (empty output blocks there).
package cursor
