package engine_test

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"testing"

	"github.com/hookctl/hookctl/engine"
)

// skipMix registers, on PreToolUse (a chain with observe hooks),
// Notification (void) and PostToolUse (background), hooks that run and
// hooks skipped for each reason.
func skipMix(t *testing.T, e *engine.Engine, ran *atomic.Int32) {
	t.Helper()
	count := fn(func(context.Context, *engine.Call) (engine.Result, error) { ran.Add(1); return nil, nil })
	register(t, e,
		engine.Hook{ID: "pre-matcher", Event: "PreToolUse", Matcher: "Write", Priority: 6, Handler: engine.Static(engine.Deny("no"))},
		engine.Hook{ID: "pre-cond", Event: "PreToolUse", When: `tool_input.command contains "sudo"`, Priority: 5, Handler: engine.Static(engine.Deny("no"))},
		engine.Hook{ID: "pre-disabled", Event: "PreToolUse", Priority: 4, Handler: engine.Static(engine.Deny("no"))},
		engine.Hook{ID: "pre-runs", Event: "PreToolUse", Matcher: "Bash", Priority: 3, Handler: engine.Static(engine.Context("pre"))},
		engine.Hook{ID: "pre-denies", Event: "PreToolUse", Matcher: "Bash", Priority: 2, Handler: engine.Static(engine.Deny("stop"))},
		engine.Hook{ID: "pre-stopped", Event: "PreToolUse", Priority: 1, Handler: engine.Static(engine.Context("never"))},
		engine.Hook{ID: "obs-skip", Event: "PreToolUse", Observe: true, Matcher: "Write", Handler: count},
		engine.Hook{ID: "obs-runs", Event: "PreToolUse", Observe: true, Handler: count},
		engine.Hook{ID: "void-skip", Event: "Notification", When: `message == "other"`, Handler: count},
		engine.Hook{ID: "void-pooled", Event: "Notification", Handler: count},
		engine.Hook{ID: "void-skip2", Event: "Notification", When: `message == "other"`, Handler: engine.Inline(count)},
		engine.Hook{ID: "void-inline", Event: "Notification", Handler: engine.Inline(count)},
		engine.Hook{ID: "bg-skip", Event: "PostToolUse", Background: true, Matcher: "Write", Handler: count},
	)
	if err := e.SetEnabled("pre-disabled", false); err != nil {
		t.Fatal(err)
	}
}

// TestSkippedTracesListReasons: with skipped traces asked for (--explain,
// tests, coverage), every skipped hook of every phase is in the outcome
// with its reason and code, in order with the hooks that ran.
func TestSkippedTracesListReasons(t *testing.T) {
	e := newEngine(t) // WithSkippedTraces
	var ran atomic.Int32
	skipMix(t, e, &ran)
	out := fire(t, e, "PreToolUse", bash("ls"))
	want := []struct {
		id     string
		status engine.Status
		code   engine.SkipCode
		reason string
	}{
		{"pre-matcher", engine.StatusSkipped, engine.SkipCodeMatcher, engine.SkipMatcher},
		{"pre-cond", engine.StatusSkipped, engine.SkipCodeCondition, engine.SkipCondition},
		{"pre-disabled", engine.StatusSkipped, engine.SkipCodeDisabled, engine.SkipDisabled},
		{"pre-runs", engine.StatusDecided, "", ""},
		{"pre-denies", engine.StatusDecided, "", ""},
		{"pre-stopped", engine.StatusSkipped, engine.SkipCodeStopped, "chain stopped by pre-denies"},
		{"obs-skip", engine.StatusSkipped, engine.SkipCodeMatcher, engine.SkipMatcher},
		{"obs-runs", engine.StatusRan, "", ""},
	}
	if len(out.Hooks) != len(want) || out.Untraced != 0 {
		t.Fatalf("%d traces, %d untraced, want %d and 0: %+v", len(out.Hooks), out.Untraced, len(want), out.Hooks)
	}
	for i, w := range want {
		tr := out.Hooks[i]
		if tr.ID != w.id || tr.Status != w.status || tr.SkipCode != w.code || (w.reason != "" && tr.SkipReason != w.reason) {
			t.Errorf("trace %d = %s %s %s %q, want %+v", i, tr.ID, tr.Status, tr.SkipCode, tr.SkipReason, w)
		}
	}
	void := fire(t, e, "Notification", map[string]any{"message": "hi"})
	if got := traceList(void.Hooks); got != "void-skip:skipped void-pooled:ran void-skip2:skipped void-inline:ran" {
		t.Errorf("void traces %s", got)
	}
	bg := fire(t, e, "PostToolUse", bash("ls"))
	if got := traceList(bg.Hooks); got != "bg-skip:skipped" {
		t.Errorf("background traces %s", got)
	}
}

// TestSkippedHooksCountedNotTraced: without WithSkippedTraces the
// outcome lists the hooks that ran, in order, counts the others, and the
// decision is the same; an Observer brings the skipped traces back.
func TestSkippedHooksCountedNotTraced(t *testing.T) {
	var ran atomic.Int32
	e := newLeanEngine(t)
	skipMix(t, e, &ran)
	out := fire(t, e, "PreToolUse", bash("ls"))
	if got := traceList(out.Hooks); got != "pre-runs:decided pre-denies:decided obs-runs:ran" || out.Untraced != 5 {
		t.Errorf("traces %s, %d untraced", got, out.Untraced)
	}
	if out.Decision != engine.DecisionDeny || out.Reason != "stop" || out.AdditionalContext != "pre" {
		t.Errorf("outcome %+v", out)
	}
	void := fire(t, e, "Notification", map[string]any{"message": "hi"})
	if got := traceList(void.Hooks); got != "void-pooled:ran void-inline:ran" || void.Untraced != 2 {
		t.Errorf("void traces %s, %d untraced", got, void.Untraced)
	}
	if bg := fire(t, e, "PostToolUse", bash("ls")); len(bg.Hooks) != 0 || bg.Untraced != 1 {
		t.Errorf("background traces %+v, %d untraced", bg.Hooks, bg.Untraced)
	}
	if n := ran.Load(); n != 3 {
		t.Errorf("%d handlers ran, want 3", n)
	}

	watched := newLeanEngine(t, engine.WithObserver(nopObserver{}))
	skipMix(t, watched, &ran)
	if out := fire(t, watched, "PreToolUse", bash("ls")); len(out.Hooks) != 8 || out.Untraced != 0 {
		t.Errorf("with an observer: %s, %d untraced", traceList(out.Hooks), out.Untraced)
	}
}

// TestSkippedHooksCostNoBytes: with skipped traces off, a fire's heap
// bytes do not grow with hooks its matchers skip (they were 238 bytes a
// hook, the trace).
func TestSkippedHooksCostNoBytes(t *testing.T) {
	ctx := context.Background()
	perFire := func(skipped int) (allocs, bytes float64) {
		e := newLeanEngine(t)
		register(t, e, engine.Hook{ID: "runs", Event: "PreToolUse", Matcher: "Bash", Handler: engine.Static(engine.Context("ran"))})
		for i := range skipped {
			register(t, e, engine.Hook{ID: fmt.Sprint("skip", i), Event: "PreToolUse", Matcher: "Write", Handler: engine.Static(engine.Deny("no"))})
		}
		ev := engine.Event{Name: "PreToolUse", Payload: bash("ls")}
		// No collection while it counts: one empties the engine's pools,
		// and the fire after it allocates what the pools held (a busy
		// machine's collections made 1,000 hooks count one more).
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
		_, _ = e.Fire(ctx, ev)
		allocs = testing.AllocsPerRun(50, func() { _, _ = e.Fire(ctx, ev) })
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 50 {
			_, _ = e.Fire(ctx, ev)
		}
		runtime.ReadMemStats(&after)
		return allocs, float64(after.TotalAlloc-before.TotalAlloc) / 50
	}
	a10, b10 := perFire(10)
	a1000, b1000 := perFire(1000)
	if a1000 > a10+raceAllocSlack {
		t.Errorf("allocations per fire: %v with 1000 skipped hooks, %v with 10", a1000, a10)
	}
	// The slack is for the runtime's own allocations during the runs; a
	// trace per skipped hook would be 990 × 238 bytes more.
	if b1000 > b10+2048 {
		t.Errorf("bytes per fire: %.0f with 1000 skipped hooks, %.0f with 10", b1000, b10)
	}
}

func traceList(trs []engine.HookTrace) string {
	s := ""
	for i, tr := range trs {
		if i > 0 {
			s += " "
		}
		s += tr.ID + ":" + string(tr.Status)
	}
	return s
}

type nopObserver struct{}

func (nopObserver) FireStarted(ctx context.Context, _ engine.FireInfo) context.Context { return ctx }
func (nopObserver) HookDone(context.Context, engine.FireInfo, *engine.HookTrace)       {}
func (nopObserver) FireEnded(context.Context, engine.FireInfo, *engine.Outcome, error) {}
