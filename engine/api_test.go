package engine_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
)

// TestEventNameAndIDMustAgree: an Event naming one event by Name and
// another by ID is an error, never a fire of either.
func TestEventNameAndIDMustAgree(t *testing.T) {
	e := newEngine(t)
	register(t, e, static("deny", "PreToolUse", engine.Deny("no")))
	pre, _ := e.Resolve("PreToolUse")
	stop, _ := e.Resolve("Stop")
	_, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", ID: stop})
	var me *engine.EventMismatchError
	if !errors.As(err, &me) || me.Event != "Stop" || me.Name != "PreToolUse" {
		t.Fatalf("got %v", err)
	}
	for _, ev := range []engine.Event{{Name: "PreToolUse", ID: pre}, {Name: "before_tool_call", ID: pre}, {ID: pre}} {
		out, err := e.Fire(context.Background(), ev)
		if err != nil || out.Decision != engine.DecisionDeny {
			t.Fatalf("%+v: %v %+v", ev, err, out)
		}
	}
}

type ctxKey struct{}

// TestBackgroundHooksKeepTheCallersValues: a background hook sees the
// values of the context its fire was given, and is not cancelled when that
// context ends after Fire returned.
func TestBackgroundHooksKeepTheCallersValues(t *testing.T) {
	e := newEngine(t)
	got := make(chan string, 1)
	cancelled := make(chan struct{})
	register(t, e, engine.Hook{ID: "bg", Event: "PostToolUse", Background: true, Handler: fn(func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
		<-cancelled // runs on after the caller's cancel
		v, _ := ctx.Value(ctxKey{}).(string)
		if ctx.Err() != nil {
			v += " (cancelled)"
		}
		got <- v
		return nil, nil
	})})
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, "trace-7"))
	if _, err := e.Fire(ctx, engine.Event{Name: "PostToolUse", Payload: bash("ls")}); err != nil {
		t.Fatal(err)
	}
	cancel()
	close(cancelled)
	select {
	case v := <-got:
		if v != "trace-7" {
			t.Fatalf("background hook saw %q", v)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("background hook did not run")
	}
}

// TestMiddlewareWrapsEveryHook: middleware runs around declarative, Go
// and void hooks alike, sees each hook's info, and the trace keeps the
// handler's kind.
func TestMiddlewareWrapsEveryHook(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	mw := func(next engine.Handler, info engine.HookInfo) engine.Handler {
		return engine.HandlerFunc(func(ctx context.Context, call *engine.Call) (engine.Result, error) {
			mu.Lock()
			seen = append(seen, info.ID+"@"+info.Event)
			mu.Unlock()
			return next.Handle(ctx, call)
		})
	}
	e := newEngine(t, engine.WithMiddleware(mw))
	register(t, e,
		static("decl", "PreToolUse", engine.Deny("no")),
		engine.Hook{ID: "go", Event: "PreToolUse", Priority: 1, Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) { return nil, nil })},
		static("void", "Notification", engine.Context("x")),
	)
	out := fire(t, e, "PreToolUse", bash("ls"))
	fire(t, e, "Notification", map[string]any{"message": "m"})
	if out.Decision != engine.DecisionDeny || traceOf(t, out, "decl").Handler != "declarative" || traceOf(t, out, "go").Handler != "go" {
		t.Fatalf("%+v", out)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(seen, ","); got != "go@PreToolUse,decl@PreToolUse,void@Notification" {
		t.Fatalf("middleware saw %s", got)
	}
}

// TestCloseWaitsForFiresWithoutPolling: Close returns once the fire in
// progress ends, and with the context's error when it does not end in
// time; fires after Close are refused.
func TestCloseWaitsForFiresWithoutPolling(t *testing.T) {
	e, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	started := make(chan struct{})
	var done atomic.Bool
	register(t, e, engine.Hook{ID: "slow", Event: "PreToolUse", Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) {
		close(started)
		<-release
		done.Store(true)
		return nil, nil
	})})
	go e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: bash("ls")})
	<-started
	short, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := e.Close(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Close with a fire still running: %v", err)
	}
	if _, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse"}); !errors.Is(err, engine.ErrClosed) {
		t.Fatalf("fire after Close: %v", err)
	}
	close(release)

	e2, _ := engine.New()
	release2 := make(chan struct{})
	started2 := make(chan struct{})
	var finished atomic.Bool
	register(t, e2, engine.Hook{ID: "slow", Event: "PreToolUse", Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) {
		close(started2)
		<-release2
		finished.Store(true)
		return nil, nil
	})})
	go e2.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: bash("ls")})
	<-started2
	time.AfterFunc(30*time.Millisecond, func() { close(release2) })
	if err := e2.Close(context.Background()); err != nil || !finished.Load() {
		t.Fatalf("Close returned %v before the fire finished (%v)", err, finished.Load())
	}
}

// TestRewriteChainsTheInput: engine.Rewrite replaces the tool input for
// the hooks after it and in the outcome.
func TestRewriteChainsTheInput(t *testing.T) {
	e := newEngine(t)
	register(t, e,
		engine.Hook{ID: "uv", Event: "PreToolUse", Priority: 2, Handler: engine.Static(engine.Rewrite(map[string]any{"command": "uv pip install x"}))},
		engine.Hook{ID: "check", Event: "PreToolUse", Priority: 1, Handler: fn(func(_ context.Context, c *engine.Call) (engine.Result, error) {
			in, _ := c.Payload["tool_input"].(map[string]any)
			return engine.Context("saw " + in["command"].(string)), nil
		})},
	)
	out := fire(t, e, "PreToolUse", bash("pip install x"))
	if out.UpdatedInput["command"] != "uv pip install x" || out.AdditionalContext != "saw uv pip install x" {
		t.Fatalf("%+v", out)
	}
}

// TestTypedHandlers: On decodes the payload into the handler's type; a
// payload that does not fit is the hook's error.
func TestTypedHandlers(t *testing.T) {
	e := newEngine(t)
	err := engine.On(e, "no-rm", "PreToolUse", func(_ context.Context, p engine.ToolPayload, _ *engine.Call) (engine.Result, error) {
		if cmd, _ := p.ToolInput["command"].(string); p.ToolName == "Bash" && strings.Contains(cmd, "rm -rf") {
			return engine.Deny("no rm -rf in session " + p.SessionID), nil
		}
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if out := fire(t, e, "PreToolUse", bash("rm -rf /")); out.Decision != engine.DecisionDeny || out.Reason != "no rm -rf in session s1" {
		t.Fatalf("%+v", out)
	}
	out := fire(t, e, "PreToolUse", map[string]any{"tool_name": 7})
	if tr := traceOf(t, out, "no-rm"); tr.Status != engine.StatusError || !strings.Contains(tr.Error, "does not fit") {
		t.Fatalf("%+v", tr)
	}
}

// TestSkipCodes: every skip carries a code beside its text.
func TestSkipCodes(t *testing.T) {
	e := newEngine(t)
	register(t, e,
		engine.Hook{ID: "stopper", Event: "PreToolUse", Priority: 9, Handler: engine.Static(engine.Deny("no"))},
		engine.Hook{ID: "after", Event: "PreToolUse", Priority: 1, Handler: engine.Static(engine.Allow(""))},
		engine.Hook{ID: "reads", Event: "PreToolUse", Priority: 10, Matcher: "Read", Handler: engine.Static(engine.Allow(""))},
		engine.Hook{ID: "never", Event: "PreToolUse", Priority: 11, When: "false", Handler: engine.Static(engine.Allow(""))},
	)
	out := fire(t, e, "PreToolUse", bash("ls"))
	for id, want := range map[string]engine.SkipCode{"after": engine.SkipCodeStopped, "reads": engine.SkipCodeMatcher, "never": engine.SkipCodeCondition} {
		if tr := traceOf(t, out, id); tr.SkipCode != want {
			t.Errorf("%s: %q, want %q", id, tr.SkipCode, want)
		}
	}
	if !out.Decision.Blocks() || engine.DecisionAsk.Blocks() {
		t.Fatal("Blocks")
	}
}

// TestUnknownResultFieldsAreNoted: a result field the event does not take
// (a misspelled decision, OpenClaw's cancel on PreToolUse) is noted in the
// trace, with a suggestion, and logged for a Go or script hook.
func TestUnknownResultFieldsAreNoted(t *testing.T) {
	var logs strings.Builder
	e := newEngine(t, engine.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	register(t, e,
		engine.Hook{ID: "typo", Event: "PreToolUse", Priority: 2, Handler: fn(func(context.Context, *engine.Call) (engine.Result, error) {
			return engine.Result{"decison": "deny"}, nil
		})},
		static("cancel", "PreToolUse", engine.Result{"cancel": true}),
	)
	out := fire(t, e, "PreToolUse", bash("rm -rf /"))
	if tr := traceOf(t, out, "typo"); !strings.Contains(tr.Note, `unknown result field "decison"`) || !strings.Contains(tr.Note, `did you mean "decision"`) {
		t.Fatalf("typo note %q", tr.Note)
	}
	if tr := traceOf(t, out, "cancel"); !strings.Contains(tr.Note, `unknown result field "cancel"`) {
		t.Fatalf("cancel note %q", tr.Note)
	}
	if !strings.Contains(logs.String(), "hook=typo") || strings.Contains(logs.String(), "hook=cancel") {
		t.Fatalf("logs %q", logs.String())
	}
}
