// Package copilot is GitHub Copilot CLI's hook protocol: camelCase events
// get camelCase fields (toolArgs a JSON document in a string); a
// top-level permissionDecision and modifiedArgs; no exit status blocks.
package copilot
