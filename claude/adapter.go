package claude

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/hookctl/hookctl/engine"
)

// Reply is what hookctl answers Claude Code for one hook event: the JSON
// (or text) for stdout or the http response body, the message for stderr
// and the exit status of a command hook.
type Reply struct {
	Stdout   []byte
	Stderr   string
	ExitCode int
	// Outcome is the engine's outcome (zero when nothing was fired).
	Outcome engine.Outcome
}

// InputError is hook input that is not what Claude Code sends; Field names
// the problem.
type InputError struct {
	Field string
	Err   error
}

func (e *InputError) Error() string {
	if e.Field == "" {
		return "hook input: " + e.Err.Error()
	}
	return fmt.Sprintf("hook input: %s: %v", e.Field, e.Err)
}

// Unwrap returns the cause.
func (e *InputError) Unwrap() error { return e.Err }

// DecodeInput reads Claude Code's hook JSON: one object with a
// hook_event_name, within DefaultInputLimits.
func DecodeInput(r io.Reader) (map[string]any, string, error) {
	return DecodeInputLimited(r, DefaultInputLimits())
}

// DecodeInputLimited is DecodeInput within lim: input past a limit is an
// *InputError wrapping a *LimitError, refused before it is decoded.
func DecodeInputLimited(r io.Reader, lim InputLimits) (map[string]any, string, error) {
	data, _, err := readBounded(r, lim, nil)
	if err != nil {
		return nil, "", &InputError{Err: err}
	}
	return decodeInput(data)
}

// decodeInput decodes hook input read within its limits.
func decodeInput(data []byte) (map[string]any, string, error) {
	var payload map[string]any
	if err := json.Unmarshal(data, &payload); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			// Inside an object, a value only fails to fit when it is a
			// number beyond float64.
			if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '{' {
				return nil, "", &InputError{Err: fmt.Errorf("number out of range: %w", err)}
			}
			return nil, "", &InputError{Err: fmt.Errorf("want a JSON object, got %s", te.Value)}
		}
		return nil, "", &InputError{Err: fmt.Errorf("not valid JSON: %w", err)}
	}
	if payload == nil {
		return nil, "", &InputError{Err: errors.New("want a JSON object, got null")}
	}
	raw, ok := payload["hook_event_name"]
	if !ok {
		return nil, "", &InputError{Field: "hook_event_name", Err: errors.New("missing")}
	}
	name, ok := raw.(string)
	if !ok || name == "" {
		return nil, "", &InputError{Field: "hook_event_name", Err: fmt.Errorf("want a non-empty string, got %v", raw)}
	}
	return payload, name, nil
}

// Handle fires the hook input's event and formats the outcome as Claude
// Code expects it. An event the engine does not know (a newer Claude Code
// than hookctl) gets an empty reply: it never blocks.
func Handle(ctx context.Context, eng *engine.Engine, payload map[string]any, event string) (Reply, error) {
	if _, err := eng.Resolve(event); err != nil {
		var ue *engine.UnknownEventError
		if errors.As(err, &ue) {
			return Reply{Stderr: fmt.Sprintf("hookctl: %v (ignored)", err)}, nil
		}
		return Reply{}, err
	}
	out, err := eng.Fire(ctx, engine.Event{Name: event, Payload: payload})
	if err != nil {
		return Reply{Outcome: out}, err
	}
	r := Format(out)
	r.Outcome = out
	return r, nil
}

// Format turns an outcome into Claude Code's output for its event (the
// shapes of claude-code-hooks.md §3): permissionDecision for PreToolUse and
// PreModelSwitch, decision.behavior for PermissionRequest, a top-level
// decision for Stop, UserPromptSubmit, PostToolUse, ...; additionalContext
// in hookSpecificOutput; continue, stopReason and systemMessage at the top.
// Events whose only blocking channel is the exit status (TaskCompleted,
// TeammateIdle, WorktreeCreate) get exit status 2 and the reason on stderr.
func Format(out engine.Outcome) Reply {
	ev := out.Event
	top := map[string]any{}
	hso := map[string]any{}
	o := out.Output
	str := func(k string) string { s, _ := o[k].(string); return s }

	switch ev {
	case "PreToolUse", "PreModelSwitch":
		if out.Decision != "" {
			hso["permissionDecision"] = out.Decision
			if out.Reason != "" {
				hso["permissionDecisionReason"] = out.Reason
			}
		}
		if out.UpdatedInput != nil && ev == "PreToolUse" {
			hso["updatedInput"] = out.UpdatedInput
		}
	case "PermissionRequest":
		if out.Decision != "" {
			d := map[string]any{"behavior": out.Decision}
			if out.UpdatedInput != nil {
				d["updatedInput"] = out.UpdatedInput
			}
			if msg := str("message"); msg != "" {
				d["message"] = msg
			} else if out.Reason != "" && out.Decision == "deny" {
				d["message"] = out.Reason
			}
			if v, ok := o["interrupt"].(bool); ok && v {
				d["interrupt"] = true
			}
			if p, ok := o["updated_permissions"]; ok {
				d["updatedPermissions"] = p
			}
			hso["decision"] = d
		}
	case "UserPromptSubmit", "UserPromptExpansion", "PostToolUse", "PostToolUseFailure", "PostToolBatch",
		"Stop", "SubagentStop", "ConfigChange", "PreCompact", "TaskCreated":
		if out.Decision == "block" {
			top["decision"] = "block"
			top["reason"] = reasonOr(out.Reason, "blocked by a hook")
		}
	case "TaskCompleted", "TeammateIdle", "WorktreeCreate":
		if out.Decision == "block" {
			r := Reply{Stderr: reasonOr(out.Reason, "blocked by a hook"), ExitCode: 2}
			if ev == "WorktreeCreate" {
				r.ExitCode = 1
			}
			return r
		}
		if ev == "WorktreeCreate" {
			if p := str("worktree_path"); p != "" {
				return Reply{Stdout: []byte(p + "\n")}
			}
		}
	case "Elicitation", "ElicitationResult":
		if a := str("action"); a != "" {
			hso["action"] = a
		}
		if c, ok := o["content"]; ok {
			hso["content"] = c
		}
	case "MessageDisplay":
		if d := str("display_content"); d != "" {
			hso["displayContent"] = d
		}
	case "PermissionDenied":
		if v, ok := o["retry"].(bool); ok && v {
			hso["retry"] = true
		}
	}
	if out.AdditionalContext != "" && acceptsContext(ev) {
		hso["additionalContext"] = out.AdditionalContext
	}
	// Event-specific fields that pass through as camelCase.
	for field, claudeName := range passThrough[ev] {
		if v, ok := o[field]; ok && v != nil {
			hso[claudeName] = v
		}
	}
	if !out.Continue {
		top["continue"] = false
		if out.StopReason != "" {
			top["stopReason"] = out.StopReason
		}
	}
	if out.SystemMessage != "" {
		top["systemMessage"] = out.SystemMessage
	}
	if out.StopGuard != nil && out.StopGuard.Released {
		msg := out.Reason
		if s, ok := top["systemMessage"].(string); ok && s != "" {
			msg = s + "\n\n" + msg
		}
		top["systemMessage"] = msg
	}
	if v, ok := o["suppress_output"].(bool); ok && v {
		top["suppressOutput"] = true
	}
	if len(hso) > 0 {
		hso["hookEventName"] = ev
		top["hookSpecificOutput"] = hso
	}
	if len(top) == 0 {
		return Reply{}
	}
	b, _ := json.Marshal(top)
	return Reply{Stdout: append(b, '\n')}
}

func reasonOr(r, def string) string {
	if strings.TrimSpace(r) == "" {
		return def
	}
	return r
}

// acceptsContext lists the events that take additionalContext.
func acceptsContext(ev string) bool {
	switch ev {
	case "SessionStart", "Setup", "UserPromptSubmit", "UserPromptExpansion", "PreToolUse", "PostToolUse",
		"PostToolUseFailure", "PostToolBatch", "SubagentStart", "Stop", "SubagentStop", "PostModelSwitch":
		return true
	}
	return false
}

// passThrough maps result fields to Claude Code's hookSpecificOutput names
// per event.
var passThrough = map[string]map[string]string{
	"SessionStart":     {"initial_user_message": "initialUserMessage", "session_title": "sessionTitle", "watch_paths": "watchPaths", "reload_skills": "reloadSkills"},
	"UserPromptSubmit": {"session_title": "sessionTitle", "suppress_original_prompt": "suppressOriginalPrompt"},
	"PostToolUse":      {"updated_output": "updatedToolOutput", "classifier_context": "classifierContext"},
	"CwdChanged":       {"watch_paths": "watchPaths"},
	"FileChanged":      {"watch_paths": "watchPaths"},
	"Notification":     {"terminal_sequence": "terminalSequence"},
	"StopFailure":      {"terminal_sequence": "terminalSequence"},
}
