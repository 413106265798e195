// Package dtsgen writes the events section of the TypeScript declarations
// shipped for hook scripts (stdlib/hookctl.d.ts) from the event catalog
// and package schema (the one description of the payloads, which validate
// checks conditions and scripts against): HookEventBase (the fields every
// event carries), one interface per tool whose input is known (BashInput,
// ...), ToolInputs and ToolInput; for every event a payload interface (its
// hook_event_name, its matcher field and its fields), a result interface (its
// decisions, most restrictive first, and its own result fields with their
// merge rules), and the maps from event names to both that type a
// handler: `(event, ctx) => { ... }) satisfies Handler<"PreToolUse">`.
//
// The section sits between the Begin and End lines of the file; `go
// generate ./stdlib` rewrites it (Splice), and the package's tests fail
// when the file is not what the catalog gives.
package dtsgen
