package protocol

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsonx"
)

// Rewrite is a result field that rewrites a value of an event's payload
// for the host: the engine chains it into Target, so the hooks after the
// one that returned it judge the rewritten value, not the original.
type Rewrite struct {
	// Field is the result field (prompt, updated_input, ...); Target the
	// payload field it rewrites.
	Field, Target string
	// Gate says the event's hooks decide whether the action goes ahead:
	// a rewrite the host's reply cannot carry is refused by blocking the
	// event, since the host would go ahead with the original, which the
	// hooks after the rewrite (a managed guard) never judged. Elsewhere
	// such a rewrite is said on stderr: the host keeps its original.
	Gate bool
}

// rewrites are the rewrites of the catalog's events that a host can be
// asked to apply, by catalog event.
var rewrites = map[string]Rewrite{
	"UserPromptSubmit":  {Field: "prompt", Target: "prompt", Gate: true},
	"PreToolUse":        {Field: "updated_input", Target: "tool_input", Gate: true},
	"PermissionRequest": {Field: "updated_input", Target: "tool_input"},
	"PostToolUse":       {Field: "updated_output", Target: "tool_response"},
	"MessageDisplay":    {Field: "display_content", Target: "delta"},
}

// RewriteOf is the rewrite a host can be asked to apply on a catalog
// event, if it has one.
func RewriteOf(event string) (Rewrite, bool) {
	rw, ok := rewrites[event]
	return rw, ok
}

// Rewritten returns the value of ev's rewrite (RewriteOf) in out, and
// whether it differs from the payload's original: a hook that returns
// the value it was given rewrote nothing.
func Rewritten(ev *Event, out *engine.Outcome) (any, bool) {
	rw, ok := rewrites[ev.Name]
	if !ok {
		return nil, false
	}
	return rewritten(rw, ev, out)
}

func rewritten(rw Rewrite, ev *Event, out *engine.Outcome) (any, bool) {
	var v any
	if rw.Field == "updated_input" && out.UpdatedInput != nil {
		v = out.UpdatedInput
	} else if o, ok := out.Output[rw.Field]; ok && o != nil {
		v = o
	} else {
		return nil, false
	}
	orig, had := ev.Payload[rw.Target]
	if !had {
		return v, true
	}
	// Compared as JSON: a handler's numbers and maps are not the
	// decoder's types, and the host sees JSON.
	a, err1 := jsonx.Marshal(v)
	b, err2 := jsonx.Marshal(orig)
	return v, err1 != nil || err2 != nil || !bytes.Equal(a, b)
}

// uncarried checks out's rewrite against what the host's reply carries
// (t.Carries). It returns the reply to give instead (blocked: the
// rewrite is the event's gate's and cannot be applied) or a note for
// stderr (the host keeps its original), or neither.
func (t *Table) uncarried(ev *Event, out *engine.Outcome) (block *Reply, note string) {
	rw, ok := rewrites[ev.Name]
	if !ok {
		return nil, ""
	}
	v, changed := rewritten(rw, ev, out)
	if !changed || (t.Carries != nil && t.Carries(ev, out, rw.Field)) {
		return nil, ""
	}
	what := rw.Target
	if what == "tool_input" {
		what = "tool input"
	}
	if !rw.Gate || out.Blocked || !out.Continue {
		// Nothing goes ahead on it, or the host already acted on the
		// original: said, not refused.
		if out.Blocked || !out.Continue {
			return nil, ""
		}
		return nil, fmt.Sprintf("hookctl: a hook rewrote the %s (%s), which %s cannot apply on %s: it keeps the original", what, rw.Field, t.HostTitle, ev.HostEvent)
	}
	b, _ := jsonx.Marshal(v)
	shown := string(b)
	if s, ok := v.(string); ok {
		shown = s
	}
	shown = clip(shown, 2000)
	r := t.Block(ev, fmt.Sprintf("hookctl: a hook rewrote the %s, which %s cannot apply on %s; blocked, since %s would go ahead with the original, which the hooks after the rewrite did not judge. The rewritten %s: %s",
		what, t.HostTitle, ev.HostEvent, t.HostTitle, what, shown))
	if len(r.Stdout) > 0 || r.ExitCode != 0 {
		return &r, ""
	}
	// A host that cannot block the event either (Copilot CLI's
	// userPromptSubmitted): said, and the rest of the reply given.
	return nil, fmt.Sprintf("hookctl: a hook rewrote the %s, which %s can neither apply nor block on %s: it goes ahead with the original, which the hooks after the rewrite did not judge. The rewritten %s: %s",
		what, t.HostTitle, ev.HostEvent, what, shown)
}

// clip shortens s to at most n bytes, on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// CarriesToolInput is Table.Carries for a host whose reply carries a
// rewritten tool input on PreToolUse and no other rewrite.
func CarriesToolInput(ev *Event, _ *engine.Outcome, field string) bool {
	return ev.Name == "PreToolUse" && field == "updated_input"
}
