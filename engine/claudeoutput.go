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
	// The top level, each name under its snake_case spelling: the exact
	// names first (decision, reason, continue, stop_reason, ... and Claude
	// Code's own camelCase ones, stopReason, systemMessage,
	// suppressOutput), then any other spelling where its snake_case name
	// is still free (or says nothing), so that a "Decision" never hides
	// the "decision" Claude Code reads; a value that says nothing (null,
	// "") never replaces one that does. Keys are read in name order: an output naming a
	// field twice always gives the same result.
	keys := slices.Sorted(maps.Keys(raw))
	for _, exactPass := range []bool{true, false} {
		for _, k := range keys {
			if k == "hookSpecificOutput" {
				continue
			}
			c, exact := topLevelName(k)
			if exact != exactPass {
				continue
			}
			if cur, set := res[c]; set && (!exact && given(cur) || given(cur) && !given(raw[k])) {
				continue // another spelling, or a value that says nothing
			}
			res[c] = raw[k]
		}
	}
	// hookSpecificOutput's fields over the top-level ones (its decision
	// over the legacy top-level one, as in Claude Code); one that is
	// empty (null, "") is none, and erases nothing.
	if hso, ok := raw["hookSpecificOutput"].(map[string]any); ok {
		for k, v := range specificOutput(hso) {
			if v == nil || v == "" {
				if _, set := res[k]; set {
					continue
				}
			}
			res[k] = v
		}
	}
	if d, ok := res["decision"]; ok {
		res["decision"] = legacyDecision(d)
	}
	return res
}

// legacyDecision is a decision with Claude Code's legacy "approve" read
// as "allow".
func legacyDecision(v any) any {
	if v == "approve" {
		return "allow"
	}
	return v
}

// topLevelName is the snake_case name of a top-level output field, and
// whether k is a name Claude Code's output uses (a snake_case name or
// one of its camelCase ones) rather than another spelling of one.
func topLevelName(k string) (string, bool) {
	switch k {
	case "stopReason":
		return "stop_reason", true
	case "systemMessage":
		return "system_message", true
	case "suppressOutput":
		return "suppress_output", true
	}
	if !hasUpper(k) {
		return k, true
	}
	return jsonx.SnakeCase(k), false
}

// specificOutput reads hookSpecificOutput's fields onto hookctl's names,
// in name order, the names Claude Code uses before other spellings.
func specificOutput(hso map[string]any) Result {
	res := Result{}
	keys := slices.Sorted(maps.Keys(hso))
	for _, exactPass := range []bool{true, false} {
		for _, k := range keys {
			v := hso[k]
			name, exact := "", true
			switch k {
			case "hookEventName":
				continue
			case "permissionDecision":
				name = "decision"
			case "permissionDecisionReason":
				name = "reason"
			case "updatedInput":
				name = "updated_input"
			case "updatedToolOutput", "updatedMCPToolOutput":
				name = "updated_output"
			case "decision":
				if exactPass {
					decisionObject(res, v)
				}
				continue
			default:
				name, exact = topLevelName(k)
			}
			if exact != exactPass {
				continue
			}
			if cur, set := res[name]; set && (!exact && given(cur) || given(cur) && !given(v)) {
				continue // another spelling, or a value that says nothing
			}
			res[name] = v
		}
	}
	return res
}

// decisionObject reads hookSpecificOutput's decision: PermissionRequest's
// { behavior, updatedInput, message, interrupt, updatedPermissions }, or
// a plain value. It is read before the names that sort after it
// (permissionDecision, updatedInput), which win over it.
func decisionObject(res Result, v any) {
	d, ok := v.(map[string]any)
	if !ok {
		res["decision"] = v
		return
	}
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
			if canonicalField(dk) == "decision" || jsonx.SnakeCase(dk) == "decision" {
				continue // the behavior is the decision
			}
			res[jsonx.SnakeCase(dk)] = dv
		}
	}
}
