package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsonx"
	"github.com/hookctl/hookctl/protocol"
)

// plainTextContextEvents are the events where Claude Code turns a hook's
// plain (non-JSON) stdout into context for the model.
var plainTextContextEvents = map[string]bool{
	"UserPromptSubmit": true, "UserPromptExpansion": true, "SessionStart": true, "PostModelSwitch": true,
}

// PlainTextIsContext reports whether plain stdout becomes context on event.
func PlainTextIsContext(event string) bool { return plainTextContextEvents[event] }

// ParseOutput decodes a hook's JSON output in any of the dialects real
// hooks write and returns it in hookctl's result vocabulary:
//
//   - hookSpecificOutput with permissionDecision / permissionDecisionReason,
//     updatedInput, additionalContext, updatedToolOutput, sessionTitle, ...
//     and PermissionRequest's decision { behavior, updatedInput, message,
//     interrupt, updatedPermissions };
//   - top-level decision ("block", "approve", "allow", "deny", "ask") with
//     reason;
//   - the universal continue, stopReason, systemMessage, suppressOutput.
//
// Fields it does not know are kept under their snake_case names.
func ParseOutput(stdout []byte) (engine.Result, error) {
	raw, err := decodeOutput(stdout)
	if err != nil {
		return nil, err
	}
	return Normalize(raw), nil
}

// decodeOutput decodes the first JSON object of a hook's stdout, numbers
// as int64 or float64.
func decodeOutput(stdout []byte) (map[string]any, error) {
	var raw map[string]any
	dec := json.NewDecoder(bytes.NewReader(stdout))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		snippet := strings.TrimSpace(string(stdout))
		if len(snippet) > 120 {
			snippet = snippet[:120] + "..."
		}
		return nil, &protocol.OutputError{Err: err, Snippet: snippet}
	}
	if _, err := jsonx.Convert(raw); err != nil {
		return nil, &protocol.OutputError{Err: err, Snippet: "a number past float64"}
	}
	return raw, nil
}

// Normalize maps one decoded Claude Code output object onto hookctl's
// result vocabulary (see ParseOutput). It is engine.ClaudeOutput: a
// command hook's stdout and a script's or Go handler's result in Claude
// Code's shapes are read by one function.
func Normalize(raw map[string]any) engine.Result { return engine.ClaudeOutput(raw) }

// ParseOutputFor is ParseOutput for one event: a decision written in a
// channel the event does not read is dropped, as Claude Code drops it
// (permissionDecision on PermissionRequest, decision.behavior on
// PreToolUse, a top-level decision on an event that takes none, ...),
// and listed under the result field "ignored" so the trace shows it.
func ParseOutputFor(event string, stdout []byte) (engine.Result, error) {
	raw, err := decodeOutput(stdout)
	if err != nil {
		return nil, err
	}
	return readFor(event, raw), nil
}

// ReadOutputFor reads one decoded output object of event as
// ParseOutputFor reads a command hook's stdout: the channels the event
// does not read dropped (and listed under "ignored"), the rest
// normalized. raw is not modified. assemble.NewEngine gives it to the
// engine (engine.WithOutputReader), so that a script's or Go handler's
// result in Claude Code's shapes is read as the same output printed by a
// command hook.
func ReadOutputFor(event string, raw map[string]any) engine.Result {
	own := maps.Clone(raw)
	if hso, ok := own["hookSpecificOutput"].(map[string]any); ok {
		own["hookSpecificOutput"] = maps.Clone(hso) // dropUnread deletes from it
	}
	return readFor(event, own)
}

// readFor is ReadOutputFor on a map it may modify.
func readFor(event string, raw map[string]any) engine.Result {
	ignored := claudeCode.dropUnread(event, raw)
	res := Normalize(raw)
	if len(ignored) > 0 {
		res["ignored"] = ignored
	}
	return res
}

// dropUnread removes from raw the decisions event does not read in this
// dialect and says what was dropped. Events the table does not list are
// left alone.
func (d *Dialect) dropUnread(event string, raw map[string]any) []any {
	sh, known := d.Events[event]
	if !known {
		return nil
	}
	var ignored []any
	hso, _ := raw["hookSpecificOutput"].(map[string]any)
	drop := func(m map[string]any, k, why string) {
		if v, ok := m[k]; ok {
			ignored = append(ignored, fmt.Sprintf("%s %v: %s", k, describe(v), why))
			delete(m, k)
		}
	}
	switch sh.Decision {
	case PermissionDecision:
		if _, obj := hso["decision"].(map[string]any); obj {
			drop(hso, "decision", event+" reads hookSpecificOutput.permissionDecision, not decision.behavior")
		}
	case BehaviorObject:
		drop(hso, "permissionDecision", event+" reads hookSpecificOutput.decision.behavior")
		drop(hso, "permissionDecisionReason", event+" reads hookSpecificOutput.decision.message")
		drop(raw, "decision", event+" reads hookSpecificOutput.decision.behavior")
	case TopLevelBlock, ExitStatus:
		drop(hso, "permissionDecision", event+" takes no permissionDecision")
		drop(hso, "permissionDecisionReason", event+" takes no permissionDecision")
		drop(hso, "decision", event+" reads a top-level decision")
	}
	// Other decisions the event does not take are the engine's to ignore,
	// with a note in the trace.
	return ignored
}

// describe is a short rendering of an ignored value.
func describe(v any) string {
	b, err := json.Marshal(v)
	if err != nil || len(b) > 80 {
		return fmt.Sprintf("%T", v)
	}
	return string(b)
}
