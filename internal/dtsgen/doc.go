// Package dtsgen writes the events section of the TypeScript declarations
// shipped for hook scripts (stdlib/hookctl.d.ts) from the event catalog:
// for every event a payload interface (its hook_event_name, its matcher
// field and the fields Claude Code sends), a result interface (its
// decisions, most restrictive first, and its own result fields with their
// merge rules), and the maps from event names to both that type a
// handler: `(event, ctx) => { ... }) satisfies Handler<"PreToolUse">`.
//
// The section sits between the Begin and End lines of the file; `go
// generate ./stdlib` rewrites it (Splice), and the package's tests fail
// when the file is not what the catalog gives.
package dtsgen
