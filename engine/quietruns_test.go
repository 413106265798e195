package engine_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
)

// quietTrace is the test's own statement of what WithQuietRuns leaves
// out: a hook that ran and answered (or was queued) with nothing the
// engine ignored, no error, no fail-closed block, no panic.
func quietTrace(t engine.HookTrace) bool {
	switch t.Status {
	case engine.StatusRan, engine.StatusDecided, engine.StatusQueued:
		return t.Error == "" && t.Note == "" && !t.FailClosed && !t.Panic
	}
	return false
}

// withoutQuiet is a full outcome as WithQuietRuns would give it: the
// quiet traces left out and counted.
func withoutQuiet(o engine.Outcome) engine.Outcome {
	var kept []engine.HookTrace
	for _, t := range o.Hooks {
		if quietTrace(t) {
			o.UntracedRuns++
			continue
		}
		kept = append(kept, t)
	}
	o.Hooks = kept
	return o
}

func describeQuiet(o engine.Outcome, err error) string {
	return fmt.Sprintf("%suntraced skips=%d runs=%d\n", describe(o, err), o.Untraced, o.UntracedRuns)
}

// TestQuietRunsDifferential: the generated configurations of the fast
// path suite and its hostile payloads give the same outcome with
// WithQuietRuns as without (decision, reason, output, state, every trace
// a reply shows), but for the quiet traces, which are counted instead;
// through Fire and through FireInto into a reused outcome.
func TestQuietRunsDifferential(t *testing.T) {
	configs := 80
	if testing.Short() {
		configs = 20
	}
	r := rand.New(rand.NewPCG(28, 3))
	payloads := diffPayloads()
	ctx := context.Background()
	fires, left := 0, 0
	for range configs {
		hooks := genConfig(r)
		plain := newLeanEngine(t)
		quiet := newLeanEngine(t, engine.WithQuietRuns())
		for _, h := range hooks {
			err1, err2 := plain.Register(h.h), quiet.Register(h.h)
			if fmt.Sprint(err1) != fmt.Sprint(err2) {
				t.Fatalf("register %s: %v without quiet runs, %v with", h.desc, err1, err2)
			}
		}
		var reused engine.Outcome
		for pi, p := range payloads {
			for _, event := range []string{"PreToolUse", "PostToolUse", "Notification"} {
				ev := engine.Event{Name: event, Payload: p}
				full, ferr := plain.Fire(ctx, ev)
				want := describeQuiet(withoutQuiet(full), ferr)
				got := describeQuiet(quiet.Fire(ctx, ev))
				ierr := quiet.FireInto(ctx, ev, &reused)
				into := describeQuiet(reused, ierr)
				fires += 3
				left += len(full.Hooks) - len(withoutQuiet(full).Hooks)
				if got != want || into != want {
					var cfg strings.Builder
					for _, h := range hooks {
						cfg.WriteString("  " + h.desc + "\n")
					}
					t.Fatalf("%s, payload %d (%.200v):\n%s\nwith quiet runs (Fire):\n%s\n(FireInto):\n%s\nwithout, quiet traces taken out:\n%s", event, pi, p, cfg.String(), got, into, want)
				}
			}
		}
	}
	if left == 0 {
		t.Fatal("no trace was ever left out: the corpus does not test the option")
	}
	t.Logf("%d fires, %d quiet traces left out", fires, left)
}

// TestQuietRunsKeepEveryFailure: with WithQuietRuns, the outcome still
// traces every hook a reply must tell the user about, in every phase:
// errors, panics, timeouts, fail-closed blocks, results the engine
// ignored in part, pooled void hooks that failed, background hooks the
// queue refused; and a failing hook cannot hide behind others that ran
// cleanly, nor change the decision a clean hook made.
func TestQuietRunsKeepEveryFailure(t *testing.T) {
	boom := fn(func(context.Context, *engine.Call) (engine.Result, error) { return nil, errors.New("boom") })
	slow := fn(func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
		<-ctx.Done()
		return engine.Deny("late"), nil
	})
	panics := fn(func(context.Context, *engine.Call) (engine.Result, error) { panic("hostile") })
	clean := func(r engine.Result) engine.Handler {
		return fn(func(context.Context, *engine.Call) (engine.Result, error) { return r, nil })
	}
	var ran atomic.Int32
	counts := fn(func(context.Context, *engine.Call) (engine.Result, error) { ran.Add(1); return nil, nil })
	e := newLeanEngine(t, engine.WithQuietRuns())
	register(t, e,
		engine.Hook{ID: "ctx", Event: "PreToolUse", Priority: 9, Handler: clean(engine.Context("fine"))},
		engine.Hook{ID: "error", Event: "PreToolUse", Priority: 8, Handler: boom},
		engine.Hook{ID: "panic", Event: "PreToolUse", Priority: 7, Handler: panics},
		engine.Hook{ID: "unknown-field", Event: "PreToolUse", Priority: 6, Handler: clean(engine.Result{"no_such_field": 1})},
		engine.Hook{ID: "timeout", Event: "PreToolUse", Priority: 5, Timeout: 5 * time.Millisecond, Handler: slow},
		engine.Hook{ID: "fail-closed", Event: "PreToolUse", Priority: 4, OnError: engine.OnError{Policy: engine.ErrorBlock}, Handler: boom},
		engine.Hook{ID: "observer-fails", Event: "PreToolUse", Observe: true, Handler: boom},
		engine.Hook{ID: "observer-runs", Event: "PreToolUse", Observe: true, Handler: counts},
		engine.Hook{ID: "void-pooled-fails", Event: "Notification", Handler: boom},
		engine.Hook{ID: "void-pooled-runs", Event: "Notification", Handler: counts},
		engine.Hook{ID: "void-inline-fails", Event: "Notification", Handler: engine.Inline(boom)},
		engine.Hook{ID: "void-inline-runs", Event: "Notification", Handler: engine.Inline(counts)},
		engine.Hook{ID: "bg", Event: "PostToolUse", Background: true, Handler: counts},
	)
	out := fire(t, e, "PreToolUse", bash("ls"))
	if got := traceList(out.Hooks); got != "error:error panic:error unknown-field:decided timeout:timeout fail-closed:error observer-fails:error" {
		t.Errorf("traces %s", got)
	}
	if out.UntracedRuns != 2 || out.Decision != engine.DecisionDeny || !out.Blocked || out.AdditionalContext != "fine" {
		t.Errorf("outcome %s untraced runs %d", describe(out, nil), out.UntracedRuns)
	}
	if tr := traceOf(t, out, "fail-closed"); !tr.FailClosed || tr.Decision != engine.DecisionDeny {
		t.Errorf("fail-closed trace %+v", tr)
	}
	if tr := traceOf(t, out, "panic"); !tr.Panic {
		t.Errorf("panic trace %+v", tr)
	}
	if tr := traceOf(t, out, "unknown-field"); tr.Note == "" {
		t.Errorf("unknown field trace %+v", tr)
	}
	void := fire(t, e, "Notification", map[string]any{"message": "hi"})
	if got := traceList(void.Hooks); got != "void-pooled-fails:error void-inline-fails:error" || void.UntracedRuns != 2 {
		t.Errorf("void traces %s, %d untraced runs", got, void.UntracedRuns)
	}
	if bg := fire(t, e, "PostToolUse", bash("ls")); len(bg.Hooks) != 0 || bg.UntracedRuns != 1 {
		t.Errorf("background traces %s, %d untraced runs", traceList(bg.Hooks), bg.UntracedRuns)
	}
	if err := e.Close(context.Background()); err != nil { // waits for the background hook
		t.Fatal(err)
	}
	if n := ran.Load(); n != 4 {
		t.Errorf("%d clean handlers ran, want 4", n)
	}
}

// TestQuietRunsYieldToWhoAsks: WithSkippedTraces, an Observer or an audit
// log each ask for the traces: with them, WithQuietRuns keeps every one.
func TestQuietRunsYieldToWhoAsks(t *testing.T) {
	var audit bytes.Buffer
	for name, opt := range map[string]engine.Option{
		"skipped traces": engine.WithSkippedTraces(),
		"observer":       engine.WithObserver(nopObserver{}),
		"audit log":      engine.WithAuditLog(&audit),
	} {
		e := newLeanEngine(t, engine.WithQuietRuns(), opt)
		register(t, e,
			engine.Hook{ID: "a", Event: "PreToolUse", Priority: 2, Handler: engine.Static(engine.Context("a"))},
			engine.Hook{ID: "b", Event: "PreToolUse", Priority: 1, Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) { return nil, nil })},
			engine.Hook{ID: "c", Event: "PreToolUse", Observe: true, Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) { return nil, nil })},
		)
		out := fire(t, e, "PreToolUse", bash("ls"))
		if got := traceList(out.Hooks); got != "a:decided b:ran c:ran" || out.UntracedRuns != 0 {
			t.Errorf("%s: traces %s, %d untraced runs", name, got, out.UntracedRuns)
		}
	}
}

// TestQuietRunsCostNoTraceBytes: with WithQuietRuns, a fire's heap bytes
// do not grow with hooks that run cleanly by a trace each (a trace is
// 232 bytes; without the option 20 hooks cost 4.6 KB of them).
func TestQuietRunsCostNoTraceBytes(t *testing.T) {
	ctx := context.Background()
	perFire := func(hooks int) float64 {
		e := newLeanEngine(t, engine.WithQuietRuns())
		for i := range hooks {
			register(t, e, engine.Hook{ID: fmt.Sprint("h", i), Event: "PreToolUse", Priority: -i, Handler: engine.Static(engine.Context("ran"))})
		}
		ev := engine.Event{Name: "PreToolUse", Payload: bash("ls")}
		if out, err := e.Fire(ctx, ev); err != nil || len(out.Hooks) != 0 || out.UntracedRuns != hooks {
			t.Fatalf("%d hooks: %s, %d untraced runs", hooks, describe(out, err), out.UntracedRuns)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 100 {
			_, _ = e.Fire(ctx, ev)
		}
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc-before.TotalAlloc) / 100
	}
	b1, b20 := perFire(1), perFire(20)
	// The slack is for the runtime's own allocations during the runs and
	// the merged context growing by a part a hook; a trace a hook is 232.
	if b20 > b1+20*64 {
		t.Errorf("bytes per fire: %.0f with 20 hooks, %.0f with 1", b20, b1)
	}
}

// TestQuietRunsTimeKeptTraces: a quiet fire times no hook that ends
// cleanly (its trace is left out), but every trace it keeps says how long
// its hook took: a hook that failed, one whose result the merge noted
// (kept after it ran), a void hook that failed, each slower than pause.
func TestQuietRunsTimeKeptTraces(t *testing.T) {
	const pause = 3 * time.Millisecond
	slowly := func(res engine.Result, err error) engine.Handler {
		return fn(func(context.Context, *engine.Call) (engine.Result, error) {
			time.Sleep(pause)
			return res, err
		})
	}
	e := newLeanEngine(t, engine.WithQuietRuns())
	register(t, e,
		engine.Hook{ID: "clean", Event: "PreToolUse", Priority: 3, Handler: slowly(engine.Context("fine"), nil)},
		engine.Hook{ID: "error", Event: "PreToolUse", Priority: 2, Handler: slowly(nil, errors.New("boom"))},
		engine.Hook{ID: "noted", Event: "PreToolUse", Priority: 1, Handler: slowly(engine.Result{"no_such_field": 1}, nil)},
		engine.Hook{ID: "observer-fails", Event: "PreToolUse", Observe: true, Handler: engine.Inline(slowly(nil, errors.New("boom")))},
		engine.Hook{ID: "void-fails", Event: "Notification", Handler: slowly(nil, errors.New("boom"))},
	)
	check := func(out engine.Outcome, want string) {
		t.Helper()
		if got := traceList(out.Hooks); got != want {
			t.Fatalf("traces %s, want %s", got, want)
		}
		for _, tr := range out.Hooks {
			if tr.Duration < pause {
				t.Errorf("%s: duration %v, want at least %v", tr.ID, tr.Duration, pause)
			}
		}
	}
	check(fire(t, e, "PreToolUse", bash("ls")), "error:error noted:decided observer-fails:error")
	check(fire(t, e, "Notification", map[string]any{"message": "hi"}), "void-fails:error")

	// Without quiet runs every hook is timed, the clean one too.
	plain := newLeanEngine(t)
	register(t, plain, engine.Hook{ID: "clean", Event: "PreToolUse", Handler: slowly(engine.Context("fine"), nil)})
	check(fire(t, plain, "PreToolUse", bash("ls")), "clean:decided")
}
