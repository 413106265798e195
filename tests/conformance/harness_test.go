package conformance_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
)

// row is one conformance check: the system rule it checks, where the rule
// is written down, the hooks to register and the fires to make.
type row struct {
	// rule names the system rule, e.g. "Claude Code: PreToolUse deny >
	// defer > ask > allow".
	rule string
	// cite is a short citation of the reference section.
	cite string
	// opts configure the engine (nil: defaults).
	opts []engine.Option
	// hooks are registered in order (registration order breaks priority
	// ties).
	hooks []hk
	// event, payload and want describe a single fire; fires describes a
	// sequence of fires on one engine instead.
	event   string
	payload map[string]any
	want    want
	fires   []step
}

// step is one fire of a multi-fire row.
type step struct {
	event   string
	payload map[string]any
	want    want
}

// hk is one hook of a row. The handler is fn when set, otherwise the
// declarative (static) result (nil: a hook that returns nothing).
type hk struct {
	id         string
	event      string
	events     []string
	priority   int
	matcher    string
	when       string
	result     engine.Result
	fn         handlerFn
	onError    engine.ErrorPolicy
	timeout    time.Duration
	observe    bool
	background bool
	disabled   bool
}

type handlerFn func(ctx context.Context, c *engine.Call) (engine.Result, error)

// want is the expected outcome of one fire. Decision, reason, blocked,
// continue, stop reason, updated input, additional context and system
// message are always compared; the other fields only when set.
type want struct {
	// err: Fire must return an error (nothing else is checked).
	err bool
	// event is the canonical event name the outcome must report.
	event    string
	decision string
	// anyDecision: the decision is not compared.
	anyDecision bool
	reason      string
	// reasonHas replaces the exact reason comparison by a substring test.
	reasonHas string
	blocked   bool
	// halted: continue must be false.
	halted       bool
	stopReason   string
	updatedInput map[string]any
	context      string
	sysMsg       string
	// output lists merged fields that must hold these values; the value
	// absent means the field must not be there.
	output map[string]any
	// noOutput: nothing may be merged at all (void events).
	noOutput bool
	// state lists ctx.state keys that must hold these values.
	state map[string]any
	// hooks lists traces to check (other hooks are not checked).
	hooks []tr
	// order is the exact order of hook ids in the trace.
	order []string
	// guard is the expected Stop loop guard report.
	guard *engine.StopGuard
}

// tr is the expected trace of one hook.
type tr struct {
	id         string
	status     engine.Status
	skip       string // exact skip reason
	decision   string // the trace's decision, when set
	note       string // substring of the trace's note, when set
	errHas     string // substring of the trace's error, when set
	phase      engine.Phase
	failClosed bool
}

type absentT struct{}

// absent marks an output field that must not be present.
var absent = absentT{}

// run runs every row as a subtest.
func run(t *testing.T, rows []row) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.rule, func(t *testing.T) { runRow(t, r) })
	}
}

func runRow(t *testing.T, r row) {
	t.Helper()
	if r.rule == "" || r.cite == "" {
		t.Fatalf("row %q must name its rule and cite its reference", r.rule)
	}
	e := newEngine(t, r.opts...)
	for _, h := range r.hooks {
		if err := e.Register(h.hook()); err != nil {
			t.Fatalf("[%s] register %s: %v", r.cite, h.id, err)
		}
	}
	steps := r.fires
	if len(steps) == 0 {
		steps = []step{{event: r.event, payload: r.payload, want: r.want}}
	}
	for i, s := range steps {
		out, err := e.Fire(context.Background(), engine.Event{Name: s.event, Payload: s.payload})
		label := fmt.Sprintf("[%s] fire %d (%s)", r.cite, i+1, s.event)
		if len(steps) == 1 {
			label = fmt.Sprintf("[%s] fire %s", r.cite, s.event)
		}
		check(t, label, s.want, out, err)
	}
}

func (h hk) hook() engine.Hook {
	var handler engine.Handler
	if h.fn != nil {
		handler = engine.HandlerFunc(h.fn)
	} else {
		handler = engine.Static(h.result)
	}
	return engine.Hook{
		ID: h.id, Event: h.event, Events: h.events, Matcher: h.matcher, When: h.when,
		Priority: h.priority, Timeout: h.timeout, OnError: engine.OnError{Policy: h.onError},
		Observe: h.observe, Background: h.background, Disabled: h.disabled, Handler: handler,
	}
}

func check(t *testing.T, label string, w want, out engine.Outcome, err error) {
	t.Helper()
	if w.err {
		if err == nil {
			t.Errorf("%s: want an error, got outcome %s", label, dump(out))
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("%s: %s\noutcome: %s", label, fmt.Sprintf(format, args...), dump(out))
	}
	if w.event != "" && out.Event != w.event {
		fail("event = %q, want %q", out.Event, w.event)
	}
	if !w.anyDecision && string(out.Decision) != w.decision {
		fail("decision = %q, want %q", out.Decision, w.decision)
	}
	if w.reasonHas != "" {
		if !strings.Contains(out.Reason, w.reasonHas) {
			fail("reason = %q, want it to contain %q", out.Reason, w.reasonHas)
		}
	} else if out.Reason != w.reason {
		fail("reason = %q, want %q", out.Reason, w.reason)
	}
	if out.Blocked != w.blocked {
		fail("blocked = %v, want %v", out.Blocked, w.blocked)
	}
	if out.Continue == w.halted {
		fail("continue = %v, want %v", out.Continue, !w.halted)
	}
	if out.StopReason != w.stopReason {
		fail("stop_reason = %q, want %q", out.StopReason, w.stopReason)
	}
	if !reflect.DeepEqual(out.UpdatedInput, w.updatedInput) {
		fail("updated_input = %#v, want %#v", out.UpdatedInput, w.updatedInput)
	}
	if out.AdditionalContext != w.context {
		fail("additional_context = %q, want %q", out.AdditionalContext, w.context)
	}
	if out.SystemMessage != w.sysMsg {
		fail("system_message = %q, want %q", out.SystemMessage, w.sysMsg)
	}
	if w.noOutput && len(out.Output) != 0 {
		fail("output = %v, want nothing merged", out.Output)
	}
	for k, v := range w.output {
		got, ok := out.Output[k]
		switch {
		case v == absent:
			if ok {
				fail("output[%q] = %#v, want it absent", k, got)
			}
		case !ok:
			fail("output[%q] missing, want %#v", k, v)
		case !reflect.DeepEqual(got, v):
			fail("output[%q] = %#v, want %#v", k, got, v)
		}
	}
	for k, v := range w.state {
		if got, ok := out.State[k]; !ok || !reflect.DeepEqual(got, v) {
			fail("state[%q] = %#v, want %#v", k, got, v)
		}
	}
	if w.order != nil {
		var ids []string
		for _, h := range out.Hooks {
			ids = append(ids, h.ID)
		}
		if !reflect.DeepEqual(ids, w.order) {
			fail("trace order = %v, want %v", ids, w.order)
		}
	}
	for _, x := range w.hooks {
		h, ok := out.Hook(x.id)
		if !ok {
			fail("no trace for hook %q", x.id)
			continue
		}
		if h.Status != x.status {
			fail("hook %s: status = %q, want %q", x.id, h.Status, x.status)
		}
		if h.SkipReason != x.skip {
			fail("hook %s: skip_reason = %q, want %q", x.id, h.SkipReason, x.skip)
		}
		if x.decision != "" && string(h.Decision) != x.decision {
			fail("hook %s: decision = %q, want %q", x.id, h.Decision, x.decision)
		}
		if x.note != "" && !strings.Contains(h.Note, x.note) {
			fail("hook %s: note = %q, want it to contain %q", x.id, h.Note, x.note)
		}
		if x.errHas != "" && !strings.Contains(h.Error, x.errHas) {
			fail("hook %s: error = %q, want it to contain %q", x.id, h.Error, x.errHas)
		}
		if x.phase != "" && h.Phase != x.phase {
			fail("hook %s: phase = %q, want %q", x.id, h.Phase, x.phase)
		}
		if h.FailClosed != x.failClosed {
			fail("hook %s: fail_closed = %v, want %v", x.id, h.FailClosed, x.failClosed)
		}
	}
	if w.guard != nil {
		if out.StopGuard == nil || *out.StopGuard != *w.guard {
			fail("stop_guard = %+v, want %+v", out.StopGuard, *w.guard)
		}
	}
}

func dump(out engine.Outcome) string {
	b, err := json.Marshal(out)
	if err != nil {
		return fmt.Sprintf("%+v", out)
	}
	return string(b)
}

func newEngine(t testing.TB, opts ...engine.Option) *engine.Engine {
	t.Helper()
	e, err := engine.New(append([]engine.Option{engine.WithSkippedTraces()}, opts...)...) // the contract traces skipped hooks
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.Close(context.Background()); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return e
}

// ---- fixtures ------------------------------------------------------------

var (
	fixtureMu    sync.Mutex
	fixtureBytes = map[string][]byte{}
)

// fx returns a fresh copy of a real Claude Code payload from
// testdata/claude-code/<name>.json, with overrides applied: kv alternates
// keys ("tool_input.command" reaches into nested objects) and values.
func fx(name string, kv ...any) map[string]any {
	fixtureMu.Lock()
	b, ok := fixtureBytes[name]
	if !ok {
		var err error
		b, err = os.ReadFile(filepath.Join("testdata", "claude-code", name+".json"))
		if err != nil {
			fixtureMu.Unlock()
			panic(fmt.Sprintf("fixture %s: %v", name, err))
		}
		fixtureBytes[name] = b
	}
	fixtureMu.Unlock()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		panic(fmt.Sprintf("fixture %s: %v", name, err))
	}
	if ev, _ := m["hook_event_name"].(string); ev == "" || !strings.HasPrefix(name, ev) {
		panic(fmt.Sprintf("fixture %s: hook_event_name %q does not match its file name", name, ev))
	}
	return with(m, kv...)
}

// with sets keys (dotted paths reach into nested objects) in m and returns
// it.
func with(m map[string]any, kv ...any) map[string]any {
	if len(kv)%2 != 0 {
		panic("with: odd number of arguments")
	}
	for i := 0; i < len(kv); i += 2 {
		path := strings.Split(kv[i].(string), ".")
		cur := m
		for _, p := range path[:len(path)-1] {
			next, ok := cur[p].(map[string]any)
			if !ok {
				next = map[string]any{}
			}
			c := make(map[string]any, len(next)+1)
			for k, v := range next {
				c[k] = v
			}
			cur[p] = c
			cur = c
		}
		cur[path[len(path)-1]] = kv[i+1]
	}
	return m
}

// obj builds a map from alternating keys and values.
func obj(kv ...any) map[string]any { return with(map[string]any{}, kv...) }

// list builds a JSON-style list (an empty list, never nil).
func list(items ...any) []any {
	if items == nil {
		return []any{}
	}
	return items
}

// ---- hook shorthands -----------------------------------------------------

// dec is a declarative hook returning a decision and a reason.
func dec(id, event string, priority int, decision, reason string) hk {
	r := engine.Result{"decision": decision}
	if reason != "" {
		r["reason"] = reason
	}
	return hk{id: id, event: event, priority: priority, result: r}
}

// res is a declarative hook returning r.
func res(id, event string, priority int, r engine.Result) hk {
	return hk{id: id, event: event, priority: priority, result: r}
}

// gofn is a Go handler hook.
func gofn(id, event string, priority int, fn handlerFn) hk {
	return hk{id: id, event: event, priority: priority, fn: fn}
}

// returning is a Go handler that returns r. Unlike a declarative hook it
// is not checked against the event's decisions at registration, like a
// script or command hook's result.
func returning(r engine.Result) handlerFn {
	return func(context.Context, *engine.Call) (engine.Result, error) { return r, nil }
}

// failing is a handler that cannot run.
func failing(msg string) handlerFn {
	return func(context.Context, *engine.Call) (engine.Result, error) { return nil, errors.New(msg) }
}

// hanging is a handler that only returns when its context ends.
func hanging(ctx context.Context, _ *engine.Call) (engine.Result, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// panicking is a handler that panics.
func panicking(context.Context, *engine.Call) (engine.Result, error) {
	panic("handler bug")
}

// recordOrder appends the hook's id to state["order"] and returns nothing.
func recordOrder(_ context.Context, c *engine.Call) (engine.Result, error) {
	var order []any
	if v, ok := c.State.Get("order"); ok {
		order, _ = v.([]any)
	}
	c.State.Set("order", append(append([]any(nil), order...), c.Hook))
	return nil, nil
}

// see returns {"seen_<hook id>": the payload value at path} merged with
// extra, so the outcome shows what the hook was given.
func see(path string, extra engine.Result) handlerFn {
	return func(_ context.Context, c *engine.Call) (engine.Result, error) {
		r := engine.Result{"seen_" + c.Hook: lookup(c.Payload, path)}
		for k, v := range extra {
			r[k] = v
		}
		return r, nil
	}
}

// lookup reads a dotted path from a payload (nil when missing).
func lookup(m map[string]any, path string) any {
	var cur any = m
	for _, p := range strings.Split(path, ".") {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[p]
	}
	return cur
}

// ran is the trace of a hook that returned a result.
func ran(id string) tr { return tr{id: id, status: engine.StatusDecided} }

// ranEmpty is the trace of a hook that returned nothing.
func ranEmpty(id string) tr { return tr{id: id, status: engine.StatusRan} }

// stoppedBy is the trace of a hook skipped because blocker ended the
// chain.
func stoppedBy(id, blocker string) tr {
	return tr{id: id, status: engine.StatusSkipped, skip: "chain stopped by " + blocker}
}

// unmatched is the trace of a hook whose matcher did not match.
func unmatched(id string) tr {
	return tr{id: id, status: engine.StatusSkipped, skip: engine.SkipMatcher}
}
