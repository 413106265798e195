package engine

import (
	"bytes"
	"encoding/json"
	"time"
)

// Status is what happened to one hook during a fire.
type Status string

// Hook statuses (SPEC §5).
const (
	// StatusDecided: the hook returned a decision or result fields.
	StatusDecided Status = "decided"
	// StatusRan: the hook ran and returned nothing.
	StatusRan Status = "ran"
	// StatusSkipped: the matcher or condition was false, the hook is
	// disabled, or the chain was stopped; SkipReason says which.
	StatusSkipped Status = "skipped"
	// StatusError: the hook could not run or failed (error, panic).
	StatusError Status = "error"
	// StatusTimeout: the hook ran out of time and was cancelled.
	StatusTimeout Status = "timeout"
	// StatusQueued: a background hook was queued; Fire did not wait.
	StatusQueued Status = "queued"
)

// Decision is an event's decision: one of the values its EventSpec lists
// (Decisions), most restrictive first. The constants are the decisions
// of the built-in catalog; custom events may declare others.
type Decision string

// Decisions of the built-in catalog.
const (
	DecisionDeny   Decision = "deny"
	DecisionBlock  Decision = "block"
	DecisionCancel Decision = "cancel"
	DecisionAsk    Decision = "ask"
	DecisionDefer  Decision = "defer"
	DecisionAllow  Decision = "allow"
	// OpenClaw's before_agent_run outcome and before_agent_finalize
	// action.
	DecisionPass     Decision = "pass"
	DecisionFinalize Decision = "finalize"
	DecisionRevise   Decision = "revise"
	DecisionContinue Decision = "continue"
)

// Blocks reports whether the decision stops the action (deny, block,
// cancel).
func (d Decision) Blocks() bool { return terminalDecisions[string(d)] }

// Phase is the part of a fire a hook ran in.
type Phase string

// Phases of a fire, reported per hook.
const (
	PhaseChain      Phase = "chain"
	PhaseVoid       Phase = "void"
	PhaseObserve    Phase = "observe"
	PhaseBackground Phase = "background"
)

// SkipCode says why a hook was skipped, for programs; SkipReason says it
// for people.
type SkipCode string

// Skip codes.
const (
	SkipCodeMatcher   SkipCode = "matcher"
	SkipCodeCondition SkipCode = "condition"
	SkipCodeDisabled  SkipCode = "disabled"
	SkipCodeStopped   SkipCode = "chain_stopped"
)

// Skip reasons, the text of each SkipCode but SkipCodeStopped (whose text
// names the hook that stopped the chain).
const (
	SkipMatcher   = "matcher did not match"
	SkipCondition = "condition was false"
	SkipDisabled  = "hook is disabled"
)

// skipCodes maps the skip reasons to their codes.
var skipCodes = map[string]SkipCode{SkipMatcher: SkipCodeMatcher, SkipCondition: SkipCodeCondition, SkipDisabled: SkipCodeDisabled}

// skip records that the hook was skipped for reason (one of the Skip
// reasons).
func (t *HookTrace) skip(reason string) {
	t.Status, t.SkipReason, t.SkipCode = StatusSkipped, reason, skipCodes[reason]
}

// HookTrace is the record of one hook in an Outcome.
type HookTrace struct {
	ID     string `json:"id"`
	Status Status `json:"status"`
	// Decision is the decision the hook returned, or the one its failure
	// counted as under a fail-closed policy (then FailClosed is true).
	Decision Decision `json:"decision,omitempty"`
	Reason   string   `json:"reason,omitempty"`
	// Duration is how long the hook took (all attempts).
	Duration   time.Duration `json:"-"`
	SkipReason string        `json:"skip_reason,omitempty"`
	// SkipCode is SkipReason as a code.
	SkipCode SkipCode `json:"skip_code,omitempty"`
	// Error describes why the hook could not run, failed or timed out.
	Error string `json:"error,omitempty"`
	// Stack is the stack of the code that failed, when its error knows
	// it (StackTracer): a script's JavaScript stack.
	Stack string `json:"stack,omitempty"`
	// Panic marks an error that was a panic of the handler (recovered:
	// Error says what it panicked with).
	Panic bool `json:"panic,omitempty"`
	// FailClosed marks a failure that counted as a blocking decision.
	FailClosed bool `json:"fail_closed,omitempty"`
	// Handler is the handler kind: declarative, go, js, command, ...
	Handler string `json:"handler,omitempty"`
	// Phase is chain, void, observe or background.
	Phase Phase `json:"phase,omitempty"`
	// Priority is the hook's priority.
	Priority int `json:"priority"`
	// Attempts counts tries when the hook was retried.
	Attempts int `json:"attempts,omitempty"`
	// Output is the result the hook returned, as returned. It is
	// read-only: a hook may return the same Result every time (declarative
	// hooks do, and so does a script's return of a literal made of
	// literals), so it may be the same map in many outcomes.
	Output Result `json:"output,omitempty"`
	// Note explains a result the engine ignored or adjusted.
	Note string `json:"note,omitempty"`
	// Source says where the hook was declared.
	Source string `json:"source,omitempty"`
	// Layer is the configuration layer the hook comes from (managed,
	// user, project), when the configuration is layered.
	Layer string `json:"layer,omitempty"`
}

// quiet reports whether the trace says nothing a host's reply shows: the
// hook ran and answered (or was queued), and the engine took its result
// as it was. WithQuietRuns leaves such traces out.
func (t *HookTrace) quiet() bool {
	switch t.Status {
	case StatusRan, StatusDecided, StatusQueued:
		return t.Error == "" && t.Note == "" && !t.FailClosed && !t.Panic
	}
	return false
}

// MarshalJSON adds duration_us for every hook that ran.
func (t HookTrace) MarshalJSON() ([]byte, error) {
	type plain HookTrace
	if t.Status == StatusSkipped || t.Status == StatusQueued {
		return marshal(plain(t))
	}
	return marshal(struct {
		plain
		DurationUS int64 `json:"duration_us"`
	}{plain(t), t.Duration.Microseconds()})
}

// StopGuard reports the Stop loop guard's view of a Stop or SubagentStop
// fire.
type StopGuard struct {
	// LoopCount is the number of consecutive blocks before this fire.
	LoopCount int `json:"loop_count"`
	// Cap is settings.stop_block_cap.
	Cap int `json:"cap"`
	// Released is true when the cap overrode a block and let the agent stop.
	Released bool `json:"released"`
	// Error says why the guard could not count: its LoopStore failed to
	// read or write the count (a shared store that cannot be reached).
	// The guard then never releases the agent on its own account: the
	// hooks' decision stands.
	Error string `json:"error,omitempty"`
}

// Outcome is the merged result of one fire plus its trace. Safe to read
// from any goroutine once Fire returned.
type Outcome struct {
	// Event is the canonical event name.
	Event string `json:"event"`
	// Decision is the merged decision ("" when no hook decided).
	Decision Decision `json:"decision"`
	// Reason is the reason of the hook whose decision won.
	Reason string `json:"reason"`
	// Blocked is true when the decision is deny, block or cancel, when
	// continue is false, or when a blocking field (block, cancel, ...) is
	// set.
	Blocked bool `json:"blocked"`
	// Continue is false when a hook asked to stop the whole agent.
	Continue bool `json:"continue"`
	// StopReason comes with continue=false.
	StopReason string `json:"stop_reason"`
	// UpdatedInput is the tool input after the chain's rewrites, or nil
	// when no hook changed it.
	UpdatedInput map[string]any `json:"updated_input"`
	// AdditionalContext is every hook's context joined by blank lines.
	AdditionalContext string `json:"additional_context"`
	// SystemMessage is every hook's system message joined by blank lines.
	SystemMessage string `json:"system_message"`
	// Output holds every merged result field.
	Output map[string]any `json:"output"`
	// State is ctx.state after the chain.
	State map[string]any `json:"state"`
	// Hooks traces the hooks registered for the event, in the order the
	// engine considered them: every one with WithSkippedTraces (or an
	// Observer, or an audit log), else those that were not skipped (and
	// with WithQuietRuns only those a reply shows: failures and notes).
	Hooks []HookTrace `json:"hooks"`
	// Untraced counts the skipped hooks that Hooks leaves out (zero when
	// skipped hooks are traced).
	Untraced int `json:"untraced_skips,omitempty"`
	// UntracedRuns counts the hooks that ran cleanly, or were queued, and
	// that Hooks leaves out (WithQuietRuns; zero without it).
	UntracedRuns int `json:"untraced_runs,omitempty"`
	// StopGuard is set on events with the Stop loop guard.
	StopGuard *StopGuard `json:"stop_guard,omitempty"`
}

// MarshalJSON encodes empty maps and lists as {} and [] rather than null,
// keeping updated_input null when unchanged.
func (o Outcome) MarshalJSON() ([]byte, error) {
	type plain Outcome
	p := plain(o)
	if p.Output == nil {
		p.Output = map[string]any{}
	}
	if p.State == nil {
		p.State = map[string]any{}
	}
	if p.Hooks == nil {
		p.Hooks = []HookTrace{}
	}
	return marshal(p)
}

// marshal is json.Marshal without the HTML escaping of <, > and &: a
// reason "a -> b && c" stays as written in the JSON the CLI prints. An
// encoder that escapes (json.Marshal of a value holding an Outcome, an
// http.ResponseWriter's) still escapes the result, as json.Compact does
// any Marshaler's.
func marshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return unescapeHTML(b), nil
}

// unescapeHTML turns json.Marshal's \u003c, \u003e and \u0026 back into <, >
// and &, in place (the text only shrinks); other escapes, \\ included,
// are copied as they are. Without any, b is returned untouched, at no
// cost but the search.
func unescapeHTML(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u00`)) {
		return b
	}
	out := b[:0]
	for i := 0; i < len(b); {
		if b[i] != '\\' || i+1 == len(b) {
			out = append(out, b[i])
			i++
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) {
			var c byte
			switch string(b[i+2 : i+6]) {
			case "003c":
				c = '<'
			case "003e":
				c = '>'
			case "0026":
				c = '&'
			}
			if c != 0 {
				out = append(out, c)
				i += 6
				continue
			}
		}
		out = append(out, b[i], b[i+1]) // an escape pair: \\ is never the start of another
		i += 2
	}
	return out
}

// Hook returns the trace of the hook with the given id.
func (o *Outcome) Hook(id string) (HookTrace, bool) {
	for _, h := range o.Hooks {
		if h.ID == id {
			return h, true
		}
	}
	return HookTrace{}, false
}
