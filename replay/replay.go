package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsonx"
)

// Action is the one word that says what a configuration did with an
// event, the strongest effect first: a block of some kind, then asking,
// then rewriting, then context, then a plain allow.
type Action string

// Actions, strongest first.
const (
	// ActionStop: a hook set continue = false (stop the whole agent).
	ActionStop Action = "stop"
	// ActionDeny, ActionBlock, ActionCancel: a blocking decision (deny on
	// PreToolUse; block on prompts, post-tool events and Stop, where it
	// means "keep working").
	ActionDeny   Action = "deny"
	ActionBlock  Action = "block"
	ActionCancel Action = "cancel"
	// ActionAsk and ActionDefer: the user (or the SDK caller) decides.
	ActionAsk   Action = "ask"
	ActionDefer Action = "defer"
	// ActionRewritten: the tool input, the tool output or the prompt was
	// rewritten.
	ActionRewritten Action = "rewritten"
	// ActionContext: the model was given additional context.
	ActionContext Action = "context"
	// ActionAllow: a hook allowed the call explicitly.
	ActionAllow Action = "allow"
	// ActionNone: no hook had an opinion.
	ActionNone Action = "none"
)

// Verdict is what one configuration made of one event.
type Verdict struct {
	// Action is the strongest effect; Decision the merged decision.
	Action   Action `json:"action"`
	Decision string `json:"decision,omitempty"`
	// Hooks are the ids of the hooks behind Action: the hook whose
	// decision won, or every hook that rewrote or gave context.
	Hooks []string `json:"hooks,omitempty"`
	// Reason is the winning decision's reason, the stop reason, a
	// description of a rewrite, or the context given.
	Reason  string `json:"reason,omitempty"`
	Blocked bool   `json:"blocked"`
	// Rewritten and Context are set whatever Action is: a call can be
	// rewritten and asked about, given context and denied.
	Rewritten bool `json:"rewritten,omitempty"`
	Context   bool `json:"context,omitempty"`
	// UpdatedInput, UpdatedOutput and Prompt are the rewrites.
	UpdatedInput  map[string]any `json:"updated_input,omitempty"`
	UpdatedOutput any            `json:"updated_output,omitempty"`
	Prompt        *string        `json:"prompt,omitempty"`
	// AdditionalContext and SystemMessage are the merged texts.
	AdditionalContext string `json:"additional_context,omitempty"`
	SystemMessage     string `json:"system_message,omitempty"`
	// Errors lists the hooks that failed or timed out.
	Errors []HookError `json:"errors,omitempty"`
	// StopReleased: the Stop loop guard overrode a block.
	StopReleased bool `json:"stop_released,omitempty"`
	// AfterDeny marks the post event of a call this configuration denied
	// at PreToolUse: the recorded session ran the call anyway, so the post
	// event is replayed as recorded.
	AfterDeny bool `json:"after_deny,omitempty"`
	// Ran lists the hooks that ran (every status but skipped), with their
	// status and decision.
	Ran []HookRun `json:"ran,omitempty"`
}

// HookError is a hook that failed (error) or timed out (timeout).
type HookError struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Error  string `json:"error"`
}

// HookRun is one hook that ran for an event.
type HookRun struct {
	ID       string `json:"id"`
	Status   string `json:"status"`
	Decision string `json:"decision,omitempty"`
}

// Record is one replayed event and what each configuration made of it.
type Record struct {
	Line      int    `json:"line"`
	Turn      int    `json:"turn"`
	Event     string `json:"event"`
	Tool      string `json:"tool,omitempty"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	Input     string `json:"input,omitempty"`
	// Recorded is what the session did with the tool call, on PreToolUse
	// (filled in when the result is read) and post events.
	Recorded Recorded `json:"recorded,omitempty"`
	// Verdicts has one entry per configuration, in the order given to
	// Run.
	Verdicts []Verdict `json:"-"`
}

// Summary counts what one configuration did over a replay.
type Summary struct {
	// Fired counts the events fired, by name.
	Fired map[string]int `json:"fired"`
	// Blocked, Asked, Rewritten, Context and Allowed count events (an
	// event can count under Rewritten and Context as well as its Action);
	// Asked includes defer.
	Blocked   int `json:"blocked"`
	Asked     int `json:"asked"`
	Rewritten int `json:"rewritten"`
	Context   int `json:"context"`
	Allowed   int `json:"allowed"`
	// HookErrors counts hook failures and timeouts.
	HookErrors int `json:"hook_errors"`
	// DeniedRan counts the calls denied here that the session ran.
	DeniedRan int `json:"denied_but_ran"`
}

// Report is the result of a replay.
type Report struct {
	// Transcript names the transcript; Configs names the configurations,
	// one per engine.
	Transcript string   `json:"transcript"`
	Configs    []string `json:"configs"`
	Records    []Record `json:"-"`
	// Events counts the records, kept in Records or not (Stream).
	Events int `json:"events"`
	// calls counts the PreToolUse records by what the session did.
	calls map[string]int
	// Stats describes the transcript; Summaries has one Summary per
	// configuration.
	Stats     Stats     `json:"stats"`
	Summaries []Summary `json:"summaries"`
}

// Config is one configuration to replay through: a loaded engine and a
// name for reports.
type Config struct {
	Name   string
	Engine *engine.Engine
}

// Run replays the transcript read by r through each configuration, event
// by event: every configuration sees every event, in order, with a payload
// of its own. One engine serves a whole replay, so state that hooks keep
// (ctx.state does not outlive a fire, but the kv store and the Stop loop
// guard do) carries from event to event as in the session. Run returns an
// error when the transcript cannot be read (a *FormatError when it is not
// one) or an engine fails to fire; bad lines are only counted in Stats.
// The report holds every record (Records); Stream gives them one by one
// instead, for transcripts of any size.
func Run(ctx context.Context, r *Reader, configs ...Config) (*Report, error) {
	var records []Record
	rep, err := Stream(ctx, r, func(rec *Record) error {
		records = append(records, *rec)
		return nil
	}, configs...)
	if err != nil {
		return nil, err
	}
	rep.Records = records
	return rep, nil
}

// MaxHeld is how many records Stream holds back behind a tool call whose
// result has not been read yet. Past it, the oldest is given to the sink
// as RecordedNone (no result within MaxHeld events), so that a call never
// answered cannot make a replay keep the rest of the transcript; a result
// read for it later fires its post event as usual. The Reader bounds the
// open calls themselves (MaxOpen).
const MaxHeld = 1 << 12

// Stream is Run without keeping the records: each is given to sink, in
// transcript order, as soon as it is complete, that is, for a PreToolUse,
// once its result has been read (Recorded) or the transcript has ended
// (RecordedNone); sink must not keep the *Record. What Stream holds is the
// tool calls still open (at most MaxOpen) and the records behind the
// oldest of them (at most MaxHeld), so its memory does not grow with the
// transcript, even one made only of calls never answered. The
// report has no Records; its Summaries count every record, and Events
// how many there were. A sink's error ends the replay with that error.
func Stream(ctx context.Context, r *Reader, sink func(*Record) error, configs ...Config) (*Report, error) {
	if len(configs) == 0 {
		return nil, errors.New("replay: no configuration")
	}
	rep := &Report{Transcript: r.path, Summaries: make([]Summary, len(configs)), calls: map[string]int{}}
	for i, c := range configs {
		rep.Configs = append(rep.Configs, c.Name)
		rep.Summaries[i].Fired = map[string]int{}
	}
	open := map[string]*Record{} // tool_use_id -> its PreToolUse record, until the result
	var held []*Record           // records not given to sink yet, in order
	emit := func(rec *Record) error {
		for j, v := range rec.Verdicts {
			rep.Summaries[j].add(rec, v)
		}
		rep.Events++
		if rec.Event == EventPreToolUse {
			rep.calls[string(rec.Recorded)]++
		}
		return sink(rec)
	}
	// flush gives sink the complete records at the head of held (all of
	// them at the end), and the oldest past MaxHeld.
	flush := func(all bool) error {
		n := 0
		for ; n < len(held); n++ {
			rec := held[n]
			if rec.Event == EventPreToolUse && rec.Recorded == "" {
				if !all && len(held)-n <= MaxHeld {
					break
				}
				rec.Recorded = RecordedNone
			}
			if err := emit(rec); err != nil {
				return err
			}
			held[n] = nil
		}
		held = held[n:]
		if len(held) == 0 {
			held = nil // let the backing array go
		}
		return nil
	}
	for {
		ev, err := r.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		pre := open[ev.ToolUseID]
		if pre != nil && (ev.Name == "" || ev.Name == EventPostToolUse || ev.Name == EventPostToolUseFailure) {
			pre.Recorded = ev.Recorded
		}
		if ev.Name == "" {
			delete(open, ev.ToolUseID)
			if err := flush(false); err != nil {
				return nil, err
			}
			continue
		}
		rec := &Record{Line: ev.Line, Turn: ev.Turn, Event: ev.Name, Tool: ev.Tool, ToolUseID: ev.ToolUseID,
			Input: ev.Input, Recorded: ev.Recorded, Verdicts: make([]Verdict, len(configs))}
		for i, c := range configs {
			payload := ev.Payload
			if i < len(configs)-1 {
				payload = Clone(payload)
			}
			out, err := c.Engine.Fire(ctx, engine.Event{Name: ev.Name, Payload: payload})
			if err != nil {
				return nil, fmt.Errorf("replay: line %d: %s: %w", ev.Line, ev.Name, err)
			}
			v := Judge(out)
			if pre != nil && ev.Name != EventPreToolUse && pre.Verdicts[i].Action == ActionDeny {
				v.AfterDeny = true
			}
			rec.Verdicts[i] = v
		}
		switch {
		case ev.Name == EventPreToolUse:
			open[ev.ToolUseID] = rec
		case pre != nil:
			delete(open, ev.ToolUseID) // its post event: the call is closed
		}
		held = append(held, rec)
		if err := flush(false); err != nil {
			return nil, err
		}
	}
	rep.Stats = r.Stats()
	if err := flush(true); err != nil {
		return nil, err
	}
	return rep, nil
}

func (s *Summary) add(rec *Record, v Verdict) {
	s.Fired[rec.Event]++
	switch v.Action {
	case ActionAsk, ActionDefer:
		s.Asked++
	case ActionAllow:
		s.Allowed++
	}
	if v.Blocked {
		s.Blocked++
	}
	if v.Rewritten {
		s.Rewritten++
	}
	if v.Context {
		s.Context++
	}
	s.HookErrors += len(v.Errors)
	if rec.Event == EventPreToolUse && v.Action == ActionDeny && (rec.Recorded == RecordedRan || rec.Recorded == RecordedFailed) {
		s.DeniedRan++
	}
}

// Judge turns an engine outcome into a Verdict.
func Judge(out engine.Outcome) Verdict {
	v := Verdict{Decision: string(out.Decision), Blocked: out.Blocked, UpdatedInput: out.UpdatedInput,
		AdditionalContext: out.AdditionalContext, SystemMessage: out.SystemMessage}
	if out.StopGuard != nil {
		v.StopReleased = out.StopGuard.Released
	}
	if uo, ok := out.Output["updated_output"]; ok && uo != nil {
		v.UpdatedOutput = uo
	}
	if p, ok := out.Output["prompt"].(string); ok {
		v.Prompt = &p
	}
	v.Rewritten = v.UpdatedInput != nil || v.UpdatedOutput != nil || v.Prompt != nil
	v.Context = out.AdditionalContext != ""
	for _, h := range out.Hooks {
		switch h.Status {
		case engine.StatusSkipped:
			continue
		case engine.StatusError, engine.StatusTimeout:
			v.Errors = append(v.Errors, HookError{ID: h.ID, Status: string(h.Status), Error: h.Error})
		}
		v.Ran = append(v.Ran, HookRun{ID: h.ID, Status: string(h.Status), Decision: string(h.Decision)})
	}
	switch d := out.Decision; {
	case !out.Continue:
		v.Action, v.Reason = ActionStop, out.StopReason
		v.Hooks = hooksWith(out, func(h engine.HookTrace) bool { return h.Output["continue"] == false })
	case out.Blocked || d == engine.DecisionAsk || d == engine.DecisionDefer:
		v.Action = Action(d)
		if d == "" {
			v.Action = ActionBlock // a blocking field (block, cancel) without a decision
		}
		v.Reason = out.Reason
		v.Hooks = decider(out)
	case v.Rewritten:
		v.Action = ActionRewritten
		v.Reason = describeRewrite(v)
		v.Hooks = hooksWith(out, func(h engine.HookTrace) bool {
			return has(h.Output, "updated_input") || has(h.Output, "updated_output") || has(h.Output, "prompt")
		})
	case v.Context:
		v.Action, v.Reason = ActionContext, out.AdditionalContext
		v.Hooks = hooksWith(out, func(h engine.HookTrace) bool { return has(h.Output, "additional_context") })
	case d != "":
		v.Action, v.Reason = Action(d), out.Reason
		v.Hooks = decider(out)
	default:
		v.Action = ActionNone
	}
	return v
}

// decider returns the hook whose decision won: the first, in the order the
// engine ran them, that returned the merged decision (with its reason when
// several did).
func decider(out engine.Outcome) []string {
	var first string
	for _, h := range out.Hooks {
		if h.Status == engine.StatusSkipped || h.Decision != out.Decision || out.Decision == "" {
			continue
		}
		if h.Reason == out.Reason {
			return []string{h.ID}
		}
		if first == "" {
			first = h.ID
		}
	}
	if first == "" {
		// A blocking field rather than a decision: the hooks that set one.
		return hooksWith(out, func(h engine.HookTrace) bool { return h.Output["block"] == true || h.Output["cancel"] == true })
	}
	return []string{first}
}

func hooksWith(out engine.Outcome, pred func(engine.HookTrace) bool) []string {
	var ids []string
	for _, h := range out.Hooks {
		if h.Status != engine.StatusSkipped && pred(h) {
			ids = append(ids, h.ID)
		}
	}
	return ids
}

// has reports whether a hook's result sets a field, in either spelling.
func has(r engine.Result, field string) bool {
	for k, v := range r {
		if v != nil && jsonx.SnakeCase(k) == field {
			return true
		}
	}
	return false
}

// describeRewrite says what a rewrite changed: the new value of the
// fields that say most, else which fields.
func describeRewrite(v Verdict) string {
	switch {
	case v.UpdatedInput != nil:
		for _, k := range inputKeys {
			if s, ok := v.UpdatedInput[k].(string); ok {
				return fmt.Sprintf("%s → %s", k, s)
			}
		}
		keys := make([]string, 0, len(v.UpdatedInput))
		for k := range v.UpdatedInput {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return "tool_input: " + strings.Join(keys, ", ")
	case v.Prompt != nil:
		return "prompt → " + *v.Prompt
	default:
		return "tool output rewritten"
	}
}

// Effect is the part of a Verdict a diff compares: what the agent would
// have seen. Hook ids, timings and errors are not part of it, so renaming
// a hook or moving a rule to another hook is no difference.
type Effect struct {
	Action            Action
	Decision          string
	Reason            string
	UpdatedInput      string
	UpdatedOutput     string
	Prompt            string
	AdditionalContext string
	SystemMessage     string
}

// Effect returns the effect of v.
func (v Verdict) Effect() Effect {
	e := Effect{Action: v.Action, Decision: v.Decision, Reason: v.Reason,
		AdditionalContext: v.AdditionalContext, SystemMessage: v.SystemMessage}
	if v.UpdatedInput != nil {
		e.UpdatedInput = canonical(v.UpdatedInput)
	}
	if v.UpdatedOutput != nil {
		e.UpdatedOutput = canonical(v.UpdatedOutput)
	}
	if v.Prompt != nil {
		e.Prompt = "=" + *v.Prompt
	}
	return e
}

// canonical encodes a JSON value with sorted keys, for comparison.
func canonical(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Differs reports whether the configurations i and j had different effects
// on the record's event.
func (r *Record) Differs(i, j int) bool {
	return r.Verdicts[i].Effect() != r.Verdicts[j].Effect()
}

// Diff returns the records on which configurations i and j differ.
func (rep *Report) Diff(i, j int) []Record {
	var out []Record
	for _, r := range rep.Records {
		if r.Differs(i, j) {
			out = append(out, r)
		}
	}
	return out
}

// eventOrder sorts event names: the replayed events in firing order, then
// any other alphabetically.
func eventOrder(m map[string]int) []string {
	var names []string
	for _, e := range Events {
		if m[e] > 0 {
			names = append(names, e)
		}
	}
	var rest []string
	for e, n := range m {
		if n > 0 && !slices.Contains(Events, e) {
			rest = append(rest, e)
		}
	}
	sort.Strings(rest)
	return append(names, rest...)
}
