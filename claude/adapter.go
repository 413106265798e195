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
	"github.com/hookctl/hookctl/internal/jsonx"
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

// DecodeObject reads one JSON object within the default input limits,
// whatever host sent it: the first half of DecodeInput, for hosts whose
// payload does not name its event in hook_event_name.
func DecodeObject(r io.Reader) (map[string]any, error) {
	data, _, err := readBounded(r, DefaultInputLimits(), nil)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	return decodeObject(data)
}

// DecodeValue decodes a JSON document carried inside a hook input (a
// string field holding JSON, such as Copilot CLI's toolArgs) within the
// input's own limits (DefaultInputLimits), so that nesting or values
// past them cannot come in through a string: a document past a limit is
// a *LimitError, one that is not JSON a syntax error.
func DecodeValue(data []byte) (any, error) {
	if _, _, err := readBounded(bytes.NewReader(data), DefaultInputLimits(), nil); err != nil {
		return nil, err
	}
	return jsonx.Decode(data)
}

// CheckLimits checks a document read whole against DefaultInputLimits
// (size, depth, values) before it is decoded: one past a limit is a
// *LimitError. Other errors are the scanner's view of malformed JSON,
// which the decoder reports more precisely.
func CheckLimits(data []byte) error {
	_, _, err := readBounded(bytes.NewReader(data), DefaultInputLimits(), nil)
	return err
}

// decodeInput decodes hook input read within its limits.
func decodeInput(data []byte) (map[string]any, string, error) {
	payload, err := decodeObject(data)
	if err != nil {
		return nil, "", err
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

// decodeObject decodes one JSON object read within its limits, with the
// one payload decoder of every transport (jsonx.DecodeObject).
func decodeObject(data []byte) (map[string]any, error) {
	payload, err := jsonx.DecodeObject(data)
	if err != nil {
		var re *jsonx.RangeError
		var ke *jsonx.KindError
		switch {
		case errors.As(err, &re):
			return nil, &InputError{Err: fmt.Errorf("number out of range: %w", err)}
		case errors.As(err, &ke):
			return nil, &InputError{Err: err}
		}
		return nil, &InputError{Err: fmt.Errorf("not valid JSON: %w", err)}
	}
	return payload, nil
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
// shapes of claude-code-hooks.md §3, as the claudeCode dialect table in
// dialect.go lists them): permissionDecision for PreToolUse, a
// decision.behavior object for PermissionRequest, a top-level decision for
// Stop, UserPromptSubmit, PostToolUse, ...; additionalContext and the
// event's own fields in hookSpecificOutput; continue, stopReason and
// systemMessage at the top. Events whose only blocking channel is the exit
// status (TaskCompleted, TeammateIdle, WorktreeCreate) get that status and
// the reason on stderr.
func Format(out engine.Outcome) Reply { return claudeCode.Format(out) }

// Format writes the outcome in the dialect.
func (d *Dialect) Format(out engine.Outcome) Reply {
	ev := out.Event
	sh := d.shape(ev)
	top := map[string]any{}
	hso := map[string]any{}
	o := out.Output
	str := func(k string) string { s, _ := o[k].(string); return s }

	switch sh.Decision {
	case PermissionDecision:
		if out.Decision != "" {
			hso["permissionDecision"] = out.Decision
			if out.Reason != "" {
				hso["permissionDecisionReason"] = out.Reason
			}
		}
		if out.UpdatedInput != nil && sh.UpdatedInput {
			hso["updatedInput"] = out.UpdatedInput
		}
	case BehaviorObject:
		if out.Decision != "" {
			b := map[string]any{"behavior": out.Decision}
			if out.UpdatedInput != nil && sh.UpdatedInput {
				b["updatedInput"] = out.UpdatedInput
			}
			if msg := str("message"); msg != "" {
				b["message"] = msg
			} else if out.Reason != "" && out.Decision == "deny" {
				b["message"] = out.Reason
			}
			if v, ok := o["interrupt"].(bool); ok && v {
				b["interrupt"] = true
			}
			if p, ok := o["updated_permissions"]; ok {
				b["updatedPermissions"] = p
			}
			hso["decision"] = b
		}
	case TopLevelBlock:
		if out.Decision == "block" {
			top["decision"] = "block"
			top["reason"] = reasonOr(out.Reason, "blocked by a hook")
		}
	case ExitStatus:
		if out.Decision == "block" {
			return Reply{Stderr: reasonOr(out.Reason, "blocked by a hook"), ExitCode: sh.BlockExit}
		}
	}
	if sh.Stdout != "" {
		if p := str(sh.Stdout); p != "" {
			return Reply{Stdout: []byte(p + "\n")}
		}
	}
	if out.AdditionalContext != "" && sh.Context {
		hso["additionalContext"] = out.AdditionalContext
	}
	for _, f := range sh.Fields {
		if v, ok := o[f.Result]; f.passes(v, ok) {
			hso[f.Host] = v
		}
	}
	if !out.Continue {
		top["continue"] = false
		if out.StopReason != "" {
			top["stopReason"] = out.StopReason
		}
	}
	if msg := joinMessages(out.SystemMessage, hookFailures(out)); msg != "" {
		top["systemMessage"] = msg
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

// hookFailures tells the user which hooks failed (error or timeout) and
// why, and when the Stop loop guard could not count: Claude Code shows a hook command's stderr only in its debug log
// and counts exit 0 as success, so a failing guard would go unseen. A
// failure that counted as a block is said by the block's reason already.
func hookFailures(out engine.Outcome) string {
	var lines []string
	for _, h := range out.Hooks {
		if (h.Status != engine.StatusError && h.Status != engine.StatusTimeout) || h.FailClosed {
			continue
		}
		msg := h.Error
		if len(msg) > 300 {
			msg = msg[:300] + "..."
		}
		lines = append(lines, fmt.Sprintf("hookctl: hook %q failed (%s): %s", h.ID, h.Status, msg))
	}
	if g := out.StopGuard; g != nil && g.Error != "" {
		lines = append(lines, fmt.Sprintf("hookctl: the Stop loop guard could not count (%s): the hooks' decision stands, and a block is not counted toward stop_block_cap %d", g.Error, g.Cap))
	}
	return strings.Join(lines, "\n")
}

// HookFailures is the message that names the hooks that failed (error or
// timeout) and why, for replies of other hosts.
func HookFailures(out engine.Outcome) string { return hookFailures(out) }

// joinMessages joins the non-empty messages with a blank line.
func joinMessages(msgs ...string) string {
	var out []string
	for _, m := range msgs {
		if m != "" {
			out = append(out, m)
		}
	}
	return strings.Join(out, "\n\n")
}

func reasonOr(r, def string) string {
	if strings.TrimSpace(r) == "" {
		return def
	}
	return r
}
