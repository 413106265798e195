package engine_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
)

func TestPriorityOrderAndTies(t *testing.T) {
	e := newEngine(t)
	var mu sync.Mutex
	var order []string
	rec := func(id string, prio int) engine.Hook {
		return engine.Hook{ID: id, Event: "PreToolUse", Priority: prio, Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) {
			mu.Lock()
			order = append(order, id)
			mu.Unlock()
			return nil, nil
		})}
	}
	register(t, e, rec("zero-a", 0), rec("neg", -5), rec("high", 100), rec("zero-b", 0), rec("mid", 50), rec("zero-c", 0))
	out := fire(t, e, "PreToolUse", bash("ls"))
	want := []string{"high", "mid", "zero-a", "zero-b", "zero-c", "neg"}
	if !reflect.DeepEqual(order, want) {
		t.Fatalf("ran %v, want %v", order, want)
	}
	if !reflect.DeepEqual(ids(out), want) {
		t.Fatalf("trace %v, want %v", ids(out), want)
	}
	list, err := e.Hooks("PreToolUse")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, h := range list {
		listed = append(listed, h.ID)
	}
	if !reflect.DeepEqual(listed, want) {
		t.Fatalf("Hooks() %v, want %v", listed, want)
	}
}

// TestVoidParallelismIsBounded fires many slow void hooks from many
// goroutines and proves at most max_concurrency run at once, and that they
// do run in parallel.
func TestVoidParallelismIsBounded(t *testing.T) {
	const bound = 3
	e := newEngine(t, engine.WithMaxConcurrency(bound))
	var running, peak atomic.Int32
	var calls atomic.Int32
	slow := fn(func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(5 * time.Millisecond)
		running.Add(-1)
		calls.Add(1)
		return nil, nil
	})
	for i := range 6 {
		register(t, e, engine.Hook{ID: fmt.Sprintf("n%d", i), Event: "Notification", Handler: slow})
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 3 {
				out, err := e.Fire(context.Background(), engine.Event{Name: "Notification", Payload: map[string]any{"message": "hi"}})
				if err != nil {
					t.Error(err)
					return
				}
				for _, h := range out.Hooks {
					if h.Status != engine.StatusRan || h.Phase != engine.PhaseVoid {
						t.Errorf("hook %s: %s %s", h.ID, h.Status, h.Phase)
					}
				}
			}
		})
	}
	wg.Wait()
	if got := calls.Load(); got != 4*3*6 {
		t.Fatalf("%d calls, want %d: Fire did not wait for void hooks", got, 4*3*6)
	}
	if p := peak.Load(); p > bound {
		t.Fatalf("%d void hooks ran at once, bound is %d", p, bound)
	} else if p < 2 {
		t.Fatalf("void hooks never overlapped (peak %d)", p)
	}
}

func TestCheapVoidHooksRunInline(t *testing.T) {
	e := newEngine(t, engine.WithMaxConcurrency(1))
	// An inline handler runs on the firing goroutine even while the only
	// pool worker is blocked.
	block := make(chan struct{})
	register(t, e,
		engine.Hook{ID: "slow", Event: "Notification", Handler: fn(func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
			<-block
			return nil, nil
		})},
		engine.Hook{ID: "cheap", Event: "Notification", Handler: engine.Inline(fn(func(context.Context, *engine.Call) (engine.Result, error) {
			close(block)
			return engine.Context("x"), nil
		}))},
	)
	out := fire(t, e, "Notification", nil)
	if traceOf(t, out, "cheap").Status != engine.StatusDecided || traceOf(t, out, "slow").Status != engine.StatusRan {
		t.Fatalf("trace %+v", out.Hooks)
	}
	// Void hooks observe only: nothing merges into the outcome.
	if out.AdditionalContext != "" || len(out.Output) != 0 {
		t.Fatalf("void results merged: %+v", out.Output)
	}
}

func TestNestedFireFromPoolWorkerDoesNotDeadlock(t *testing.T) {
	e := newEngine(t, engine.WithMaxConcurrency(1))
	register(t, e,
		engine.Hook{ID: "inner", Event: "PostCompact", Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) { return nil, nil })},
		engine.Hook{ID: "outer", Event: "Notification", Handler: fn(func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
			_, err := e.Fire(ctx, engine.Event{Name: "PostCompact"})
			return nil, err
		})},
	)
	done := make(chan engine.Outcome)
	go func() { done <- fire(t, e, "Notification", nil) }()
	select {
	case out := <-done:
		if tr := traceOf(t, out, "outer"); tr.Status != engine.StatusRan {
			t.Fatalf("outer %+v", tr)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("nested fire deadlocked on the pool")
	}
}

func TestObserveHooksSeeFinalOutcome(t *testing.T) {
	e := newEngine(t)
	var seen atomic.Pointer[engine.Outcome]
	register(t, e,
		engine.Hook{ID: "audit", Event: "PreToolUse", Observe: true, Priority: 1000, Handler: fn(func(_ context.Context, c *engine.Call) (engine.Result, error) {
			o := *c.Outcome
			seen.Store(&o)
			return engine.Allow("observer cannot change this"), nil
		})},
		static("deny", "PreToolUse", engine.Deny("no")),
	)
	out := fire(t, e, "PreToolUse", bash("ls"))
	if out.Decision != "deny" {
		t.Fatalf("observe hook changed the outcome: %q", out.Decision)
	}
	got := seen.Load()
	if got == nil || got.Decision != "deny" || got.Reason != "no" {
		t.Fatalf("observer saw %+v", got)
	}
	if !reflect.DeepEqual(ids(out), []string{"deny", "audit"}) {
		t.Fatalf("trace order %v", ids(out))
	}
	if tr := traceOf(t, out, "audit"); tr.Phase != engine.PhaseObserve {
		t.Fatalf("phase %s", tr.Phase)
	}
}

func TestBackgroundHooksDrainOnClose(t *testing.T) {
	e, err := engine.New(engine.WithMaxConcurrency(2))
	if err != nil {
		t.Fatal(err)
	}
	var done atomic.Int32
	var sawPayload atomic.Bool
	// The background hooks cannot finish before every Fire returned: a
	// Fire that waited for them would never return.
	release := make(chan struct{})
	register(t, e, engine.Hook{ID: "bg", Event: "PostToolUse", Background: true, Handler: fn(func(_ context.Context, c *engine.Call) (engine.Result, error) {
		<-release
		if c.Payload["tool_name"] == "Bash" {
			sawPayload.Store(true)
		}
		done.Add(1)
		return nil, nil
	})})
	const n = 10
	fired := make(chan error, 1)
	go func() {
		for range n {
			out, err := e.Fire(context.Background(), engine.Event{Name: "PostToolUse", Payload: bash("ls")})
			if err != nil {
				fired <- err
				return
			}
			if tr, _ := out.Hook("bg"); tr.Status != engine.StatusQueued || tr.Phase != engine.PhaseBackground {
				fired <- fmt.Errorf("trace %+v", tr)
				return
			}
		}
		fired <- nil
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	select {
	case err := <-fired:
		if err != nil {
			t.Fatal(err)
		}
	case <-ctx.Done():
		close(release)
		t.Fatal("Fire waited for background hooks")
	}
	if d := done.Load(); d != 0 {
		t.Fatalf("%d background hooks ran before they were let", d)
	}
	close(release)
	if err := e.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if done.Load() != n || !sawPayload.Load() {
		t.Fatalf("%d of %d background hooks ran before Close returned", done.Load(), n)
	}
	st := e.Stats()
	if st.BackgroundQueued != n || st.BackgroundDone != n || st.BackgroundDropped != 0 {
		t.Fatalf("stats %+v", st)
	}
	if _, err := e.Fire(context.Background(), engine.Event{Name: "PostToolUse"}); !errors.Is(err, engine.ErrClosed) {
		t.Fatalf("fire after close: %v", err)
	}
}

// TestBackgroundBackPressureNeverDropsSilently saturates a tiny queue: every
// background hook is either run or reported as dropped.
func TestBackgroundBackPressureNeverDropsSilently(t *testing.T) {
	e, err := engine.New(engine.WithMaxConcurrency(1), engine.WithBackgroundQueue(2, 5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	var ran atomic.Int32
	register(t, e, engine.Hook{ID: "bg", Event: "PostToolUse", Background: true, Handler: fn(func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
		<-release
		ran.Add(1)
		return nil, nil
	})})
	const n = 20
	reportedDropped := 0
	for range n {
		out := fire(t, e, "PostToolUse", nil)
		tr := traceOf(t, out, "bg")
		switch tr.Status {
		case engine.StatusQueued:
		case engine.StatusError:
			if !strings.Contains(tr.Error, "queue full") {
				t.Fatalf("error %q", tr.Error)
			}
			reportedDropped++
		default:
			t.Fatalf("status %s", tr.Status)
		}
	}
	close(release)
	if err := e.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := e.Stats()
	if reportedDropped == 0 {
		t.Fatal("the queue never filled")
	}
	if int(st.BackgroundDropped) != reportedDropped {
		t.Fatalf("dropped %d, reported %d", st.BackgroundDropped, reportedDropped)
	}
	if int(st.BackgroundQueued)+reportedDropped != n || int(ran.Load()) != int(st.BackgroundQueued) || st.BackgroundDone != st.BackgroundQueued {
		t.Fatalf("lost work: stats %+v, ran %d, fired %d", st, ran.Load(), n)
	}
}

func TestCloseDeadlineCancelsBackground(t *testing.T) {
	e, err := engine.New(engine.WithMaxConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	register(t, e, engine.Hook{ID: "stuck", Event: "PostToolUse", Background: true, Timeout: time.Minute, Handler: fn(func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})})
	for range 3 {
		fire(t, e, "PostToolUse", nil)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err = e.Close(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("close: %v", err)
	}
	st := e.Stats()
	if st.BackgroundDone+st.BackgroundDropped != st.BackgroundQueued {
		t.Fatalf("stats %+v", st)
	}
}

// TestTimeoutCancelsForReal: the handler's context is cancelled at the
// deadline and the hook is reported as timed out, not as a decision.
func TestTimeoutCancelsForReal(t *testing.T) {
	e := newEngine(t)
	cancelled := make(chan error, 1)
	register(t, e,
		engine.Hook{ID: "hang", Event: "PreToolUse", Timeout: 30 * time.Millisecond, Handler: fn(func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
			<-ctx.Done()
			cancelled <- ctx.Err()
			return engine.Deny("too late"), nil
		})},
		static("next", "PreToolUse", engine.Context("still runs")),
	)
	out := fire(t, e, "PreToolUse", bash("ls")) // the handler returns only once cancelled
	select {
	case err := <-cancelled:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("handler saw %v", err)
		}
	default:
		t.Fatal("handler was not cancelled")
	}
	tr := traceOf(t, out, "hang")
	if tr.Status != engine.StatusTimeout || tr.Decision != "" || !strings.Contains(tr.Error, "timed out") {
		t.Fatalf("trace %+v", tr)
	}
	if out.Decision != "" || out.AdditionalContext != "still runs" {
		t.Fatalf("a late answer leaked into the outcome: %+v", out)
	}
	if e.Stats().HookTimeouts != 1 {
		t.Fatalf("stats %+v", e.Stats())
	}
}

func TestPanicIsIsolated(t *testing.T) {
	e := newEngine(t)
	register(t, e,
		engine.Hook{ID: "boom", Event: "PreToolUse", Priority: 1, Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) {
			var m map[string]int
			//lint:ignore SA5000 the hook panics on purpose
			m["x"] = 1
			return nil, nil
		})},
		engine.Hook{ID: "void-boom", Event: "Notification", Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) {
			panic("in a pool worker")
		})},
		static("after", "PreToolUse", engine.Allow("ok")),
	)
	out := fire(t, e, "PreToolUse", bash("ls"))
	tr := traceOf(t, out, "boom")
	if tr.Status != engine.StatusError || !strings.Contains(tr.Error, "panic") {
		t.Fatalf("trace %+v", tr)
	}
	if out.Decision != "allow" {
		t.Fatalf("the chain did not go on after a panic: %+v", out)
	}
	out = fire(t, e, "Notification", nil)
	if tr := traceOf(t, out, "void-boom"); tr.Status != engine.StatusError || !strings.Contains(tr.Error, "in a pool worker") {
		t.Fatalf("trace %+v", tr)
	}
	// The engine keeps serving.
	out = fire(t, e, "PreToolUse", bash("ls"))
	if out.Decision != "allow" {
		t.Fatalf("%+v", out)
	}
}

func TestErrorPolicies(t *testing.T) {
	failing := fn(func(context.Context, *engine.Call) (engine.Result, error) {
		return nil, errors.New("cannot reach policy server")
	})
	t.Run("ignore fails open", func(t *testing.T) {
		e := newEngine(t)
		register(t, e, engine.Hook{ID: "gate", Event: "PreToolUse", OnError: engine.OnError{Policy: engine.ErrorIgnore}, Handler: failing})
		out := fire(t, e, "PreToolUse", bash("ls"))
		if out.Blocked || out.Decision != "" {
			t.Fatalf("%+v", out)
		}
		if tr := traceOf(t, out, "gate"); tr.Status != engine.StatusError || tr.FailClosed {
			t.Fatalf("%+v", tr)
		}
	})
	t.Run("block fails closed naming the hook", func(t *testing.T) {
		e := newEngine(t)
		register(t, e,
			engine.Hook{ID: "gate", Event: "PreToolUse", Priority: 1, OnError: engine.OnError{Policy: engine.ErrorBlock}, Handler: failing},
			static("later", "PreToolUse", engine.Allow("")),
		)
		out := fire(t, e, "PreToolUse", bash("ls"))
		if !out.Blocked || out.Decision != "deny" || !strings.Contains(out.Reason, `"gate"`) {
			t.Fatalf("%+v", out)
		}
		tr := traceOf(t, out, "gate")
		// "could not run", not "denied": the status says error.
		if tr.Status != engine.StatusError || !tr.FailClosed || tr.Decision != "deny" {
			t.Fatalf("%+v", tr)
		}
	})
	t.Run("block on Stop uses block", func(t *testing.T) {
		e := newEngine(t)
		register(t, e, engine.Hook{ID: "gate", Event: "Stop", OnError: engine.OnError{Policy: engine.ErrorBlock}, Handler: failing})
		out := fire(t, e, "Stop", map[string]any{"session_id": "s"})
		if out.Decision != "block" {
			t.Fatalf("%+v", out)
		}
	})
	t.Run("event default: PreModelSwitch fails closed", func(t *testing.T) {
		e := newEngine(t)
		register(t, e, engine.Hook{ID: "gate", Event: "PreModelSwitch", Handler: failing})
		out := fire(t, e, "PreModelSwitch", map[string]any{"to_model": "opus"})
		if out.Decision != "deny" || !out.Blocked {
			t.Fatalf("%+v", out)
		}
	})
	t.Run("event default: PreToolUse fails open", func(t *testing.T) {
		e := newEngine(t)
		register(t, e, engine.Hook{ID: "gate", Event: "PreToolUse", Handler: failing})
		if out := fire(t, e, "PreToolUse", bash("ls")); out.Blocked {
			t.Fatalf("%+v", out)
		}
	})
	t.Run("timeout under block fails closed", func(t *testing.T) {
		e := newEngine(t)
		register(t, e, engine.Hook{ID: "slow", Event: "PreToolUse", Timeout: 10 * time.Millisecond, OnError: engine.OnError{Policy: engine.ErrorBlock},
			Handler: fn(func(ctx context.Context, _ *engine.Call) (engine.Result, error) { <-ctx.Done(); return nil, ctx.Err() })})
		out := fire(t, e, "PreToolUse", bash("ls"))
		if tr := traceOf(t, out, "slow"); tr.Status != engine.StatusTimeout || !out.Blocked {
			t.Fatalf("%+v / %+v", tr, out)
		}
	})
	t.Run("retry until success", func(t *testing.T) {
		e := newEngine(t)
		var tries atomic.Int32
		register(t, e, engine.Hook{ID: "flaky", Event: "PreToolUse", OnError: engine.OnError{Policy: engine.ErrorRetry, Attempts: 3, Backoff: time.Millisecond},
			Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) {
				if tries.Add(1) < 3 {
					return nil, errors.New("flake")
				}
				return engine.Allow("third time"), nil
			})})
		out := fire(t, e, "PreToolUse", bash("ls"))
		tr := traceOf(t, out, "flaky")
		if tries.Load() != 3 || tr.Attempts != 3 || tr.Status != engine.StatusDecided || out.Decision != "allow" {
			t.Fatalf("tries=%d trace=%+v", tries.Load(), tr)
		}
	})
	t.Run("retry exhausted follows the event default", func(t *testing.T) {
		e := newEngine(t)
		var tries atomic.Int32
		register(t, e, engine.Hook{ID: "down", Event: "PreModelSwitch", OnError: engine.OnError{Policy: engine.ErrorRetry, Attempts: 2},
			Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) {
				tries.Add(1)
				return nil, errors.New("down")
			})})
		out := fire(t, e, "PreModelSwitch", nil)
		if tries.Load() != 2 || !out.Blocked {
			t.Fatalf("tries=%d out=%+v", tries.Load(), out)
		}
	})
}

func TestStopLoopGuard(t *testing.T) {
	e := newEngine(t, engine.WithStopBlockCap(3))
	var seen []string
	register(t, e, engine.Hook{ID: "keep-going", Event: "Stop", Handler: fn(func(_ context.Context, c *engine.Call) (engine.Result, error) {
		seen = append(seen, fmt.Sprintf("%v/%v", c.Payload["stop_hook_active"], c.Payload["loop_count"]))
		if c.Payload["tests_pass"] == true {
			return nil, nil
		}
		return engine.Block("tests are failing"), nil
	})})
	stop := func(sid string, pass bool) engine.Outcome {
		return fire(t, e, "Stop", map[string]any{"session_id": sid, "stop_hook_active": false, "tests_pass": pass})
	}
	for i := range 3 {
		out := stop("s1", false)
		if out.Decision != "block" || !out.Blocked || out.StopGuard == nil || out.StopGuard.LoopCount != i || out.StopGuard.Released {
			t.Fatalf("block %d: %+v", i+1, out)
		}
	}
	// Another session has its own count.
	if out := stop("s2", false); out.StopGuard.LoopCount != 0 || out.Decision != "block" {
		t.Fatalf("s2: %+v", out)
	}
	out := stop("s1", false)
	if out.Decision != "" || out.Blocked || !out.StopGuard.Released || !strings.Contains(out.Reason, "cap") {
		t.Fatalf("the cap did not let the agent stop: %+v", out)
	}
	// The streak starts over.
	if out := stop("s1", false); out.Decision != "block" || out.StopGuard.LoopCount != 0 {
		t.Fatalf("after release: %+v", out)
	}
	// A fire that does not block resets the count.
	stop("s1", true)
	if out := stop("s1", false); out.StopGuard.LoopCount != 0 {
		t.Fatalf("after a pass: %+v", out)
	}
	want := []string{"false/0", "true/1", "true/2", "false/0", "true/3", "false/0", "true/1", "false/0"}
	if !reflect.DeepEqual(seen, want) {
		t.Fatalf("hooks saw stop_hook_active/loop_count %v, want %v", seen, want)
	}
}

func TestStopLoopGuardOff(t *testing.T) {
	e := newEngine(t, engine.WithStopBlockCap(0))
	register(t, e, static("block", "SubagentStop", engine.Block("again")))
	for range 10 {
		if out := fire(t, e, "SubagentStop", map[string]any{"session_id": "s"}); out.Decision != "block" || out.StopGuard != nil {
			t.Fatalf("%+v", out)
		}
	}
}

func TestUnknownEvents(t *testing.T) {
	e := newEngine(t)
	_, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUs"})
	var ue *engine.UnknownEventError
	if !errors.As(err, &ue) || ue.Suggestion != "PreToolUse" {
		t.Fatalf("fire: %v", err)
	}
	err = e.Register(static("x", "NoSuchEvent", engine.Allow("")))
	if !errors.As(err, &ue) {
		t.Fatalf("register: %v", err)
	}
	if _, err := e.Resolve("nope"); !errors.As(err, &ue) {
		t.Fatalf("resolve: %v", err)
	}
	if _, err := e.Fire(context.Background(), engine.Event{ID: 9999}); !errors.As(err, &ue) {
		t.Fatalf("fire by id: %v", err)
	}
}

func TestAliasesFireTheCanonicalEvent(t *testing.T) {
	e := newEngine(t)
	register(t, e, engine.Hook{ID: "gate", Event: "before_tool_call", Handler: engine.Static(engine.Deny("no"))})
	for _, name := range []string{"PreToolUse", "before_tool_call", "tool.pre", "tool:pre"} {
		out := fire(t, e, name, bash("ls"))
		if out.Event != "PreToolUse" || out.Decision != "deny" {
			t.Fatalf("%s: %+v", name, out)
		}
	}
	out := fire(t, e, "session.start", map[string]any{"source": "startup"})
	if out.Event != "SessionStart" {
		t.Fatalf("%+v", out)
	}
}

func TestRegisterValidation(t *testing.T) {
	e := newEngine(t)
	cases := []struct {
		name string
		hook engine.Hook
		want string
	}{
		{"no id", engine.Hook{Event: "Stop", Handler: engine.Static(nil)}, "needs an id"},
		{"no handler", engine.Hook{ID: "x", Event: "Stop"}, "needs a handler"},
		{"no event", engine.Hook{ID: "x", Handler: engine.Static(nil)}, "needs an event"},
		{"bad regex", engine.Hook{ID: "x", Event: "PreToolUse", Matcher: "Bash(", Handler: engine.Static(nil)}, "not a valid regular expression"},
		{"bad condition", engine.Hook{ID: "x", Event: "PreToolUse", When: "tool_name ==", Handler: engine.Static(nil)}, "1:"},
		{"decision not accepted", engine.Hook{ID: "x", Event: "Stop", Handler: engine.Static(engine.Ask(""))}, "accepts block"},
		{"decision on void event", engine.Hook{ID: "x", Event: "Notification", Handler: engine.Static(engine.Block(""))}, "takes no decision"},
		{"background observe", engine.Hook{ID: "x", Event: "PreToolUse", Background: true, Observe: true, Handler: engine.Static(nil)}, "both background and observe"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := e.Register(tc.hook)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
	register(t, e, static("dup", "Stop", nil))
	var de *engine.DuplicateHookError
	if err := e.Register(static("dup", "Stop", nil)); !errors.As(err, &de) {
		t.Fatalf("duplicate: %v", err)
	}
}

func TestEnableDisableUnregister(t *testing.T) {
	e := newEngine(t)
	register(t, e, static("gate", "PreToolUse", engine.Deny("no")))
	if err := e.SetEnabled("gate", false); err != nil {
		t.Fatal(err)
	}
	out := fire(t, e, "PreToolUse", bash("ls"))
	if out.Blocked || traceOf(t, out, "gate").SkipReason != engine.SkipDisabled {
		t.Fatalf("%+v", out)
	}
	if err := e.SetEnabled("gate", true); err != nil {
		t.Fatal(err)
	}
	if out := fire(t, e, "PreToolUse", bash("ls")); !out.Blocked {
		t.Fatalf("%+v", out)
	}
	if !e.Unregister("gate") || e.Unregister("gate") {
		t.Fatal("unregister")
	}
	if out := fire(t, e, "PreToolUse", bash("ls")); len(out.Hooks) != 0 || out.Blocked {
		t.Fatalf("%+v", out)
	}
	if err := e.SetEnabled("gate", true); err == nil {
		t.Fatal("enabling a missing hook should fail")
	}
}

func TestMultiEventHook(t *testing.T) {
	e := newEngine(t)
	register(t, e, engine.Hook{ID: "both", Event: "PreToolUse", Events: []string{"PermissionRequest", "PreToolUse"}, Handler: engine.Static(engine.Deny("no"))})
	for _, ev := range []string{"PreToolUse", "PermissionRequest"} {
		if out := fire(t, e, ev, bash("ls")); out.Decision != "deny" || len(out.Hooks) != 1 {
			t.Fatalf("%s: %+v", ev, out)
		}
	}
}

func TestCustomEvent(t *testing.T) {
	e := newEngine(t)
	_, err := e.RegisterEvent(engine.EventSpec{
		Name: "deploy.pre", Strategy: engine.Modifying, MatcherField: "service",
		Decisions: []string{"block", "allow"},
		Merge: map[string]engine.FieldRule{
			"replicas": {Rule: engine.MergeLast},
			"notes":    {Rule: engine.MergeConcat},
			"block":    {Rule: engine.MergeSticky, Terminal: true, Blocks: true},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	register(t, e,
		engine.Hook{ID: "a", Event: "deploy.pre", Matcher: "api|web", Priority: 2, Handler: engine.Static(engine.Result{"replicas": 3, "notes": "scaled"})},
		engine.Hook{ID: "b", Event: "deploy.pre", Priority: 1, Handler: engine.Static(engine.Result{"replicas": 5, "notes": "checked"})},
		engine.Hook{ID: "freeze", Event: "deploy.pre", When: "frozen == true", Handler: engine.Static(engine.Result{"block": true})},
	)
	out := fire(t, e, "deploy.pre", map[string]any{"service": "api"})
	if out.Output["replicas"] != 5 || out.Output["notes"] != "scaled\n\nchecked" || out.Blocked {
		t.Fatalf("%+v", out.Output)
	}
	out = fire(t, e, "deploy.pre", map[string]any{"service": "db", "frozen": true})
	if traceOf(t, out, "a").SkipReason != engine.SkipMatcher || !out.Blocked {
		t.Fatalf("%+v", out)
	}
	if _, err := e.RegisterEvent(engine.EventSpec{Name: "Stop", Strategy: engine.Void}); err == nil {
		t.Fatal("a custom event took a built-in name")
	}
	if _, err := e.RegisterEvent(engine.EventSpec{Name: "x", Strategy: engine.Void, Aliases: []string{"tool.pre"}}); err == nil {
		t.Fatal("a custom event took a built-in alias")
	}
}

func TestSyncStrategyChainsInline(t *testing.T) {
	e := newEngine(t)
	register(t, e,
		engine.Hook{ID: "redact", Event: "tool_result_persist", Priority: 1, Handler: fn(func(_ context.Context, c *engine.Call) (engine.Result, error) {
			return engine.Result{"message": strings.ReplaceAll(c.Payload["message"].(string), "secret", "***")}, nil
		})},
		engine.Hook{ID: "trim", Event: "tool_result_persist", Handler: fn(func(_ context.Context, c *engine.Call) (engine.Result, error) {
			return engine.Result{"message": strings.TrimSpace(c.Payload["message"].(string))}, nil
		})},
	)
	out := fire(t, e, "tool_result_persist", map[string]any{"message": "  the secret  "})
	if out.Output["message"] != "the ***" {
		t.Fatalf("%+v", out.Output)
	}
}

func TestLoadSwapsAtomicallyAndKeepsOldOnError(t *testing.T) {
	e := newEngine(t)
	good := &engine.Config{
		Events: []engine.EventSpec{{Name: "deploy.pre", Strategy: engine.Modifying, Decisions: []string{"block"}}},
		Hooks: []engine.Hook{
			static("v1", "PreToolUse", engine.Deny("v1")),
			static("deploy", "deploy.pre", engine.Block("frozen")),
		},
	}
	if err := e.Load(good); err != nil {
		t.Fatal(err)
	}
	register(t, e, static("go-hook", "PostToolUse", engine.Context("from go")))
	bad := &engine.Config{Hooks: []engine.Hook{
		static("v2", "PreToolUse", engine.Allow("v2")),
		static("broken", "NoSuchEvent", nil),
		{ID: "bad-cond", Event: "PreToolUse", When: "((", Handler: engine.Static(nil)},
		static("v2", "Stop", nil),
	}}
	err := e.Load(bad)
	var le *engine.LoadError
	if !errors.As(err, &le) || len(le.Errs) != 3 {
		t.Fatalf("load error %v", err)
	}
	if out := fire(t, e, "PreToolUse", bash("ls")); out.Reason != "v1" {
		t.Fatalf("a broken config replaced the old one: %+v", out)
	}
	if out := fire(t, e, "deploy.pre", nil); out.Decision != "block" {
		t.Fatalf("%+v", out)
	}
	// A good reload replaces config hooks and events, keeps Go hooks.
	if err := e.Load(&engine.Config{Hooks: []engine.Hook{static("v2", "PreToolUse", engine.Allow("v2"))}}); err != nil {
		t.Fatal(err)
	}
	if out := fire(t, e, "PreToolUse", bash("ls")); out.Reason != "v2" || len(out.Hooks) != 1 {
		t.Fatalf("%+v", out)
	}
	if _, err := e.Fire(context.Background(), engine.Event{Name: "deploy.pre"}); err == nil {
		t.Fatal("a removed custom event still fires")
	}
	if out := fire(t, e, "PostToolUse", nil); out.AdditionalContext != "" {
		// PostToolUse is modifying: Go hook context merges.
		if out.AdditionalContext != "from go" {
			t.Fatalf("%+v", out)
		}
	}
	// A config hook may not reuse a Go hook's id.
	if err := e.Load(&engine.Config{Hooks: []engine.Hook{static("go-hook", "Stop", nil)}}); err == nil {
		t.Fatal("duplicate id across Go and config accepted")
	}
}

func TestLoadSettings(t *testing.T) {
	e := newEngine(t)
	cap1 := 1
	err := e.Load(&engine.Config{
		Settings: engine.Settings{StopBlockCap: &cap1, DefaultTimeout: 20 * time.Millisecond, MaxConcurrency: 2},
		Hooks: []engine.Hook{
			static("stop", "Stop", engine.Block("more")),
			{ID: "slow", Event: "PreToolUse", Handler: fn(func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
				<-ctx.Done()
				return nil, ctx.Err()
			})},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	p := map[string]any{"session_id": "s"}
	if out := fire(t, e, "Stop", p); out.Decision != "block" {
		t.Fatalf("%+v", out)
	}
	if out := fire(t, e, "Stop", p); !out.StopGuard.Released {
		t.Fatalf("cap of 1 not applied: %+v", out)
	}
	if tr := traceOf(t, fire(t, e, "PreToolUse", nil), "slow"); tr.Status != engine.StatusTimeout {
		t.Fatalf("default timeout not applied: %+v", tr)
	}
}

func TestConcurrentFireAndRegistryChanges(t *testing.T) {
	e := newEngine(t, engine.WithMaxConcurrency(4))
	register(t, e,
		static("base", "PreToolUse", engine.Context("base")),
		engine.Hook{ID: "void", Event: "Notification", Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) { return nil, nil })},
	)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var fires atomic.Int64
	for range 4 {
		wg.Go(func() {
			for ctx.Err() == nil {
				for _, ev := range []string{"PreToolUse", "Notification", "Stop"} {
					out, err := e.Fire(context.Background(), engine.Event{Name: ev, Payload: bash("ls")})
					if err != nil {
						t.Error(err)
						return
					}
					if ev == "PreToolUse" && !strings.Contains(out.AdditionalContext, "base") {
						t.Errorf("lost the base hook: %+v", out)
						return
					}
					fires.Add(1)
				}
			}
		})
	}
	wg.Go(func() {
		for i := 0; ctx.Err() == nil; i++ {
			id := fmt.Sprintf("dyn%d", i%5)
			_ = e.Register(engine.Hook{ID: id, Event: "PreToolUse", Priority: i % 3, Handler: engine.Static(engine.Context(id))})
			_ = e.SetEnabled(id, i%2 == 0)
			if i%3 == 0 {
				e.Unregister(id)
			}
			_ = e.Load(&engine.Config{Hooks: []engine.Hook{static(fmt.Sprintf("cfg%d", i%7), "Stop", engine.Block("x"))}})
		}
	})
	time.Sleep(300 * time.Millisecond)
	cancel()
	wg.Wait()
	if fires.Load() == 0 {
		t.Fatal("no fires")
	}
}

func TestFireHonoursCallerCancellation(t *testing.T) {
	e := newEngine(t)
	register(t, e, engine.Hook{ID: "wait", Event: "PreToolUse", Handler: fn(func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	out, err := e.Fire(ctx, engine.Event{Name: "PreToolUse"})
	if !errors.Is(err, context.DeadlineExceeded) || out.Event != "PreToolUse" {
		t.Fatalf("out=%+v err=%v", out, err)
	}
}

// TestPanickingHooksLeaveNoTimers: a hook that panics on every call does
// not leave its deadline timer behind (the live heap stays flat).
func TestPanickingHooksLeaveNoTimers(t *testing.T) {
	e := newEngine(t)
	register(t, e, engine.Hook{ID: "p", Event: "PostToolUse", Timeout: time.Hour,
		Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) { panic("bug") })})
	fireN := func(n int) {
		for range n {
			if _, err := e.Fire(context.Background(), engine.Event{Name: "PostToolUse"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	live := func() uint64 {
		runtime.GC()
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	fireN(1000)
	before := live()
	fireN(20000)
	if after := live(); after > before+1<<20 {
		t.Fatalf("live heap grew from %d KiB to %d KiB over 20000 panicking calls", before>>10, after>>10)
	}
}

// TestMemoryLoopStoreIsBounded: a server seeing endless distinct sessions
// keeps at most MaxLoopSessions streaks, and forgets the oldest first.
func TestMemoryLoopStoreIsBounded(t *testing.T) {
	s := engine.NewMemoryLoopStore()
	ctx := context.Background()
	for i := range 3 * engine.MaxLoopSessions {
		if err := s.SetLoopCount(ctx, fmt.Sprint("session-", i), 1); err != nil {
			t.Fatal(err)
		}
	}
	kept := 0
	for i := range 3 * engine.MaxLoopSessions {
		if n, _ := s.LoopCount(ctx, fmt.Sprint("session-", i)); n == 1 {
			kept++
		}
	}
	if kept == 0 || kept > engine.MaxLoopSessions {
		t.Fatalf("%d sessions kept", kept)
	}
	if n, _ := s.LoopCount(ctx, fmt.Sprint("session-", 3*engine.MaxLoopSessions-1)); n != 1 {
		t.Fatal("the newest session was forgotten")
	}
	if n, _ := s.LoopCount(ctx, "session-0"); n != 0 {
		t.Fatal("the oldest session was kept")
	}
}
