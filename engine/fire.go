package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/internal/fastpath"
)

// Event is one firing of an event. Set Name (a canonical name or alias) or,
// on hot paths, ID (from Engine.Resolve). The engine never modifies
// Payload; callers must not modify it while Fire runs.
type Event struct {
	Name    string
	ID      EventID
	Payload map[string]any
	// ReadInput, when set, is the host's reading of a tool input: the
	// fields its decoder derived from the input the host sends (Codex's
	// command of exec_command's cmd, the files an apply_patch touches),
	// derived again from a tool input a hook rewrites before the next
	// hooks judge it, so that they judge what the host will run rather
	// than the fields of the input before. It returns in, or a copy.
	ReadInput func(tool string, in map[string]any) map[string]any
	// InputFields name the payload fields that hold the tool input in a
	// host's own spelling beside tool_input (Copilot CLI's toolArgs): a
	// rewritten tool input is written to those the payload has too, so
	// that a hook reading either judges the rewrite.
	InputFields []string
}

// fireState is the per-fire scratch space, pooled.
type fireState struct {
	eval conditions.Evaluator
	// memo holds the results of the conditions evaluated in this fire
	// (those that do not read state), with the payload they saw: hooks
	// that repeat a condition share its evaluation while the payload is
	// the same.
	memo  [8]condMemo
	nmemo int
	m     merger
	state State
	call  Call
	prep  prepared
	// out is the outcome being built (returned by value).
	out Outcome
	obs Outcome
	// par is runParallel's list of the hooks it traced; partr holds their
	// traces while they run when the fire keeps only some (quiet).
	par   []*compiledHook
	partr []HookTrace
	off   fastpath.Set // the engine's optimisations turned off
}

// firing carries the values of one fire through its phases: the chain,
// the void or observe hooks, the background queue.
type firing struct {
	e    *Engine
	ctx  context.Context
	snap *snapshot
	spec *EventSpec
	id   uint64
	f    *fireState
	out  *Outcome
	// obs is what observe hooks see (nil for other hooks).
	obs *Outcome
	ent *eventEntry
	// guard is the Stop loop guard's state (nil when off); ran counts the
	// declarative hooks run.
	guard *guardState
	ran   uint64
	// pos is the chain hook the fire got to; tried says an Entrant's
	// setup was tried; resumed that the Entrant ran the fire.
	pos     int
	tried   bool
	resumed bool
	// base is when the fire began running hooks (Call.base).
	base time.Time
	// skips keeps the traces of skipped hooks (see WithSkippedTraces);
	// rest is how many hooks the fire has yet to trace, the room the
	// traces need when they are allocated on the first one kept.
	skips bool
	rest  int
	// quiet leaves the traces of hooks that ran cleanly out
	// (WithQuietRuns, when nothing asked for the traces).
	quiet bool
}

// keep appends tr to the outcome's traces (traced and skipped call it).
func (fi *firing) keep(tr *HookTrace) {
	out := fi.out
	if out.Hooks == nil {
		// Room for the rest of the hooks, but no more than a fire that
		// skips hooks is likely to keep: a skipped hook costs nothing.
		n := fi.rest
		switch {
		case fi.quiet:
			n = 1 // a failure or a note: rare
		case !fi.skips:
			n = min(n, 16)
		}
		out.Hooks = make([]HookTrace, 0, max(n, 1))
	}
	out.Hooks = append(out.Hooks, *tr)
}

// skipped records a hook skipped for reason (one of the Skip reasons):
// in the traces when they keep skipped hooks, else only as a count.
func (fi *firing) skipped(h *compiledHook, phase Phase, reason string) {
	if !fi.skips {
		fi.out.Untraced++
		fi.rest--
		return
	}
	tr := newTrace(h, phase)
	tr.skip(reason)
	fi.traced(&tr)
}

// traced keeps the trace of the next hook, or only counts it when the
// fire leaves quiet traces out.
func (fi *firing) traced(tr *HookTrace) {
	if fi.quiet && tr.quiet() {
		fi.out.UntracedRuns++
	} else {
		fi.keep(tr) // sized by rest, this hook included
	}
	fi.rest--
}

// enter runs the rest of the fire inside the event's Entrant, and reports
// whether it did (an Entrant that did not call run leaves it to the
// caller). The Entrant runs a copy on the heap (recycled: it runs it only
// before Enter returns), so that the firing of a fire that enters nothing
// stays on the stack.
func (fi *firing) enter(ctx context.Context) bool {
	es, _ := fi.e.entries.Get().(*entrySlot)
	if es == nil {
		es = new(entrySlot)
		es.run = es.fi.resume // bound once per slot, not per fire
	}
	es.fi = *fi
	fi.ent.entrant.Enter(ctx, fi.id, es.run)
	*fi = es.fi
	es.fi = firing{} // holds nothing of the fire while pooled
	fi.e.entries.Put(es)
	return fi.resumed
}

// entrySlot is the heap copy of a firing that an Entrant runs, with its
// resume method bound: Engine.entries keeps them, since an Entrant calls
// run only before Enter returns.
type entrySlot struct {
	fi  firing
	run func(context.Context)
}

func (fi *firing) resume(ctx context.Context) {
	if fi.resumed {
		return
	}
	fi.resumed = true
	fi.run(ctx)
}

// call returns the Call of hook h with the payload it sees.
func (fi *firing) call(h *compiledHook, payload map[string]any, state *State) Call {
	if fi.base.IsZero() {
		fi.base = time.Now()
	}
	return Call{Event: fi.spec.Name, Fire: fi.id, Hook: h.ID, Payload: payload, State: state, Outcome: fi.obs, Logger: fi.e.log, base: fi.base, untimed: fi.quiet}
}

// task is one hook handed to the worker pool.
type task struct {
	ctx  context.Context
	snap *snapshot
	spec *EventSpec
	h    *compiledHook
	call Call
	tr   *HookTrace
	wg   *sync.WaitGroup
	bg   bool
}

type workerKey struct{}

var emptyPayload = map[string]any{}

// Fire runs the hooks of one event and returns the merged outcome with a
// trace of every hook. It returns an error only when the event is unknown,
// the engine is closed, or ctx ended during the fire (then with the partial
// outcome); hook failures are recorded in the trace and follow the hooks'
// error policies.
func (e *Engine) Fire(ctx context.Context, ev Event) (Outcome, error) {
	s := e.snap.Load()
	ent := s.entry(ev)
	if ent == nil || len(ent.all) > 0 || e.closed.Load() || e.off != 0 && e.off.Has(fastpath.EngineNoHooks) {
		return e.fire(ctx, s, ent, ev, nil, nil)
	}
	// The fast path: nothing to run.
	return Outcome{Event: ent.spec.Name, Continue: true}, nil
}

// FireInto is Fire writing the outcome into *out, reusing the memory of
// out.Hooks for the traces and of out.Output for the merged output, as
// strconv's Append functions reuse a buffer: a caller that fires in a
// loop and is done with each outcome before the next (a server replying
// per request, say) allocates neither again. Everything *out held is
// overwritten, the traces and the output map in place, so nothing of an
// earlier outcome may be kept but what was copied out of it.
func (e *Engine) FireInto(ctx context.Context, ev Event, out *Outcome) error {
	buf, spare := out.Hooks[:0], out.Output
	clear(spare)
	s := e.snap.Load()
	ent := s.entry(ev)
	if ent == nil || len(ent.all) > 0 || e.closed.Load() || e.off != 0 && e.off.Has(fastpath.EngineNoHooks) {
		o, err := e.fire(ctx, s, ent, ev, buf, spare)
		if o.Hooks == nil {
			o.Hooks = buf // an error before any trace: keep the memory
		}
		*out = o
		return err
	}
	*out = Outcome{Event: ent.spec.Name, Continue: true, Hooks: buf}
	return nil
}

// entry finds the event of a fire: by ID when set, else by name. An event
// whose Name and ID disagree is no event (Fire reports the mismatch).
func (s *snapshot) entry(ev Event) *eventEntry {
	if ev.ID != 0 {
		if int(ev.ID) >= len(s.events) {
			return nil
		}
		ent := s.events[ev.ID]
		if ev.Name != "" && ent != nil {
			if id, ok := s.names.lookup(ev.Name); !ok || id != ev.ID {
				return nil
			}
		}
		return ent
	}
	if id, ok := s.names.lookup(ev.Name); ok {
		return s.events[id]
	}
	return nil
}

// fireError says why ev found no event.
func (e *Engine) fireError(s *snapshot, ev Event) error {
	if ev.ID != 0 && ev.Name != "" && int(ev.ID) < len(s.events) && s.events[ev.ID] != nil {
		if id, ok := s.names.lookup(ev.Name); ok && id != ev.ID {
			return &EventMismatchError{Name: ev.Name, ID: ev.ID, Event: s.events[ev.ID].spec.Name}
		}
	}
	name := ev.Name
	if name == "" {
		name = fmt.Sprintf("event id %d", ev.ID)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.reg.unknown(name)
}

// fire runs the hooks of ent: the one place a fire is admitted (the engine
// is not closed) and counted until it ends, for Close to wait on.
//
// The traces go into buf when it has room for every hook of the event,
// and the merged output into spare, an empty map, when there is one
// (FireInto); otherwise into new ones.
func (e *Engine) fire(ctx context.Context, s *snapshot, ent *eventEntry, ev Event, buf []HookTrace, spare map[string]any) (Outcome, error) {
	if !e.drain.enter() {
		return Outcome{}, ErrClosed
	}
	defer e.drain.leave()
	if ent == nil {
		return Outcome{}, e.fireError(s, ev)
	}
	payload := ev.Payload
	spec := ent.spec
	f := e.firePool.Get().(*fireState)
	defer e.releaseFire(f)

	// The traces go into buf when it has room for every hook; else they
	// are allocated on the first one kept (fi.keep). The outcome is built
	// in the fire's scratch space (an Entrant's copy of the firing points
	// to it, which would move a local to the heap) and returned by value.
	out := &f.out
	*out = Outcome{Event: spec.Name, Continue: true}
	if n := len(ent.all); cap(buf) >= n && buf != nil {
		// Entries past this fire's traces still hold an earlier outcome's.
		clear(buf[n:cap(buf)])
		out.Hooks = buf[:0]
	}
	if payload == nil {
		payload = emptyPayload
	}
	if ent.needsTool || e.off != 0 && e.off.Has(fastpath.EngineToolSkip) {
		payload = withTool(payload)
	}
	id := e.fireSeq.Add(1)
	obs := e.obs
	if obs != nil {
		ctx = obs.FireStarted(ctx, FireInfo{Event: spec.Name, ID: id, Payload: ev.Payload})
	}
	var guard *guardState
	if spec.StopGuard && s.settings.stopBlockCap > 0 {
		gctx, cancel := context.WithTimeout(ctx, guardBudget(s, spec))
		payload, guard = e.guardBefore(gctx, spec, payload)
		cancel()
	}
	skips := e.skipTraces || obs != nil || e.audit.Load() != nil || e.auditW.Load() != nil
	fi := &firing{e: e, ctx: ctx, snap: s, spec: spec, id: id, f: f, out: out, ent: ent, guard: guard, rest: len(ent.all),
		skips: skips, quiet: e.quietRuns && !skips}
	f.m.init(spec, payload)
	f.m.spare, f.m.readInput, f.m.inputFields = spare, ev.ReadInput, ev.InputFields
	fi.run(ctx)
	m, state, ran := &f.m, &f.state, fi.ran
	out.State = state.Snapshot()

	if len(ent.background) > 0 {
		fi.queueBackground(ent.background, m.payload, out.State)
	}

	e.fires.Add(1)
	if ran > 0 {
		e.hooksRun.Add(ran)
	}
	if file, w := e.audit.Load(), e.auditW.Load(); file != nil || w != nil {
		e.writeAudit(file, w, out)
	}
	err := ctx.Err()
	if obs != nil {
		obs.FireEnded(ctx, FireInfo{Event: spec.Name, ID: id, Payload: ev.Payload}, out, err)
	}
	return *out, err
}

// run is the synchronous part of a fire: the chain, then the void or
// observe hooks. ctx is the fire's, or the one an Entrant passed on.
func (fi *firing) run(ctx context.Context) {
	fi.ctx = ctx
	e, s, spec, f, out, ent := fi.e, fi.snap, fi.spec, fi.f, fi.out, fi.ent
	m, state := &f.m, &f.state

	// The modifying (or sync) chain, from where it got to (run resumes
	// inside an Entrant's setup).
	for ; fi.pos < len(ent.chain); fi.pos++ {
		h := ent.chain[fi.pos]
		if m.stoppedBy != "" {
			if !fi.skips {
				out.Untraced++
				fi.rest--
				continue
			}
			tr := newTrace(h, PhaseChain)
			tr.Status, tr.SkipCode = StatusSkipped, SkipCodeStopped
			tr.SkipReason = "chain stopped by " + m.stoppedBy
			fi.traced(&tr)
			continue
		}
		skip, cerr := f.admit(h, spec, m.payload, state)
		if skip != "" {
			fi.skipped(h, PhaseChain, skip)
			continue
		}
		tr := newTrace(h, PhaseChain)
		if cerr == nil && !fi.tried && ent.entrant != nil && ent.enters(h) {
			// The first hook of the Entrant that runs: the rest of the
			// fire runs inside its setup, from this hook on.
			fi.tried = true
			if fi.enter(ctx) {
				fi.ctx = ctx
				return
			}
		}
		var p *prepared
		var rules *staticRules
		var untimed *Call // a script's call that was not timed
		switch {
		case cerr != nil:
			if res := e.failed(spec, h, &tr, fmt.Errorf("condition: %w", cerr), true); res != nil {
				p = f.prep.load(res)
			}
		case h.static != nil:
			// Declarative: no code to run, nothing to time.
			p, rules = h.static, h.rulesFor(spec)
			fi.ran++
			staticTrace(spec, p, &tr)
		default:
			call := &f.call
			*call = fi.call(h, m.payload, state)
			if res, held := e.execute(ctx, s, spec, h, call, &tr, true, &f.prep); res != nil {
				if p = held; p == nil {
					p = f.prep.load(res)
				}
				if !tr.FailClosed {
					tr.Output, tr.Decision, tr.Reason = p.res, Decision(p.decisionString(spec)), p.reasonString()
				}
			}
			if call.untimed && tr.Duration == 0 {
				untimed = call
			}
		}
		if p != nil {
			if _, note := m.add(h.ID, p, rules); note != "" {
				tr.Note = note
				if untimed != nil {
					// Kept for its note after all: timed up to here.
					tr.Duration = time.Since(untimed.started)
				}
				if m.unknown && h.static == nil {
					// A script's result: say so where the user looks, as
					// a declarative hook's is said by validate.
					e.log.Warn("hook returned a result field its event does not take", "hook", h.ID, "event", spec.Name, "note", note)
				}
			}
		}
		fi.traced(&tr)
		if e.obs != nil {
			fi.hookDone(ctx, &out.Hooks[len(out.Hooks)-1], m.payload)
		}
	}
	m.finish(out)
	if fi.guard != nil {
		gctx, cancel := context.WithTimeout(ctx, guardBudget(s, spec))
		e.guardAfter(gctx, fi.guard, s.settings.stopBlockCap, out)
		cancel()
	}

	// Void hooks of a void event run now; observe hooks see the outcome.
	if len(ent.parallel) > 0 {
		if spec.Strategy == Void {
			fi.runParallel(ent.parallel, PhaseVoid, m.payload, state)
		} else {
			f.obs = *out // what observe hooks see: the outcome before them
			fi.obs = &f.obs
			fi.runParallel(ent.parallel, PhaseObserve, m.payload, state)
			fi.obs = nil
		}
	}
}

func (e *Engine) releaseFire(f *fireState) {
	f.eval.Within(nil, 0)
	if f.nmemo > 0 {
		f.memo, f.nmemo = [8]condMemo{}, 0
	}
	f.m.reset()
	f.obs, f.out = Outcome{}, Outcome{}
	f.call = Call{}
	if len(f.state.m) > 0 {
		f.state.reset()
	}
	e.firePool.Put(f)
}

// staticTrace records a declarative hook's result.
func staticTrace(spec *EventSpec, p *prepared, tr *HookTrace) {
	tr.Status = StatusRan
	if !p.empty() {
		tr.Status, tr.Output = StatusDecided, p.res
		tr.Decision, tr.Reason = Decision(p.decisionString(spec)), p.reasonString()
	}
}

func newTrace(h *compiledHook, phase Phase) HookTrace {
	return HookTrace{ID: h.ID, Handler: h.kind, Phase: phase, Priority: h.Priority, Source: h.Source, Layer: h.Layer}
}

// admit checks the hook's switch, matcher and condition. It returns a skip
// reason, or an error when the condition could not be evaluated.
func (f *fireState) admit(h *compiledHook, spec *EventSpec, payload map[string]any, state *State) (string, error) {
	if h.Disabled {
		return SkipDisabled, nil
	}
	if m := h.matchers[spec.MatcherMode]; m != nil && !m.matchPayload(spec, payload) {
		return SkipMatcher, nil
	}
	if h.cond == nil {
		return "", nil
	}
	var ok bool
	var err error
	if f.off == 0 || !f.off.Has(fastpath.CondSharedAtoms) {
		f.eval.Within(payload, f.m.payloadGen)
	}
	memo := f.off == 0 || !f.off.Has(fastpath.EngineCondMemo)
	if h.cond.UsesState() {
		state.mu.RLock()
		ok, err = f.eval.Eval(h.cond, payload, state.m)
		state.mu.RUnlock()
	} else if m := f.recall(h.cond, payload); memo && m != nil {
		ok, err = m.ok, m.err
	} else {
		ok, err = f.eval.Eval(h.cond, payload, nil)
		if memo {
			f.remember(h.cond, payload, ok, err)
		}
	}
	if err != nil {
		return "", err
	}
	if !ok {
		return SkipCondition, nil
	}
	return "", nil
}

// condMemo is one remembered condition result.
type condMemo struct {
	cond    *conditions.Program
	payload uintptr
	gen     uint64
	ok      bool
	err     error
}

// mapID is a map's identity (two maps are the same map, not equal ones).
func mapID(m map[string]any) uintptr { return uintptr(reflect.ValueOf(m).UnsafePointer()) }

// recall returns the remembered result of cond on payload in this fire:
// the same map, not written since (the chain's rewrites bump the
// merger's payloadGen).
func (f *fireState) recall(cond *conditions.Program, payload map[string]any) *condMemo {
	if f.nmemo == 0 {
		return nil
	}
	id, gen := mapID(payload), f.m.payloadGen
	for i := range min(f.nmemo, len(f.memo)) {
		if m := &f.memo[i]; m.cond == cond && m.payload == id && m.gen == gen {
			return m
		}
	}
	return nil
}

// remember keeps a result for the rest of the fire (the oldest goes when
// the memo is full).
func (f *fireState) remember(cond *conditions.Program, payload map[string]any, ok bool, err error) {
	f.memo[f.nmemo%len(f.memo)] = condMemo{cond: cond, payload: mapID(payload), gen: f.m.payloadGen, ok: ok, err: err}
	f.nmemo++
}

// execute runs one hook with its timeout and error policy and records what
// happened in tr. It returns the result to merge: the hook's own, or under
// a fail-closed policy (when canBlock) a blocking result naming the hook.
// With prep, the result's fields are read as prep loads it (one pass over
// them, where reading them and then loading them took two); the prepared
// result returned beside it holds the result returned (prep, or a
// constant's reading: Call.Constant), or is nil.
func (e *Engine) execute(ctx context.Context, s *snapshot, spec *EventSpec, h *compiledHook, call *Call, tr *HookTrace, canBlock bool, prep *prepared) (_ Result, held *prepared) {
	// Sync hooks sit on hot paths and, as in OpenClaw, get no deadline
	// unless the hook sets one.
	timeout := h.Timeout
	if timeout <= 0 && spec.Strategy != Sync {
		timeout = s.settings.defaultTimeout
		if timeout <= 0 {
			timeout = spec.DefaultTimeout
		}
		if timeout <= 0 {
			timeout = fallbackTimeout
		}
	}
	call.Timeout = timeout
	attempts := 1
	if h.OnError.Policy == ErrorRetry && h.OnError.Attempts > 1 {
		attempts = h.OnError.Attempts
	}
	start := call.now()
	var res Result
	var err error
	for a := 1; ; a++ {
		switch {
		case timeout <= 0:
			call.Deadline = time.Time{}
		case a == 1:
			call.Deadline = start.Add(timeout)
		default:
			call.Deadline = time.Now().Add(timeout)
		}
		res, err = e.invoke(ctx, h, call, timeout)
		if err == nil || a >= attempts || ctx.Err() != nil {
			if attempts > 1 {
				tr.Attempts = a
			}
			break
		}
		if !sleepCtx(ctx, h.OnError.Backoff<<(a-1)) {
			tr.Attempts = a
			break
		}
	}
	// A hook that ends cleanly in a quiet fire leaves no trace (traced), so
	// it is not timed unless its trace is kept after all (a merge note).
	if !call.untimed {
		tr.Duration = time.Since(start)
	}
	call.started = start
	e.hooksRun.Add(1)
	var f resultFields
	var blocking Result // what blocks in a result whose decision failed
	read := func(r Result) (f resultFields) {
		if prep == nil {
			return fieldsOf(r)
		}
		held = prep
		prep.loadSeeing(r, &f)
		return f
	}
	var constant *PreparedResult
	if err == nil && !h.wrapped && !e.off.Has(fastpath.EngineConstant) {
		// Read once, when the handler prepared it.
		constant = call.constantOf(res)
	}
	switch {
	case constant != nil && constant.info.canonical() && (h.declared || !constant.info.toRead(spec)):
		f = constant.info
		if prep != nil {
			held = &constant.p
		}
	case err == nil:
		f = read(res)
		if !f.canonical() {
			// (A declarative result is canonical from its registration,
			// unless a middleware returned another.)
			res = canonicalResult(spec, res)
			f = read(res)
		}
		if !h.declared && f.toRead(spec) {
			held = nil // another result, unless it failed
			if res, f, err = readResult(spec, res, f, e.readOutput); err != nil {
				blocking = blockingFields(spec, res)
			}
		}
	}
	if err != nil {
		if call.untimed {
			tr.Duration = time.Since(start)
		}
		if fr := e.failed(spec, h, tr, err, canBlock); fr != nil || blocking == nil {
			return fr, nil
		}
		// The hook failed (its trace says why, and its on_error did not
		// block), but what else in its result blocks still does:
		// continue: false or OpenClaw's block beside a malformed decision.
		return blocking, nil
	}
	if given(f.ignored) {
		// Dropped as Claude Code drops it, but never unsaid: the trace
		// keeps a note and stderr a warning.
		tr.Note = fmt.Sprintf("dropped, as %s reads only its own channel: %v", spec.Name, f.ignored)
		e.log.Warn("hook output gave a decision in a channel its event does not read; it was dropped", "hook", h.ID, "event", spec.Name, "ignored", f.ignored)
	}
	if len(res) == 0 {
		tr.Status = StatusRan
		return nil, nil
	}
	tr.Status = StatusDecided
	tr.Output = res
	d, _ := f.dec.(string)
	tr.Decision = Decision(d)
	tr.Reason, _ = f.reason.(string)
	if !canBlock && spec.DecisionField != "" && spec.DecisionField != fieldDecision {
		// A void, observe or background hook: the trace a declarative
		// hook's result gets (staticTrace), and a chain hook's (run):
		// canonical names, the event's decision field.
		var p prepared
		p.load(res)
		tr.Output, tr.Decision, tr.Reason = p.res, Decision(p.decisionString(spec)), p.reasonString()
	}
	return res, held
}

// DecisionError is a hook's result whose decision is not one of its
// event's ("DENY", "deny ", a number, an object that is not Claude Code's
// decision object): the hook failed, and its on_error applies, rather
// than its decision vanishing unseen.
type DecisionError struct {
	Event    string
	Decision any
	Accepts  []string
}

func (e *DecisionError) Error() string {
	return fmt.Sprintf("the hook returned the decision %s, which is not one of %s's (%s)", jsonText(e.Decision), e.Event, strings.Join(e.Accepts, ", "))
}

// jsonText is v as JSON, for messages.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

// readResult reads a handler's result: Claude Code's own output shapes
// (hookSpecificOutput, with permissionDecision or PermissionRequest's
// decision object) are read onto the result's names as a command hook's
// stdout is, and a decision that is not one of the event's is a
// *DecisionError. A result without those fields is returned as it is.
// res is in canonical form (canonicalResult) and f is fieldsOf(res); the
// fields of the result returned come with it.
func readResult(spec *EventSpec, res Result, f resultFields, read func(string, map[string]any) Result) (Result, resultFields, error) {
	if !f.toRead(spec) {
		return res, f, nil
	}
	hso, hasHSO := f.hso, f.hasHSO
	dec, hasDec := f.dec, f.hasDec
	res, err := readOutputShapes(spec, res, hso, hasHSO, dec, hasDec, read)
	if err != nil {
		return res, resultFields{}, err // res as far as it was read, for blockingFields
	}
	return res, fieldsOf(res), nil
}

// resultFields is what one pass over a result's fields finds: the fields
// readResult and a hook's trace read, and whether canonicalResult has
// work to do. A result is a few fields: one pass costs less than a
// look-up of each.
type resultFields struct {
	hso, dec, reason any
	hasHSO, hasDec   bool
	// alias: a name other than hookSpecificOutput is in camelCase;
	// typed: a value is one of Go's types canonicalResult reads.
	alias, typed bool
	// ignored lists what a host's reading dropped (a decision in a
	// channel the event does not read).
	ignored any
}

// toRead reports whether readResult has work to do: Claude Code's output
// shapes, or a decision that is not one of the event's.
func (f *resultFields) toRead(spec *EventSpec) bool {
	return f.hasHSO || f.hasDec && !acceptedDecision(spec, f.dec)
}

// canonical reports whether the result needs no canonicalResult.
func (f *resultFields) canonical() bool {
	_, hsoObj := f.hso.(map[string]any)
	return !f.alias && !f.typed && (!f.hasHSO || hsoObj)
}

// fieldsOf reads res's fields once (prepared.load reads them as it
// prepares a result).
func fieldsOf(res Result) (f resultFields) {
	for k, v := range res {
		f.see(k, v)
	}
	return f
}

// see reads one field of a result.
func (f *resultFields) see(k string, v any) {
	switch k {
	case "hookSpecificOutput":
		f.hso, f.hasHSO = v, true
	case fieldDecision:
		f.dec, f.hasDec = v, true
	case fieldReason:
		f.reason = v
	case "ignored":
		f.ignored = v
	}
	if !f.alias && k != "hookSpecificOutput" && hasUpper(k) {
		f.alias = true
	}
	if !f.typed {
		f.typed = typedValue(k, v)
	}
}

// typedValue reports whether v is a value canonicalResult reads from Go's
// types: a Decision, a Result or a map[string]string, or such a value in
// hookSpecificOutput or a decision object.
func typedValue(k string, v any) bool {
	switch x := v.(type) {
	case Decision, Result, map[string]string:
		return true
	case map[string]any:
		if k == "hookSpecificOutput" || k == fieldDecision {
			_, typed := plainMap(x, 3)
			return typed
		}
	}
	return false
}

// blockingFields are the fields of res that block, stop or ask by
// themselves (continue: false, OpenClaw's block and cancel: a sticky
// terminal rule that blocks; require_approval), with their reasons and
// stop_reason; nil when it has none.
func blockingFields(spec *EventSpec, res Result) Result {
	var out Result
	for k, v := range res {
		r, _ := spec.ruleOf(k)
		blocks := r.Rule == MergeSticky && r.Blocks && r.Terminal && valueEqual(v, stickyValue(r))
		if !blocks && !(r.Ask && given(v)) {
			continue
		}
		if out == nil {
			out = Result{}
		}
		out[k] = v
		for _, why := range []string{k + "_reason", "stop_reason"} {
			if rv, ok := res[why]; ok {
				out[why] = rv
			}
		}
	}
	return out
}

// bothChannels settles, for an engine without an output reader (one that
// knows which channel each event reads), a result that gives a decision
// in more than one of Claude Code's channels: the top-level decision,
// hookSpecificOutput's permissionDecision (PreToolUse's) and its decision
// or decision.behavior (PermissionRequest's). ClaudeOutput took
// hookSpecificOutput's, permissionDecision last; here the most
// restrictive of the event's decisions among them stands, with its
// channel's reason: a deny in any never becomes an allow.
func bothChannels(spec *EventSpec, raw, hso map[string]any, res Result) {
	type channel struct{ v, reason any }
	var chans []channel
	add := func(v, reason any) {
		if given(v) {
			chans = append(chans, channel{v, reason})
		}
	}
	add(raw[fieldDecision], raw[fieldReason])
	add(hso["permissionDecision"], hso["permissionDecisionReason"])
	add(behaviorOf(hso["decision"]))
	if len(chans) < 2 {
		return
	}
	best := -1
	for i, c := range chans {
		if spec.isDecision(c.v) && (best < 0 || spec.moreRestrictive(c.v, chans[best].v)) {
			best = i
		}
	}
	if best < 0 {
		return
	}
	res[fieldDecision] = legacyDecision(chans[best].v)
	if given(chans[best].reason) {
		res[fieldReason] = chans[best].reason
	}
}

// canonicalResult is a handler's result with every field under its
// snake_case name ("Decision", "permissionDecision" are "decision"),
// hookSpecificOutput kept for readResult (a null one is none, and
// dropped). A field given under several spellings is read once, the same
// way on every call: an empty value (null, "") says nothing; of the
// decisions, the most restrictive of the event's stands, with the reason
// given beside it (permissionDecisionReason beside permissionDecision);
// of any other field, the snake_case spelling's value, else the first
// spelling's by name. res is not modified, and is returned as it is when
// every name is already canonical.
func canonicalResult(spec *EventSpec, res Result) Result {
	f := fieldsOf(res)
	if f.canonical() {
		return res
	}
	if f.typed {
		// Go's typed values are read as the JSON they stand for.
		plain := make(Result, len(res))
		for k, v := range res {
			plain[k], _ = plainValue(v)
		}
		res = plain
	}
	out := make(Result, len(res))
	spellings := map[string][]string{}
	for _, k := range slices.Sorted(maps.Keys(res)) {
		if k == "hookSpecificOutput" {
			if keepSpecificOutput(res) {
				out[k] = res[k]
			}
			continue
		}
		c := canonicalField(k)
		spellings[c] = append(spellings[c], k)
	}
	decisionKey := ""
	if ks := spellings[fieldDecision]; len(ks) > 0 {
		decisionKey = pickDecision(spec, res, ks)
		out[fieldDecision] = res[decisionKey]
	}
	for c, ks := range spellings {
		switch {
		case c == fieldDecision:
		case c == fieldReason && decisionKey == "permissionDecision" && given(res["permissionDecisionReason"]):
			out[c] = res["permissionDecisionReason"]
		default:
			out[c] = res[pickSpelling(res, c, ks)]
		}
	}
	return out
}

// plainValue is a Go handler's typed value as the JSON it stands for: a
// Decision is its string, a Result or a map[string]string a
// map[string]any, and so on in the maps within, a few levels down (a
// decision object in hookSpecificOutput). It reports whether v was typed
// so; an untyped map is returned as it is.
func plainValue(v any) (any, bool) { return plainDepth(v, 4) }

func plainDepth(v any, depth int) (any, bool) {
	switch x := v.(type) {
	case Decision:
		return string(x), true
	case Result:
		m, _ := plainMap(x, depth)
		return m, true
	case map[string]string:
		m := make(map[string]any, len(x))
		for k, s := range x {
			m[k] = s
		}
		return m, true
	case map[string]any:
		return plainMap(x, depth)
	}
	return v, false
}

// plainMap is m with its values read as plainValue reads them; m itself
// when none is typed.
func plainMap(m map[string]any, depth int) (map[string]any, bool) {
	if depth <= 0 {
		return m, false
	}
	var out map[string]any
	for k, v := range m {
		pv, typed := plainDepth(v, depth-1)
		if !typed {
			continue
		}
		if out == nil {
			out = maps.Clone(m)
		}
		out[k] = pv
	}
	if out == nil {
		return m, false
	}
	return out, true
}

// keepSpecificOutput reports whether res's hookSpecificOutput is read: an
// object is; one that is empty (null, false, "", 0, an empty list, as
// `cond && {...}` gives) is none; any other value is a failure of the
// hook unless the result decides at its top level, which then stands (as
// a command hook printing it is read).
func keepSpecificOutput(res Result) bool {
	switch v := res["hookSpecificOutput"].(type) {
	case map[string]any:
		return true
	case nil:
		return false
	case bool:
		if !v {
			return false
		}
	case string:
		if v == "" {
			return false
		}
	case float64:
		if v == 0 {
			return false
		}
	case int:
		if v == 0 {
			return false
		}
	case int64:
		if v == 0 {
			return false
		}
	case json.Number:
		if f, err := v.Float64(); err == nil && f == 0 {
			return false
		}
	case []any:
		if len(v) == 0 {
			return false
		}
	}
	for k, v := range res {
		if canonicalField(k) == fieldDecision && given(v) {
			return false
		}
	}
	return true
}

// given reports whether a result value says something (not null, not "").
func given(v any) bool { return v != nil && v != "" }

// pickSpelling is the spelling of field c that canonicalResult reads: the
// only one that says something, else c itself when it does, else the
// first that does (ks is in name order), else c or the first.
func pickSpelling(res Result, c string, ks []string) string {
	if len(ks) == 1 {
		return ks[0]
	}
	first := ""
	for _, k := range ks {
		if given(res[k]) {
			if k == c {
				return k
			}
			if first == "" {
				first = k
			}
		}
	}
	if first != "" {
		return first
	}
	if slices.Contains(ks, c) {
		return c
	}
	return ks[0]
}

// pickDecision is the spelling of the decision canonicalResult reads: of
// those that say something, the one most restrictive of the event's
// decisions (an object's behavior counts), else pickSpelling's.
func pickDecision(spec *EventSpec, res Result, ks []string) string {
	best, bestV := "", any(nil)
	for _, k := range ks {
		v, _ := behaviorOf(res[k])
		if spec.isDecision(v) && (best == "" || spec.moreRestrictive(v, bestV)) {
			best, bestV = k, v
		}
	}
	if best != "" {
		return best
	}
	return pickSpelling(res, fieldDecision, ks)
}

// behaviorOf is a decision value as it decides: a decision object's
// behavior (and its message), else the value itself.
func behaviorOf(v any) (decision, message any) {
	if obj, ok := v.(map[string]any); ok {
		return obj["behavior"], obj["message"]
	}
	return v, nil
}

// readOutputShapes is readResult for a result with hookSpecificOutput or
// a decision that is not a plain accepted one. With an error it returns
// the result as far as it was read.
func readOutputShapes(spec *EventSpec, res Result, hso any, hasHSO bool, dec any, hasDec bool, read func(string, map[string]any) Result) (Result, error) {
	if hasHSO {
		if _, ok := hso.(map[string]any); !ok {
			return res, fmt.Errorf("the hook returned hookSpecificOutput %s, which is not an object", jsonText(hso))
		}
		// Read as a command hook's stdout is (read, WithOutputReader;
		// else ClaudeOutput): hookSpecificOutput's decision and reason
		// over the top-level ones (res's names are canonical already:
		// canonicalResult).
		if read == nil {
			raw := res
			res = ClaudeOutput(raw)
			bothChannels(spec, raw, hso.(map[string]any), res)
		} else {
			res = read(spec.Name, res)
		}
		dec, hasDec = res[fieldDecision]
	}
	if obj, ok := dec.(map[string]any); ok {
		// PermissionRequest's decision: { behavior, updatedInput, message }.
		b, isStr := obj["behavior"].(string)
		if !isStr {
			return res, &DecisionError{Event: spec.Name, Decision: dec, Accepts: spec.Decisions}
		}
		out := maps.Clone(res)
		out[fieldDecision] = b
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			v := obj[k]
			switch c := canonicalField(k); {
			case k == "behavior", c == fieldDecision:
				// The behavior is the decision: no other key of the
				// object overrides it.
			case k == "message":
				out[fieldReason], out["message"] = v, v
			default:
				out[c] = v
			}
		}
		res, dec = out, b
	}
	if !hasDec || acceptedDecision(spec, dec) {
		return res, nil
	}
	return res, &DecisionError{Event: spec.Name, Decision: dec, Accepts: spec.Decisions}
}

// acceptedDecision reports whether a decision is none (nil, ""), one the
// event accepts (legacy spellings included), or a decision word of the
// catalog that this event does not take ("ask" on PermissionRequest,
// "allow" on UserPromptSubmit), which the merge ignores with a note as
// Claude Code ignores it. Anything else is no decision at all.
func acceptedDecision(spec *EventSpec, v any) bool {
	s, ok := v.(string)
	if !ok {
		return v == nil
	}
	return s == "" || decisionWords[s] || spec.AcceptsDecision(s)
}

// decisionWords are the decisions of the built-in catalog, and the legacy
// approve.
var decisionWords = map[string]bool{
	string(DecisionDeny): true, string(DecisionBlock): true, string(DecisionCancel): true,
	string(DecisionAsk): true, string(DecisionDefer): true, string(DecisionAllow): true,
	string(DecisionPass): true, string(DecisionFinalize): true, string(DecisionRevise): true,
	string(DecisionContinue): true, "approve": true,
}

// failed records a hook that could not run or failed, and applies its
// error policy.
func (e *Engine) failed(spec *EventSpec, h *compiledHook, tr *HookTrace, err error, canBlock bool) Result {
	if errors.Is(err, context.DeadlineExceeded) {
		tr.Status = StatusTimeout
		e.timeouts.Add(1)
	} else {
		tr.Status = StatusError
	}
	e.hookErrs.Add(1)
	tr.Error = err.Error()
	if _, ok := errors.AsType[*PanicError](err); ok {
		tr.Panic = true
	}
	if st, ok := errors.AsType[StackTracer](err); ok {
		tr.Stack = st.StackTrace()
	}
	e.log.Warn("hook failed", "hook", h.ID, "event", spec.Name, "status", string(tr.Status), "error", err)
	closed := h.OnError.Policy == ErrorBlock || h.OnError.Policy != ErrorIgnore && spec.FailClosed
	if !closed || !canBlock {
		return nil
	}
	d := spec.blockDecision()
	if d == "" {
		tr.Note = "on_error=block has no effect: " + spec.Name + " takes no blocking decision"
		return nil
	}
	tr.FailClosed = true
	tr.Decision = Decision(d)
	tr.Reason = fmt.Sprintf("hook %q could not run (%s): %v", h.ID, tr.Status, err)
	return Result{fieldDecision: d, fieldReason: tr.Reason}
}

// invoke calls the handler once, with the hook's timeout as a context
// deadline (unless the handler enforces it itself), recovering panics.
func (e *Engine) invoke(ctx context.Context, h *compiledHook, call *Call, timeout time.Duration) (res Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, &PanicError{Value: r, Stack: string(debug.Stack())}
		}
	}()
	if h.selfTimed || timeout <= 0 {
		res, err = h.Handler.Handle(ctx, call)
		if err != nil && errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			var te *TimeoutError
			if !errors.As(err, &te) {
				err = fmt.Errorf("%w: %w", &TimeoutError{Hook: h.ID, Timeout: timeout}, err)
			}
		}
		return res, err
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel() // a panicking hook too: its timer must not outlive it
	res, err = h.Handler.Handle(tctx, call)
	if tctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
		// The hook's own deadline passed: whatever it returned came too
		// late, and its context has been cancelled.
		res, err = nil, &TimeoutError{Hook: h.ID, Timeout: timeout}
	}
	return res, err
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// runParallel runs void or observe hooks: conditions are checked here,
// cheap (inline) handlers run on this goroutine, the rest on the worker
// pool, and runParallel waits for all of them.
func (fi *firing) runParallel(hooks []*compiledHook, phase Phase, payload map[string]any, state *State) {
	e, ctx, spec, out := fi.e, fi.ctx, fi.spec, fi.out
	// run lists the hooks traced from base on, in their order; a skipped
	// hook is in it only when its trace is kept (with a nil entry). The
	// traces are out.Hooks[base:], or, when the fire keeps only some,
	// the fire's scratch list, sorted once every hook is done.
	traces := &out.Hooks
	if fi.quiet {
		traces = &fi.f.partr
	}
	base := len(*traces)
	run := fi.f.par[:0]
	pooled := 0
	for _, h := range hooks {
		skip, cerr := fi.f.admit(h, spec, payload, state)
		if skip != "" {
			if fi.skips {
				run = append(run, nil)
			}
			fi.skipped(h, phase, skip)
			continue
		}
		tr := newTrace(h, phase)
		switch {
		case cerr != nil:
			e.failed(spec, h, &tr, fmt.Errorf("condition: %w", cerr), false)
		case !h.inline:
			pooled++
		}
		run = append(run, h)
		if fi.quiet {
			*traces = append(*traces, tr)
			continue
		}
		fi.traced(&tr)
		if cerr != nil && e.obs != nil {
			fi.hookDone(ctx, &out.Hooks[len(out.Hooks)-1], payload)
		}
	}
	fi.f.par = run
	// A hook that fires another event from a pool worker must not wait
	// for a pool slot: run nested fires inline.
	inlineAll := pooled == 0 || ctx.Value(workerKey{}) != nil
	var wg *sync.WaitGroup
	if !inlineAll {
		wg = new(sync.WaitGroup)
		wctx := context.WithValue(ctx, workerKey{}, true)
		for i, h := range run {
			tr := &(*traces)[base+i]
			if h == nil || tr.Status != "" || h.inline {
				continue
			}
			t := e.taskPool.Get().(*task)
			*t = task{ctx: wctx, snap: fi.snap, spec: spec, h: h, tr: tr, wg: wg, call: fi.call(h, payload, state)}
			wg.Add(1)
			if err := e.workers.submit(t); err != nil {
				wg.Done()
				e.taskPool.Put(t)
				// The pool is gone (closing): run it here.
				fi.runInline(h, payload, state, tr)
			}
		}
	}
	for i, h := range run {
		if h == nil || !h.inline && !inlineAll {
			continue // skipped, or on the pool: its trace belongs to the worker now
		}
		tr := &(*traces)[base+i]
		if tr.Status != "" {
			continue
		}
		if h.static != nil {
			// Declarative: no code to run, nothing to time.
			staticTrace(spec, h.static, tr)
			e.hooksRun.Add(1)
			if e.obs != nil {
				fi.hookDone(ctx, tr, payload)
			}
			continue
		}
		fi.runInline(h, payload, state, tr)
	}
	clear(run)
	if wg != nil {
		wg.Wait()
	}
	if fi.quiet {
		// Every hook is done: keep the traces that say something.
		for i := base; i < len(*traces); i++ {
			fi.traced(&(*traces)[i])
		}
		clear(*traces)
		*traces = (*traces)[:0]
	}
}

// runInline runs a void or observe hook on the firing goroutine.
func (fi *firing) runInline(h *compiledHook, payload map[string]any, state *State, tr *HookTrace) {
	call := &fi.f.call
	*call = fi.call(h, payload, state)
	fi.e.execute(fi.ctx, fi.snap, fi.spec, h, call, tr, false, nil)
	if fi.e.obs != nil {
		fi.hookDone(fi.ctx, tr, payload)
	}
}

// runTask is the worker pool's function.
func (e *Engine) runTask(t *task) {
	if t.bg {
		e.runBackground(t)
		return
	}
	e.execute(t.ctx, t.snap, t.spec, t.h, &t.call, t.tr, false, nil)
	if e.obs != nil {
		e.taskDone(t.ctx, t, t.tr)
	}
	wg := t.wg
	*t = task{}
	e.taskPool.Put(t)
	wg.Done()
}

// queueBackground checks the background hooks' matchers and conditions and
// queues those that apply. They get their own copy of the payload and of
// the state, since they outlive the fire, and the fire's context values
// without its cancellation.
func (fi *firing) queueBackground(hooks []*compiledHook, payload map[string]any, stateSnap map[string]any) {
	e, spec := fi.e, fi.spec
	var own map[string]any
	for _, h := range hooks {
		skip, cerr := fi.f.admit(h, spec, payload, &fi.f.state)
		if skip != "" {
			fi.skipped(h, PhaseBackground, skip)
			continue
		}
		tr := newTrace(h, PhaseBackground)
		switch {
		case cerr != nil:
			e.failed(spec, h, &tr, fmt.Errorf("condition: %w", cerr), false)
		default:
			if own == nil {
				own = deepCopy(payload).(map[string]any)
			}
			t := e.taskPool.Get().(*task)
			*t = task{ctx: fi.ctx, snap: fi.snap, spec: spec, h: h, bg: true, call: fi.call(h, own, NewState(stateSnap))}
			e.bgPending.Add(1)
			if err := e.workers.enqueue(fi.ctx, t); err != nil {
				*t = task{}
				e.taskPool.Put(t)
				e.bgPending.Add(-1)
				e.bgDropped.Add(1)
				e.log.Warn("background hook dropped", "hook", h.ID, "event", spec.Name, "error", err)
				tr.Status, tr.Error = StatusError, err.Error()
			} else {
				e.bgQueued.Add(1)
				tr.Status = StatusQueued
			}
		}
		out := fi.out
		fi.traced(&tr)
		if e.obs != nil && (tr.Status == StatusError || tr.Status == StatusTimeout) {
			// Not queued: the condition failed, or the queue was full.
			fi.hookDone(fi.ctx, &out.Hooks[len(out.Hooks)-1], payload)
		}
	}
}

func (e *Engine) runBackground(t *task) {
	defer e.workers.pending.Done()
	defer e.bgPending.Add(-1)
	if err := e.workers.bgCtx.Err(); err != nil {
		e.bgDropped.Add(1)
		e.log.Warn("background hook dropped at shutdown", "hook", t.h.ID, "event", t.spec.Name, "error", err)
		*t = task{}
		e.taskPool.Put(t)
		return
	}
	tr := newTrace(t.h, PhaseBackground)
	ctx, cancel := e.workers.backgroundContext(t.ctx)
	defer cancel()
	e.execute(context.WithValue(ctx, workerKey{}, true), t.snap, t.spec, t.h, &t.call, &tr, false, nil)
	if e.obs != nil {
		e.backgroundDone(t, tr)
	}
	e.bgDone.Add(1)
	*t = task{}
	e.taskPool.Put(t)
}

// dropBackground records a queued task the pool refused.
func (e *Engine) dropBackground(t *task, err error) {
	e.bgPending.Add(-1)
	e.bgDropped.Add(1)
	e.log.Warn("background hook dropped", "hook", t.h.ID, "event", t.spec.Name, "error", err)
	e.workers.pending.Done()
	*t = task{}
	e.taskPool.Put(t)
}

// finish fills the outcome's top-level fields from the merged output.
func (m *merger) finish(o *Outcome) {
	m.flush()
	m.equivalents()
	o.Output = m.out
	// One pass over the merged fields (a few) rather than a look-up of
	// each field the outcome names.
	dk := m.spec.decisionField()
	for k, v := range m.out {
		if k == dk {
			d, _ := v.(string)
			o.Decision = Decision(d)
		}
		switch k {
		case fieldReason:
			o.Reason, _ = v.(string)
		case fieldContinue:
			if c, ok := v.(bool); ok && !c {
				o.Continue = false
			}
		case "stop_reason":
			o.StopReason, _ = v.(string)
		case "updated_input":
			if ui, ok := v.(map[string]any); ok {
				o.UpdatedInput = ui
			}
		case "additional_context":
			o.AdditionalContext, _ = v.(string)
		case "system_message":
			o.SystemMessage, _ = v.(string)
		}
	}
	o.Blocked = m.blocked || !o.Continue
}

// equivalents expresses the fields of another vocabulary that mean a
// decision or a rewrite (OpenClaw's block, cancel, blockReason, params and
// requireApproval on an event Claude Code shares) as the event's own
// decision, reason and updated_input, so that every host's reply carries
// them: a block is the event's blocking decision with its reason, params
// the rewritten input, requireApproval an ask.
//
// Only events Claude Code defines, which OpenClaw's names alias, are
// translated: on OpenClaw's own events (message_sending, before_install,
// ...) the host reads its fields itself.
func (m *merger) equivalents() {
	spec := m.spec
	if m.out == nil || spec.Source != SourceClaudeCode {
		return
	}
	equiv := spec.merge().equiv
	if len(equiv) == 0 {
		return
	}
	key := spec.decisionField()
	cur, _ := m.out[key].(string)
	// By field name: when two fields block, the first one's reason is the
	// outcome's, the same on every fire.
	for _, eq := range equiv {
		field, rule := eq.field, eq.rule
		v, set := m.out[field]
		if !set || v == nil {
			continue
		}
		switch {
		case rule.Rule == MergeSticky && rule.Blocks && rule.Terminal && valueEqual(v, stickyValue(rule)):
			d := spec.blockDecision()
			if d == "" || cur == d {
				continue
			}
			m.out[key], cur = d, d
			m.decRank = slices.Index(spec.Decisions, d)
			reason, _ := m.out[field+"_reason"].(string)
			if reason == "" {
				reason, _ = m.out[fieldReason].(string)
			}
			if reason == "" {
				reason = fmt.Sprintf("blocked by hook %q (%s)", m.stoppedBy, field)
			}
			m.out[fieldReason] = reason
		case rule.Input:
			if _, has := m.out["updated_input"]; !has {
				if in, ok := v.(map[string]any); ok {
					m.out["updated_input"] = in
				}
			}
		case rule.Ask:
			rank := slices.Index(spec.Decisions, "ask")
			if rank < 0 || m.decRank >= 0 && m.decRank <= rank {
				continue
			}
			m.out[key], cur = "ask", "ask"
			m.decRank = rank
			m.out[fieldReason] = approvalReason(v)
		}
	}
}

// stickyValue is the value a sticky rule keeps (true when unset).
func stickyValue(r FieldRule) any {
	if r.Value == nil {
		return true
	}
	return r.Value
}

// approvalReason is the text of an OpenClaw requireApproval object.
func approvalReason(v any) string {
	if o, ok := v.(map[string]any); ok {
		for _, k := range []string{"title", "description", "reason"} {
			if s, _ := o[k].(string); s != "" {
				return s
			}
		}
	}
	if s, ok := v.(string); ok && s != "" {
		return s
	}
	return "a hook requires approval"
}

// writeAudit writes the record of a fire to the audit_log file and the
// WithAuditLog writer, those of the two that are set.
func (e *Engine) writeAudit(file, w *auditSink, o *Outcome) {
	body, err := json.Marshal(o)
	if err != nil || len(body) < 2 {
		e.log.Warn("audit record not written", "error", err)
		return
	}
	b := make([]byte, 0, len(body)+48)
	b = append(b, `{"time":"`...)
	b = time.Now().UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, `",`...)
	b = append(b, body[1:]...)
	b = append(b, '\n')
	for _, sink := range [2]*auditSink{file, w} {
		if sink == nil {
			continue
		}
		sink.mu.Lock()
		_, err = sink.w.Write(b)
		sink.mu.Unlock()
		if err != nil {
			e.log.Warn("audit record not written", "event", o.Event, "error", err)
		}
	}
}

// deepCopy copies JSON-like values (maps and slices); anything else is
// shared.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(x))
		for k, v := range x {
			c[k] = deepCopy(v)
		}
		return c
	case []any:
		c := make([]any, len(x))
		for i, v := range x {
			c[i] = deepCopy(v)
		}
		return c
	}
	return v
}
