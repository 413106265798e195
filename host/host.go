package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsonlimit"
	"github.com/hookctl/hookctl/protocol"
)

// Host is one agent host's command-hook protocol, as data: how its
// payloads name events and fields, and how it reads a reply. Hosts are
// immutable and safe for concurrent use.
type Host struct {
	// Name is the --host name: claude, codex, gemini, cursor, copilot,
	// crush.
	Name string
	// Title is the host's name for people.
	Title string
	// EventField names the payload field that holds the event name
	// (hook_event_name; crush: event). Empty: the payload does not say;
	// the event comes from --event.
	EventField string
	// Events maps the host's event names to catalog events. A name not
	// listed is looked up in the catalog as it is (Claude Code's names
	// and the catalog's aliases).
	Events map[string]Mapping
	// Fields renames payload fields to Claude Code's names (Copilot's
	// sessionId, toolName, ...; Cursor's conversation_id).
	Fields map[string]string
	// JSONFields are fields whose value is a JSON document in a string
	// (Copilot's toolArgs), decoded into an object.
	JSONFields []string
	// BlockExit is the exit status that blocks with the reason on stderr,
	// for answers that cannot be a reply (input that cannot be read);
	// 0 when no exit status blocks (Copilot CLI), which then gets a deny
	// reply instead.
	BlockExit int
	// Ask says whether the host can ask the user on a tool call; where it
	// cannot, an ask is mapped by the AskPolicy.
	Ask bool
	// encode writes an outcome in the host's reply format.
	encode func(h *Host, ev *Event, out engine.Outcome) protocol.Reply
}

// Mapping is a host event as a catalog event: its name, and for events
// that are a tool call in disguise (Cursor's beforeShellExecution), the
// tool it is and how its payload becomes tool_input.
type Mapping struct {
	Event string
	// Tool, when set, is the tool_name the payload gets.
	Tool string
	// Input lists payload fields copied into tool_input (as
	// "from:to" or "name").
	Input []string
	// Narrow marks a host event that is a narrower view of another one
	// mapped to the same catalog event (Cursor's beforeShellExecution
	// beside preToolUse): install does not register it, so that a call
	// is not guarded twice.
	Narrow bool
}

// Event is one decoded hook input: the host's event, the catalog event
// it fires and the payload in Claude Code's field names (the host's own
// fields kept beside them).
type Event struct {
	Host      *Host
	HostEvent string
	Name      string
	Payload   map[string]any
	// Detected says why the host was chosen when it was detected.
	Detected string
}

// AskPolicy is what an ask becomes on a host that cannot ask.
type AskPolicy string

const (
	// AskDeny denies: a guard that cannot ask must not allow (default).
	AskDeny AskPolicy = "deny"
	// AskAllow lets the call run (the host's own permission checks
	// still apply).
	AskAllow AskPolicy = "allow"
)

// Options are the choices of one reply.
type Options struct {
	// Ask maps an ask on a host that cannot ask (default AskDeny).
	Ask AskPolicy
}

// Lookup returns the host named name.
func Lookup(name string) (*Host, bool) {
	for _, h := range hosts {
		if h.Name == name {
			return h, true
		}
	}
	return nil, false
}

// Names lists the hosts' names.
func Names() []string {
	names := make([]string, len(hosts))
	for i, h := range hosts {
		names[i] = h.Name
	}
	return names
}

// InputError is a hook input a host would not send; Field names the
// problem.
type InputError = protocol.InputError

// Decode maps a decoded hook input of host h onto the catalog: the event
// (from the payload's event field, else event), and the payload with
// Claude Code's field names. A Claude Code payload is returned as it is.
func (h *Host) Decode(raw map[string]any, event string) (*Event, error) {
	ev := &Event{Host: h, HostEvent: event}
	if h.EventField != "" {
		v, ok := raw[h.EventField]
		if !ok {
			// camelCase payloads (Copilot CLI) may spell it so.
			v, ok = raw["hookEventName"]
		}
		if ok {
			s, isStr := v.(string)
			if !isStr || s == "" {
				return nil, &InputError{Field: h.EventField, Err: fmt.Errorf("want a non-empty string, got %v", v)}
			}
			if event != "" && event != s {
				return nil, &InputError{Field: h.EventField, Err: fmt.Errorf("the payload says %q, --event says %q", s, event)}
			}
			ev.HostEvent = s
		}
	}
	if ev.HostEvent == "" {
		field := h.EventField
		if field == "" {
			field = "--event"
		}
		return nil, &InputError{Field: field, Err: errors.New("missing")}
	}
	m, mapped := h.Events[ev.HostEvent]
	if !mapped {
		m = Mapping{Event: ev.HostEvent}
	}
	ev.Name = m.Event
	if len(h.Fields) == 0 && len(h.JSONFields) == 0 && m.Tool == "" && h.EventField == "hook_event_name" && !mapped {
		ev.Payload = raw
		return ev, nil
	}
	p := maps.Clone(raw)
	for _, f := range h.JSONFields {
		s, ok := p[f].(string)
		if !ok {
			continue
		}
		// Within the input's own limits: a string must not carry in the
		// nesting the reader refused.
		v, err := protocol.DecodeValue([]byte(s))
		if err != nil {
			var le *jsonlimit.LimitError
			if errors.As(err, &le) {
				return nil, &InputError{Field: f, Err: fmt.Errorf("the JSON document in it is past the input limits: %w", err)}
			}
			return nil, &InputError{Field: f, Err: fmt.Errorf("not a JSON document: %w", err)}
		}
		p[f] = v
	}
	for from, to := range h.Fields {
		if v, ok := p[from]; ok {
			if _, set := p[to]; !set {
				p[to] = v
			}
		}
	}
	if m.Tool != "" {
		p["tool_name"] = m.Tool
		in := map[string]any{}
		for _, f := range m.Input {
			from, to, ok := strings.Cut(f, ":")
			if !ok {
				to = from
			}
			if v, ok := p[from]; ok {
				in[to] = v
			}
		}
		p["tool_input"] = in
	}
	if cwd, _ := p["cwd"].(string); cwd == "" {
		// Cursor sends the workspace roots, not a cwd.
		if roots, ok := p["workspace_roots"].([]any); ok && len(roots) > 0 {
			if r, ok := roots[0].(string); ok {
				p["cwd"] = r
			}
		}
	}
	p["hook_event_name"] = ev.Name
	ev.Payload = p
	return ev, nil
}

// Detect chooses the host of a payload that came without --host, and says
// why. A payload that matches no other host is Claude Code's.
func Detect(raw map[string]any, env func(string) string) (*Host, string) {
	has := func(k string) bool { _, ok := raw[k]; return ok }
	name, _ := raw["hook_event_name"].(string)
	switch {
	case has("event") && !has("hook_event_name"):
		return mustLookup("crush"), `the payload names its event in "event" (crush)`
	case env("CRUSH") != "" || env("AGENT") == "crush":
		return mustLookup("crush"), "CRUSH is set in the environment"
	case has("toolName") || has("sessionId") || has("toolArgs"):
		return mustLookup("copilot"), "the payload's fields are camelCase (toolName, sessionId: Copilot CLI)"
	case has("conversation_id") || has("workspace_roots") || has("generation_id"):
		return mustLookup("cursor"), "the payload has conversation_id/workspace_roots (Cursor)"
	case isEventOf("cursor", name):
		return mustLookup("cursor"), fmt.Sprintf("%q is a Cursor event", name)
	case isEventOf("gemini", name):
		return mustLookup("gemini"), fmt.Sprintf("%q is a Gemini CLI event", name)
	case env("GEMINI_PROJECT_DIR") != "" || env("GEMINI_SESSION_ID") != "":
		return mustLookup("gemini"), "GEMINI_PROJECT_DIR is set in the environment"
	case has("turn_id"):
		return mustLookup("codex"), "the payload has turn_id (Codex)"
	case isEventOf("copilot", name):
		return mustLookup("copilot"), fmt.Sprintf("%q is a Copilot CLI event", name)
	}
	return mustLookup("claude"), "a Claude Code payload"
}

func isEventOf(host, event string) bool {
	h := mustLookup(host)
	_, ok := h.Events[event]
	return ok && event != ""
}

func mustLookup(name string) *Host {
	h, ok := Lookup(name)
	if !ok {
		panic("host: no host " + name)
	}
	return h
}

// Handle fires ev and answers in the host's format. An event the catalog
// does not have is reported on stderr and answered with the host's empty
// reply (never a block, never silence about it).
func Handle(ctx context.Context, eng *engine.Engine, ev *Event, opts Options) (protocol.Reply, error) {
	h := ev.Host
	if _, err := eng.Resolve(ev.Name); err != nil {
		var ue *engine.UnknownEventError
		if errors.As(err, &ue) {
			r := h.encode(h, ev, engine.Outcome{Event: ev.Name, Continue: true})
			r.Stderr = fmt.Sprintf("hookctl: %v (ignored)", err)
			return r, nil
		}
		return protocol.Reply{}, err
	}
	out, err := eng.Fire(ctx, engine.Event{Name: ev.Name, Payload: ev.Payload})
	if err != nil {
		return protocol.Reply{Outcome: out}, err
	}
	r := h.Reply(ev, out, opts)
	r.Outcome = out
	return r, nil
}

// Reply writes an outcome in the host's format, mapping what the host
// cannot express by opts (an ask on a host that cannot ask); the stderr
// line says what was mapped.
func (h *Host) Reply(ev *Event, out engine.Outcome, opts Options) protocol.Reply {
	var note string
	if out.Decision == engine.DecisionAsk && !h.Ask && isToolGate(ev.Name) {
		policy := opts.Ask
		if policy == "" {
			policy = AskDeny
		}
		note = fmt.Sprintf("hookctl: %s cannot ask for approval; ask mapped to %s (--on-ask)", h.Title, policy)
		if policy == AskDeny {
			out.Decision, out.Blocked = engine.DecisionDeny, true
			out.Reason = joinReason(out.Reason, fmt.Sprintf("denied: the hook asked for approval, which %s cannot ask for", h.Title))
		} else {
			out.Decision, out.Blocked = engine.DecisionAllow, false
		}
	}
	r := h.encode(h, ev, out)
	if note != "" {
		r.Stderr = strings.TrimSpace(note + "\n" + r.Stderr)
	}
	return r
}

// Block is the answer for hooks that could not run (input that cannot be
// read, a configuration that does not load or is not trusted): the
// event's block where the host has one, else msg on stderr with the
// host's blocking exit status.
func (h *Host) Block(ev *Event, msg string) protocol.Reply {
	if ev == nil {
		if h.BlockExit != 0 {
			return protocol.Reply{Stderr: msg, ExitCode: h.BlockExit}
		}
		// No exit status blocks: the deny reply of a tool call.
		b, _ := json.Marshal(map[string]any{"permissionDecision": "deny", "permissionDecisionReason": msg})
		return protocol.Reply{Stdout: append(b, '\n'), Stderr: msg}
	}
	out := engine.Outcome{Event: ev.Name, Continue: true, Decision: blockingDecision(ev.Name), Reason: msg, Blocked: true}
	if active, _ := ev.Payload["stop_hook_active"].(bool); active && (ev.Name == "Stop" || ev.Name == "SubagentStop") {
		// The agent already went on once because of a hook: no loop.
		out.Decision = ""
	}
	if out.Decision == "" {
		out.Blocked = false
		out.SystemMessage = msg
	}
	return h.encode(h, ev, out)
}

// Warn is the answer that only tells the user msg, in the host's message
// channel.
func (h *Host) Warn(ev *Event, msg string) protocol.Reply {
	return h.encode(h, ev, engine.Outcome{Event: ev.Name, Continue: true, SystemMessage: msg})
}

// blockingDecision is the decision that blocks event: deny on the tool
// gates, block elsewhere where the event can block; "" if it cannot.
func blockingDecision(event string) engine.Decision {
	for _, s := range engine.BuiltinEvents() {
		if s.Name == event || slices.Contains(s.Aliases, event) {
			for _, d := range s.Decisions {
				if engine.Decision(d).Blocks() {
					return engine.Decision(d)
				}
			}
		}
	}
	return ""
}

// isToolGate reports whether event is a tool call's permission point.
func isToolGate(event string) bool {
	return event == "PreToolUse" || event == "PermissionRequest"
}

func joinReason(a, b string) string {
	if strings.TrimSpace(a) == "" {
		return b
	}
	return a + " (" + b + ")"
}
