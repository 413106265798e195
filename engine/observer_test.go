package engine_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
)

// runLog is a HookObserver keeping every run.
type runLog struct {
	mu   sync.Mutex
	runs []engine.HookRun
}

func (l *runLog) HookDone(r engine.HookRun) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.runs = append(l.runs, r)
}

func (l *runLog) byHook() map[string]engine.HookRun {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string]engine.HookRun{}
	for _, r := range l.runs {
		out[r.Hook] = r
	}
	return out
}

// A HookObserver is told of every hook that ran, in every phase (the
// background one included), with its status, duration and failure kind;
// skipped and declarative hooks are not runs.
func TestHookObserverSeesEveryRun(t *testing.T) {
	log := &runLog{}
	eng, err := engine.New(engine.WithHookObserver(log))
	if err != nil {
		t.Fatal(err)
	}
	fn := func(f func(ctx context.Context) (engine.Result, error)) engine.Handler {
		return engine.HandlerFunc(func(ctx context.Context, _ *engine.Call) (engine.Result, error) { return f(ctx) })
	}
	bgDone := make(chan struct{})
	for _, h := range []engine.Hook{
		{ID: "denies", Event: "PreToolUse", Handler: fn(func(context.Context) (engine.Result, error) {
			time.Sleep(2 * time.Millisecond)
			return engine.Deny("no"), nil
		})},
		{ID: "fails", Event: "PreToolUse", Priority: 10, Handler: fn(func(context.Context) (engine.Result, error) { return nil, errors.New("boom") })},
		{ID: "panics", Event: "PreToolUse", Priority: 9, Handler: fn(func(context.Context) (engine.Result, error) { panic("bad") })},
		{ID: "slow", Event: "PreToolUse", Priority: 8, Timeout: 10 * time.Millisecond, Handler: fn(func(ctx context.Context) (engine.Result, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})},
		{ID: "bad-cond", Event: "PreToolUse", Priority: 7, When: "tool_input.command > 3", Handler: fn(func(context.Context) (engine.Result, error) { return nil, nil })},
		{ID: "static", Event: "PreToolUse", Priority: 6, Handler: engine.Static(engine.Allow(""))},
		{ID: "never", Event: "PreToolUse", Matcher: "Write", Handler: fn(func(context.Context) (engine.Result, error) { return nil, nil })},
		{ID: "watcher", Event: "PostToolUse", Background: true, Handler: fn(func(context.Context) (engine.Result, error) {
			defer close(bgDone)
			return nil, nil
		})},
	} {
		if err := eng.Register(h); err != nil {
			t.Fatal(err)
		}
	}
	payload := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}
	out, err := eng.Fire(context.Background(), engine.Event{Name: "before_tool_call", Payload: payload})
	if err != nil || out.Decision != "deny" {
		t.Fatalf("%v %+v", err, out)
	}
	if _, err := eng.Fire(context.Background(), engine.Event{Name: "PostToolUse", Payload: payload}); err != nil {
		t.Fatal(err)
	}
	<-bgDone
	if err := eng.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	runs := log.byHook()
	want := map[string]struct {
		status engine.Status
		kind   string
		phase  engine.Phase
	}{
		"denies":   {engine.StatusDecided, "", engine.PhaseChain},
		"fails":    {engine.StatusError, "error", engine.PhaseChain},
		"panics":   {engine.StatusError, "panic", engine.PhaseChain},
		"slow":     {engine.StatusTimeout, "timeout", engine.PhaseChain},
		"bad-cond": {engine.StatusError, "error", engine.PhaseChain},
		"watcher":  {engine.StatusRan, "", engine.PhaseBackground},
	}
	var got []string
	for id := range runs {
		got = append(got, id)
	}
	slices.Sort(got)
	if len(runs) != len(want) {
		t.Fatalf("runs of %v, want %d hooks (not the static or skipped ones)", got, len(want))
	}
	for id, w := range want {
		r := runs[id]
		if r.Status != w.status || r.FailureKind() != w.kind || r.Phase != w.phase || r.Event != map[bool]string{true: "PostToolUse", false: "PreToolUse"}[id == "watcher"] || r.Handler != "go" {
			t.Errorf("%s: %+v (kind %q), want %v", id, r, r.FailureKind(), w)
		}
		if (w.kind != "") != (r.Err != nil) {
			t.Errorf("%s: err %v", id, r.Err)
		}
	}
	if d := runs["denies"].Duration; d < 2*time.Millisecond {
		t.Errorf("denies took %s", d)
	}
	if st := eng.Stats(); st.BackgroundPending != 0 || st.BackgroundDone != 1 || st.BackgroundCapacity != engine.DefaultBackgroundQueue {
		t.Errorf("stats %+v", st)
	}
}

// BackgroundPending counts the background hooks queued or running.
func TestStatsBackgroundPending(t *testing.T) {
	eng, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	_ = eng.Register(engine.Hook{ID: "bg", Event: "PostToolUse", Background: true,
		Handler: engine.HandlerFunc(func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
			<-release
			return nil, nil
		})})
	for range 3 {
		if _, err := eng.Fire(context.Background(), engine.Event{Name: "PostToolUse"}); err != nil {
			t.Fatal(err)
		}
	}
	if st := eng.Stats(); st.BackgroundPending != 3 {
		t.Fatalf("pending %d, want 3", st.BackgroundPending)
	}
	close(release)
	if err := eng.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := eng.Stats(); st.BackgroundPending != 0 || st.BackgroundDone != 3 {
		t.Fatalf("%+v", st)
	}
}

func TestWithHookObserverRefusesNil(t *testing.T) {
	if _, err := engine.New(engine.WithHookObserver(nil)); err == nil {
		t.Fatal("nil observer accepted")
	}
}
