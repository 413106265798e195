package protocol

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsonlimit"
	"github.com/hookctl/hookctl/internal/jsonx"
)

// Table is the data most hosts' protocols are made of: where the payload
// names the event, the host's event and field names, the exit status that
// blocks, whether it can ask, and the function that writes its reply.
// A host's package embeds a Table and adds what is its own (reading its
// scripts' replies, its configuration file, its detection hints); the
// Table's methods are the parts every host shares.
type Table struct {
	// HostName is the --host name; HostTitle the host's name for people.
	HostName, HostTitle string
	// EventField names the payload field that holds the event name
	// (hook_event_name; crush: event). Empty: the payload does not say;
	// the event comes from --event.
	EventField string
	// EventMap maps the host's event names to catalog events. A name not
	// listed is looked up in the catalog as it is (Claude Code's names
	// and the catalog's aliases).
	EventMap map[string]Mapping
	// Fields renames payload fields to Claude Code's names (Copilot's
	// sessionId, toolName, ...; Cursor's conversation_id).
	Fields map[string]string
	// JSONFields are fields whose value is a JSON document in a string
	// (Copilot's toolArgs), decoded into an object.
	JSONFields []string
	// Exit is the exit status that blocks with the reason on stderr, for
	// answers that cannot be a reply (input that cannot be read); 0 when
	// no exit status blocks, which then gets a deny reply instead.
	Exit int
	// Ask says whether the host can ask the user on a tool call; where it
	// cannot, an ask is mapped by the AskPolicy.
	Ask bool
	// Defer says whether the host can defer a tool call's decision
	// (Claude Code's permissionDecision "defer"); where it cannot, a
	// defer is an ask (and then the AskPolicy where it cannot ask either).
	Defer bool
	// Encode writes an outcome in the host's reply format.
	Encode func(ev *Event, out engine.Outcome) Reply
	// Carries reports whether Encode's reply to ev carries the rewritten
	// value of a result field (RewriteOf: prompt, updated_input, ...) to
	// the host, or answers for it itself (Cursor denies a rewritten call
	// on the gates that cannot take one). nil carries none. A rewrite
	// the reply does not carry is refused on a gate (Rewrite.Gate: the
	// event is blocked, saying why) and said on stderr elsewhere: never
	// dropped unsaid.
	Carries func(ev *Event, out *engine.Outcome, field string) bool
	// Timeout is how long the host waits for a hook that sets no timeout
	// of its own; Timeouts holds the events (host names) where that
	// differs. TimeoutUnit is the unit of the host's timeout field (a
	// second; Gemini CLI: a millisecond).
	Timeout     time.Duration
	Timeouts    map[string]time.Duration
	TimeoutUnit time.Duration
	// Shell is how the host runs a command line on Windows (the zero
	// value: Git Bash, else PowerShell, as Claude Code does).
	Shell Shell
	// ProjectFiles and UserFiles are the host's hook configuration files
	// (glob patterns) under the project directory and the user's home.
	ProjectFiles, UserFiles []string
	// ProjectEnv names the variables the host sets to the project
	// directory for its hook commands.
	ProjectEnv []string
}

// HookEnv is what the host adds to the environment of its hook commands
// run in project ("KEY=value" entries).
func (t *Table) HookEnv(project string) []string {
	out := make([]string, len(t.ProjectEnv))
	for i, k := range t.ProjectEnv {
		out[i] = k + "=" + project
	}
	return out
}

// HookTimeout is how long the host waits for a hook of its event
// hostEvent when the hook's entry sets no timeout: past it, the host
// stops waiting and (on every host but where noted) runs the action.
func (t *Table) HookTimeout(hostEvent string) time.Duration {
	if d, ok := t.Timeouts[hostEvent]; ok {
		return d
	}
	return t.Timeout
}

// TimeoutTable is what HookTimeout reads: the host's default timeout and
// its events' own (a copy); with PayloadEventField, what hookctl-client,
// which links no protocol, needs to bound a call (its generated table).
func (t *Table) TimeoutTable() (time.Duration, map[string]time.Duration) {
	return t.Timeout, maps.Clone(t.Timeouts)
}

// PayloadEventField is EventField: the payload field naming the event.
func (t *Table) PayloadEventField() string { return t.EventField }

// Unit is the unit of the host's timeout field (a second unless set).
func (t *Table) Unit() time.Duration {
	if t.TimeoutUnit > 0 {
		return t.TimeoutUnit
	}
	return time.Second
}

// Name is the host's --host name.
func (t *Table) Name() string { return t.HostName }

// Title is the host's name for people.
func (t *Table) Title() string { return t.HostTitle }

// Events maps the host's event names to catalog events (a copy).
func (t *Table) Events() map[string]Mapping { return maps.Clone(t.EventMap) }

// BlockExit is the exit status that blocks (0: none).
func (t *Table) BlockExit() int { return t.Exit }

// CanAsk reports whether the host can ask the user on a tool call.
func (t *Table) CanAsk() bool { return t.Ask }

// DecodeAs is Protocol.Decode for the protocol p this table describes: a
// payload in Claude Code's shape and names is returned as it is.
func (t *Table) DecodeAs(p Protocol, raw map[string]any, event string) (*Event, error) {
	if raw == nil {
		// No payload (an embedder's call with the event only): an empty
		// one, so that the decoded event always has a payload to fill.
		raw = map[string]any{}
	}
	ev := &Event{Protocol: p, HostEvent: event}
	if t.EventField != "" {
		v, ok := raw[t.EventField]
		if !ok {
			// camelCase payloads (Copilot CLI) may spell it so.
			v, ok = raw["hookEventName"]
		}
		if ok {
			s, isStr := v.(string)
			if !isStr || s == "" {
				return nil, &InputError{Field: t.EventField, Err: fmt.Errorf("want a non-empty string, got %v", v)}
			}
			if event != "" && event != s && t.catalogEvent(event) != t.catalogEvent(s) {
				// Two names of one catalog event (an alias, the host's
				// own name) are the same event.
				return nil, &InputError{Field: t.EventField, Err: fmt.Errorf("the payload says %q, --event says %q", s, event)}
			}
			ev.HostEvent = s
		}
	}
	if ev.HostEvent == "" {
		field := t.EventField
		if field == "" {
			field = "--event"
		}
		return nil, &InputError{Field: field, Err: errors.New("missing")}
	}
	m, mapped := t.EventMap[ev.HostEvent]
	if !mapped {
		m = Mapping{Event: ev.HostEvent}
	}
	// The catalog's name, whichever alias the payload used (turn:pre,
	// before_tool_call, another host's name): the reply, its rewrites
	// and its blocks are the catalog event's.
	ev.Name = CatalogName(m.Event)
	if len(t.Fields) == 0 && len(t.JSONFields) == 0 && m.Tool == "" && t.EventField == "hook_event_name" && !mapped {
		ev.Payload = raw
		return ev, nil
	}
	pl := maps.Clone(raw)
	for _, f := range t.JSONFields {
		s, ok := pl[f].(string)
		if !ok {
			continue
		}
		// Within the input's own limits: a string must not carry in the
		// nesting the reader refused.
		v, err := DecodeValue([]byte(s))
		if err != nil {
			var le *jsonlimit.LimitError
			if errors.As(err, &le) {
				return nil, &InputError{Field: f, Err: fmt.Errorf("the JSON document in it is past the input limits: %w", err)}
			}
			return nil, &InputError{Field: f, Err: fmt.Errorf("not a JSON document: %w", err)}
		}
		pl[f] = v
	}
	for from, to := range t.Fields {
		if v, ok := pl[from]; ok {
			if _, set := pl[to]; !set {
				pl[to] = v
			}
			if to == "tool_input" {
				// Kept in the host's spelling too: a rewrite goes to both.
				ev.InputFields = append(ev.InputFields, from)
			}
		}
	}
	if m.Tool != "" {
		pl["tool_name"] = m.Tool
		in := map[string]any{}
		for _, f := range m.Input {
			from, to, ok := strings.Cut(f, ":")
			if !ok {
				to = from
			}
			if v, ok := pl[from]; ok {
				in[to] = v
			}
		}
		pl["tool_input"] = in
	}
	if cwd, _ := pl["cwd"].(string); cwd == "" {
		// Cursor sends the workspace roots, not a cwd.
		if roots, ok := pl["workspace_roots"].([]any); ok && len(roots) > 0 {
			if r, ok := roots[0].(string); ok {
				pl["cwd"] = r
			}
		}
	}
	pl["hook_event_name"] = ev.Name
	ev.Payload = pl
	return ev, nil
}

// catalogEvent is the catalog's name of a host event: its mapping, with
// the catalog's aliases resolved.
func (t *Table) catalogEvent(name string) string {
	if m, ok := t.EventMap[name]; ok {
		name = m.Event
	}
	return CatalogName(name)
}

// Reply writes an outcome in the host's format, mapping what the host
// cannot express: a defer on a host that cannot defer is an ask, and an
// ask on a host that cannot ask is mapped by opts; the stderr lines say
// what was mapped. A decision the host has no word for is never dropped
// (which every host reads as no objection, and lets the call run), nor is
// a rewrite the reply cannot carry (Carries): on a gate it blocks.
func (t *Table) Reply(ev *Event, out engine.Outcome, opts Options) Reply {
	var notes []string
	if out.Decision == engine.DecisionDefer && !t.Defer {
		// The closest the host can express: the user decides now.
		notes = append(notes, fmt.Sprintf("hookctl: %s cannot defer a decision; defer mapped to ask", t.HostTitle))
		out.Decision = engine.DecisionAsk
		out.Reason = joinReason(out.Reason, fmt.Sprintf("a hook deferred the decision, which %s cannot do", t.HostTitle))
	}
	if out.Decision == engine.DecisionAsk && !t.Ask && IsToolGate(ev.Name) {
		policy := opts.Ask
		if policy == "" {
			policy = AskDeny
		}
		notes = append(notes, fmt.Sprintf("hookctl: %s cannot ask for approval; ask mapped to %s (--on-ask)", t.HostTitle, policy))
		if policy == AskDeny {
			out.Decision, out.Blocked = engine.DecisionDeny, true
			out.Reason = joinReason(out.Reason, fmt.Sprintf("denied: the hook asked for approval, which %s cannot ask for", t.HostTitle))
		} else {
			out.Decision, out.Blocked = engine.DecisionAllow, false
		}
	}
	block, note := t.uncarried(ev, &out)
	if note != "" {
		notes = append(notes, note)
	}
	var r Reply
	if block != nil {
		r = *block
	} else {
		r = t.encode(ev, out)
	}
	if len(notes) > 0 {
		r.Stderr = strings.TrimSpace(strings.Join(notes, "\n") + "\n" + r.Stderr)
	}
	return r
}

// Block is the answer for hooks that could not run (input that cannot be
// read, a configuration that does not load or is not trusted): the
// event's block where the host has one, else msg on stderr with the
// host's blocking exit status.
func (t *Table) Block(ev *Event, msg string) Reply {
	if ev == nil {
		if t.Exit != 0 {
			return Reply{Stderr: msg, ExitCode: t.Exit}
		}
		// No exit status blocks: the deny reply of a tool call.
		b, _ := jsonx.Marshal(map[string]any{"permissionDecision": "deny", "permissionDecisionReason": msg})
		return Reply{Stdout: append(b, '\n'), Stderr: msg}
	}
	out := engine.Outcome{Event: ev.Name, Continue: true, Decision: BlockingDecision(ev.Name), Reason: msg, Blocked: true}
	if active, _ := ev.Payload["stop_hook_active"].(bool); active && (ev.Name == "Stop" || ev.Name == "SubagentStop") {
		// The agent already went on once because of a hook: no loop.
		out.Decision = ""
	}
	if out.Decision == "" {
		out.Blocked = false
		out.SystemMessage = msg
	}
	return t.encode(ev, out)
}

// encode is Encode, naming the reply's event.
func (t *Table) encode(ev *Event, out engine.Outcome) Reply {
	r := t.Encode(ev, out)
	r.Event = ev.Name
	return r
}

// Warn is the answer that only tells the user msg, in the host's message
// channel (on stderr when ev is nil).
func (t *Table) Warn(ev *Event, msg string) Reply {
	if ev == nil {
		// No event to answer in its channel: stderr, which lets the
		// action through as a warning should.
		return Reply{Stderr: msg}
	}
	return t.encode(ev, engine.Outcome{Event: ev.Name, Continue: true, SystemMessage: msg})
}

// HostEvent is the host's name for a catalog event (and tool): the first
// mapping that fires it, else the catalog name.
func (t *Table) HostEvent(event string, tool string) string {
	best := ""
	for name, m := range t.EventMap {
		if m.Event != event {
			continue
		}
		if m.Tool != "" {
			if engine.CanonicalTool(m.Tool) == tool && tool != "" {
				return name
			}
			continue
		}
		if best == "" || name < best {
			best = name
		}
	}
	if best == "" {
		return event
	}
	return best
}

// HostEvents returns the host's events that fire the catalog event, for
// install: the mapped names (not the narrower views), or the catalog name
// itself for a host that keeps Claude Code's names.
func (t *Table) HostEvents(event string) []string {
	var out []string
	for name, m := range t.EventMap {
		if m.Event == event && !m.Narrow && name != "" {
			out = append(out, name)
		}
	}
	if len(t.EventMap) == 0 {
		out = append(out, event)
	}
	slices.Sort(out)
	return out
}

// HostPayload is the payload of a catalog event as the host sends it to
// its scripts, before the host's own renames: the host's event name, and
// for an event that is a tool call in disguise its tool_input fields at
// the top. The payload is a copy.
func (t *Table) HostPayload(event string, payload map[string]any) (name string, p map[string]any) {
	p = maps.Clone(payload)
	if p == nil {
		p = map[string]any{}
	}
	tool, _ := p[engine.ToolField].(string)
	if raw, ok := p["tool_name"].(string); ok && tool == "" {
		tool = engine.CanonicalTool(raw)
	}
	name = t.HostEvent(event, tool)
	if m, ok := t.EventMap[name]; ok && m.Tool != "" {
		in, _ := p["tool_input"].(map[string]any)
		for _, f := range m.Input {
			from, to, ok := strings.Cut(f, ":")
			if !ok {
				to = from
			}
			if v, ok := in[to]; ok {
				p[from] = v
			}
		}
	}
	return name, p
}

// EncodePayload writes the payload of a catalog event as a host that
// names its events in hook_event_name sends it.
func (t *Table) EncodePayload(event string, payload map[string]any) ([]byte, error) {
	name, p := t.HostPayload(event, payload)
	p["hook_event_name"] = name
	return MarshalPayload(p)
}

// MarshalPayload is a payload's JSON.
func MarshalPayload(p map[string]any) ([]byte, error) {
	b, err := jsonx.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("payload: %w", err)
	}
	return b, nil
}

// DecodeValue decodes a JSON document carried inside a hook input (a
// string field holding JSON, such as Copilot CLI's toolArgs) within the
// input's own default limits, so that nesting or values past them cannot
// come in through a string: a document past a limit is a
// *jsonlimit.LimitError, one that is not JSON a syntax error.
func DecodeValue(data []byte) (any, error) {
	return jsonlimit.DecodeValue(data)
}

// EventHint is the detection hint of a payload whose hook_event_name is
// one of the host's own event names, at rank.
func (t *Table) EventHint(raw map[string]any, rank int) (Hint, bool) {
	if name, _ := raw["hook_event_name"].(string); name != "" {
		if _, ok := t.EventMap[name]; ok {
			return Hint{Rank: rank, Why: fmt.Sprintf("%q is a %s event", name, t.HostTitle)}, true
		}
	}
	return Hint{}, false
}
