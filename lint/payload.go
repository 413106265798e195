package lint

import (
	"fmt"
	"slices"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"

	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/suggest"
)

// commonFields are the fields Claude Code sends with every event
// (claude-code-hooks.md §2).
var commonFields = []string{
	"session_id", "transcript_path", "cwd", "hook_event_name", "permission_mode", "prompt_id",
	"agent_id", "agent_type", "effort",
}

// payloadFields are the root fields of the payload of the Claude Code
// events whose payload is known (claude-code-hooks.md §1), besides the
// common ones; "tool" is the canonical tool name the engine adds.
var payloadFields = map[string][]string{
	"PreToolUse":         {"tool", "tool_name", "tool_input", "tool_use_id", "mcp_server"},
	"PermissionRequest":  {"tool", "tool_name", "tool_input", "permission_suggestions"},
	"PermissionDenied":   {"tool", "tool_name", "tool_input", "tool_use_id", "reason"},
	"PostToolUse":        {"tool", "tool_name", "tool_input", "tool_response", "tool_use_id", "duration_ms"},
	"PostToolUseFailure": {"tool", "tool_name", "tool_input", "tool_use_id", "error", "is_interrupt", "duration_ms"},
	"UserPromptSubmit":   {"prompt"},
	"Stop":               {"stop_hook_active", "last_assistant_message"},
	"SubagentStop":       {"stop_hook_active", "last_assistant_message", "agent_transcript_path"},
	"SessionStart":       {"source", "model"},
	"SessionEnd":         {"reason"},
	"PreCompact":         {"trigger", "custom_instructions"},
	"TaskCreated":        {"task_id", "task_subject", "task_description", "teammate_name", "team_name"},
	"TaskCompleted":      {"task_id", "task_subject", "task_description", "teammate_name", "team_name"},
}

// lintFields warns about the root fields of a condition that look like a
// misspelling of a field of the event's payload (tool_inptu): such a field
// is always missing, so the condition silently never holds. Only names
// close to a known field are reported, since hosts add fields.
func lintFields(eng *engine.Engine, h engine.Hook, r hcl.Range, warn func(hcl.Range, string, string, ...any)) {
	tree, err := parser.Parse(h.Condition.Source())
	if err != nil {
		return
	}
	v := &rootsVisitor{}
	ast.Walk(&tree.Node, v)
	for _, spec := range hookEvents(eng, h) {
		own, known := payloadFields[spec.Name]
		if !known {
			continue
		}
		fields := append(slices.Clone(commonFields), own...)
		for _, root := range v.roots {
			if slices.Contains(fields, root) || root == conditions.StateName {
				continue
			}
			if s := suggest.Closest(root, fields); s != "" {
				warn(r, "Unknown payload field", "%s", fmt.Sprintf("%s's payload has no field %q, so it is always missing here. Did you mean %q?", spec.Name, root, s))
			}
		}
	}
}

// rootsVisitor collects the identifiers a condition reads at the root of
// the payload.
type rootsVisitor struct{ roots []string }

func (v *rootsVisitor) Visit(n *ast.Node) {
	if id, ok := (*n).(*ast.IdentifierNode); ok && !slices.Contains(v.roots, id.Value) {
		v.roots = append(v.roots, id.Value)
	}
}
