package stdlib

import _ "embed"

// The events section of hookctl.d.ts comes from the event catalog.
//go:generate go run ../internal/dtsgen/gendts hookctl.d.ts

//go:embed hookctl.d.ts
var typeDeclarations string

// TypeDeclarations returns hookctl.d.ts, the TypeScript declarations of
// hook scripts: every event's payload and result, ctx, the handler type
// and the standard library's modules.
func TypeDeclarations() string { return typeDeclarations }
