package claude

import (
	"context"
	"strings"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsonx"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/internal/hostkit"
)

// Handle fires the hook input's event and formats the outcome as Claude
// Code expects it: protocol.Handle with this protocol. An event the
// engine does not know (a newer Claude Code than hookctl) gets an empty
// reply: it never blocks.
func Handle(ctx context.Context, eng *engine.Engine, payload map[string]any, event string) (protocol.Reply, error) {
	ev, err := New().Decode(payload, event)
	if err != nil {
		return protocol.Reply{}, err
	}
	return protocol.Handle(ctx, eng, ev, protocol.Options{})
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
func Format(out engine.Outcome) protocol.Reply { return claudeCode.Format(out) }

// Format writes the outcome in the dialect.
func (d *Dialect) Format(out engine.Outcome) protocol.Reply {
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
			top["reason"] = hostkit.ReasonOr(out.Reason, "blocked by a hook")
		}
	case ExitStatus:
		if out.Decision == "block" {
			return protocol.Reply{Stderr: hostkit.ReasonOr(out.Reason, "blocked by a hook"), ExitCode: sh.BlockExit}
		}
	}
	if sh.Stdout != "" {
		if p := str(sh.Stdout); p != "" {
			return protocol.Reply{Stdout: []byte(p + "\n")}
		}
		// Stdout is the path only: with none, what the reply would say
		// (a hook that failed, a stop) is the failure's reason on
		// stderr, never a JSON document read as the path.
		msg := joinMessages(out.SystemMessage, protocol.HookFailures(out))
		if !out.Continue {
			msg = joinMessages(msg, hostkit.ReasonOr(out.StopReason, "stopped by a hook"))
		}
		if msg == "" {
			return protocol.Reply{}
		}
		return protocol.Reply{Stderr: msg, ExitCode: sh.BlockExit}
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
	if msg := joinMessages(out.SystemMessage, protocol.HookFailures(out)); msg != "" {
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
		return protocol.Reply{}
	}
	b, _ := jsonx.Marshal(top)
	return protocol.Reply{Stdout: append(b, '\n')}
}

// Carries reports whether Claude Code's reply to ev carries the rewrite
// field of out (protocol.Table.Carries): updatedInput where the event's
// shape has it (on PermissionRequest inside a decision only), the
// event's own fields (updatedToolOutput, displayContent) as Format
// passes them.
func Carries(ev *protocol.Event, out *engine.Outcome, field string) bool {
	return claudeCode.carries(ev.Name, out, field)
}

func (d *Dialect) carries(event string, out *engine.Outcome, field string) bool {
	sh := d.shape(event)
	if field == "updated_input" {
		return sh.UpdatedInput && (sh.Decision != BehaviorObject || out.Decision != "")
	}
	for _, f := range sh.Fields {
		if f.Result == field {
			v, ok := out.Output[field]
			return f.passes(v, ok)
		}
	}
	return false
}

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
