package engine

import (
	"maps"
	"slices"

	"github.com/hookctl/hookctl/internal/jsonx"
)

// ClaudeOutput maps one decoded Claude Code output object onto hookctl's
// result vocabulary: hookSpecificOutput flattened (its permissionDecision
// or decision over a top-level decision, its reasons over a top-level
// reason), PermissionRequest's decision object read, camelCase names in
// snake_case, legacy "approve" as "allow". protocol/claude reads a
// command hook's stdout with it, after dropping the channels the event
// does not read; a handler's result in those shapes is read the same way
// (WithOutputReader), or by ClaudeOutput alone in an engine built
// without a reader.
func ClaudeOutput(raw map[string]any) Result {
	res := Result{}
	// Keys are read in sorted order, so that an output naming a field
	// twice (permissionDecision and decision.behavior, stopReason and
	// stop_reason, ...) always gives the same result.
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		v := raw[k]
		switch k {
		case "hookSpecificOutput":
			hso, ok := v.(map[string]any)
			if !ok {
				continue
			}
			for _, hk := range slices.Sorted(maps.Keys(hso)) {
				hv := hso[hk]
				switch hk {
				case "hookEventName":
				case "permissionDecision":
					res["decision"] = hv
				case "permissionDecisionReason":
					res["reason"] = hv
				case "updatedInput":
					res["updated_input"] = hv
				case "updatedToolOutput", "updatedMCPToolOutput":
					res["updated_output"] = hv
				case "decision":
					// PermissionRequest: { behavior, updatedInput, message, interrupt, updatedPermissions }
					if d, ok := hv.(map[string]any); ok {
						for _, dk := range slices.Sorted(maps.Keys(d)) {
							dv := d[dk]
							switch dk {
							case "behavior":
								res["decision"] = dv
							case "updatedInput":
								res["updated_input"] = dv
							case "message":
								res["reason"] = dv
								res["message"] = dv
							default:
								res[jsonx.SnakeCase(dk)] = dv
							}
						}
					} else {
						res["decision"] = hv
					}
				default:
					res[jsonx.SnakeCase(hk)] = hv
				}
			}
		case "decision":
			if _, set := res["decision"]; !set {
				res["decision"] = v
			}
		case "reason":
			if _, set := res["reason"]; !set {
				res["reason"] = v
			}
		case "stopReason":
			res["stop_reason"] = v
		default:
			res[jsonx.SnakeCase(k)] = v
		}
	}
	// Legacy top-level decisions.
	if d, ok := res["decision"].(string); ok && d == "approve" {
		res["decision"] = "allow"
	}
	return res
}
