package telemetry_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/telemetry"
)

// recorded returns a TracerProvider that keeps every span in memory.
func recorded(t *testing.T) (*sdktrace.TracerProvider, *tracetest.SpanRecorder) {
	t.Helper()
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr), sdktrace.WithSampler(sdktrace.AlwaysSample()))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return tp, sr
}

func newEngine(t *testing.T, opts ...engine.Option) *engine.Engine {
	t.Helper()
	e, err := engine.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close(context.Background()) })
	return e
}

func register(t *testing.T, e *engine.Engine, hooks ...engine.Hook) {
	t.Helper()
	for _, h := range hooks {
		if err := e.Register(h); err != nil {
			t.Fatalf("register %s: %v", h.ID, err)
		}
	}
}

// spans indexes ended spans by name; a name seen twice fails the test.
func spans(t *testing.T, sr *tracetest.SpanRecorder) map[string]sdktrace.ReadOnlySpan {
	t.Helper()
	m := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range sr.Ended() {
		if _, dup := m[s.Name()]; dup {
			t.Fatalf("two spans named %q", s.Name())
		}
		m[s.Name()] = s
	}
	return m
}

func names(m map[string]sdktrace.ReadOnlySpan) []string {
	var n []string
	for k := range m {
		n = append(n, k)
	}
	slices.Sort(n)
	return n
}

func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

// want checks a span's attributes: strings, ints and bools by value.
func want(t *testing.T, s sdktrace.ReadOnlySpan, kv ...attribute.KeyValue) {
	t.Helper()
	got := attrs(s)
	for _, w := range kv {
		if g, ok := got[w.Key]; !ok || g != w.Value {
			t.Errorf("%s: %s = %v (set %v), want %v", s.Name(), w.Key, g.String(), ok, w.Value.String())
		}
	}
}

func hookHandler(f func(ctx context.Context, c *engine.Call) (engine.Result, error)) engine.Handler {
	return engine.HandlerFunc(f)
}

// TestFireAndHookSpans: one fire span, a child of the caller's span from
// ctx; one child span per hook that ran (a decision, a failure, a
// declarative hook, a background hook that ends after Fire returned), none
// for the skipped hook, with the documented attributes and no payload.
func TestFireAndHookSpans(t *testing.T) {
	tp, sr := recorded(t)
	e := newEngine(t, telemetry.WithTracing(tp))
	release := make(chan struct{})
	register(t, e,
		engine.Hook{ID: "fails", Event: "PreToolUse", Priority: 40, OnError: engine.OnError{Policy: engine.ErrorIgnore},
			Handler: hookHandler(func(context.Context, *engine.Call) (engine.Result, error) {
				time.Sleep(2 * time.Millisecond)
				return nil, errors.New("boom: token=ghp_0123456789abcdefghijklmnopqrstuvwxyzAB")
			})},
		engine.Hook{ID: "notes", Event: "PreToolUse", Priority: 30, Source: "hooks.hcl:3", Handler: engine.Static(engine.Context("careful"))},
		engine.Hook{ID: "decides", Event: "PreToolUse", Priority: 20, Matcher: "Bash",
			Handler: hookHandler(func(context.Context, *engine.Call) (engine.Result, error) {
				return engine.Deny("no rm: sk-ant-api03-secretsecretsecret"), nil
			})},
		engine.Hook{ID: "skipped", Event: "PreToolUse", Priority: 10, Matcher: "Write", Handler: engine.Static(engine.Ask("?"))},
		engine.Hook{ID: "later", Event: "PreToolUse", Background: true,
			Handler: hookHandler(func(context.Context, *engine.Call) (engine.Result, error) {
				<-release
				return nil, nil
			})},
	)

	ctx, caller := tp.Tracer("test").Start(context.Background(), "caller")
	out, err := e.Fire(ctx, engine.Event{Name: "before_tool_call", Payload: map[string]any{
		"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf / # password=hunter22"}}})
	caller.End()
	if err != nil || out.Decision != engine.DecisionDeny {
		t.Fatalf("fire: %v %+v", err, out)
	}
	if _, ok := spans(t, sr)["hook later"]; ok {
		t.Fatal("the background hook's span ended before the hook did")
	}
	close(release)
	if err := e.Close(context.Background()); err != nil {
		t.Fatal(err)
	}

	got := spans(t, sr)
	if n := names(got); !slices.Equal(n, []string{"caller", "fire PreToolUse", "hook decides", "hook fails", "hook later", "hook notes"}) {
		t.Fatalf("spans: %q", n)
	}
	fire := got["fire PreToolUse"]
	if fire.Parent().SpanID() != caller.SpanContext().SpanID() || fire.SpanContext().TraceID() != caller.SpanContext().TraceID() {
		t.Errorf("fire span's parent is %v, want the caller %v", fire.Parent(), caller.SpanContext())
	}
	if fire.SpanKind() != trace.SpanKindInternal || fire.Status().Code != codes.Unset {
		t.Errorf("fire span: kind %v status %v", fire.SpanKind(), fire.Status())
	}
	want(t, fire,
		telemetry.KeyEvent.String("PreToolUse"),
		telemetry.KeyHooks.Int(5),
		telemetry.KeyHooksRan.Int(2),
		telemetry.KeyHooksSkipped.Int(1),
		telemetry.KeyHooksFailed.Int(1),
		telemetry.KeyHooksQueued.Int(1),
		telemetry.KeyDecision.String("deny"),
		telemetry.KeyBlocked.Bool(true),
		telemetry.KeyContinue.Bool(true),
	)
	for _, name := range []string{"hook decides", "hook fails", "hook later", "hook notes"} {
		s := got[name]
		if s.Parent().SpanID() != fire.SpanContext().SpanID() || s.SpanContext().TraceID() != fire.SpanContext().TraceID() {
			t.Errorf("%s: parent %v, want the fire span %v", name, s.Parent(), fire.SpanContext())
		}
		if name != "hook later" && (s.StartTime().Before(fire.StartTime()) || s.EndTime().After(fire.EndTime())) {
			t.Errorf("%s: [%v, %v] outside the fire's [%v, %v]", name, s.StartTime(), s.EndTime(), fire.StartTime(), fire.EndTime())
		}
	}
	want(t, got["hook decides"],
		telemetry.KeyEvent.String("PreToolUse"), telemetry.KeyHookID.String("decides"), telemetry.KeyHookHandler.String("go"),
		telemetry.KeyHookPhase.String("chain"), telemetry.KeyHookStatus.String("decided"), telemetry.KeyHookDecision.String("deny"))
	want(t, got["hook notes"], telemetry.KeyHookHandler.String("declarative"), telemetry.KeyHookStatus.String("decided"),
		telemetry.KeyHookSource.String("hooks.hcl:3"), telemetry.KeyHookDurationUS.Int64(0))
	want(t, got["hook later"], telemetry.KeyHookPhase.String("background"), telemetry.KeyHookStatus.String("ran"))
	fails := got["hook fails"]
	want(t, fails, telemetry.KeyHookStatus.String("error"), telemetry.KeyErrorType.String("error"))
	if fails.Status().Code != codes.Error || !strings.Contains(fails.Status().Description, "boom") ||
		strings.Contains(fails.Status().Description, "ghp_0123") {
		t.Errorf("failed hook's status: %+v (want Error, its message, the token redacted)", fails.Status())
	}
	if d := fails.EndTime().Sub(fails.StartTime()); d < 2*time.Millisecond {
		t.Errorf("failed hook's span lasted %v, the hook slept 2ms", d)
	}
	if us := attrs(fails)[telemetry.KeyHookDurationUS].AsInt64(); us < 2000 {
		t.Errorf("duration_us = %d", us)
	}
	for _, s := range sr.Ended() {
		for _, kv := range s.Attributes() {
			if v := kv.Value.String(); strings.Contains(v, "rm -rf") || strings.Contains(v, "sk-ant") || kv.Key == telemetry.KeyReason || kv.Key == telemetry.KeyHookReason {
				t.Errorf("%s carries payload contents without WithPayloadAttributes: %s=%s", s.Name(), kv.Key, v)
			}
		}
	}
}

// TestPayloadAttributes: asked for, the payload and the reasons are on
// the spans, with credentials redacted.
func TestPayloadAttributes(t *testing.T) {
	tp, sr := recorded(t)
	e := newEngine(t, telemetry.WithTracing(tp, telemetry.WithPayloadAttributes(true)))
	register(t, e, engine.Hook{ID: "decides", Event: "PreToolUse", Handler: engine.Static(engine.Deny("no: password=hunter22"))})
	_, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{
		"tool_name": "Bash", "tool_input": map[string]any{"command": "curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123456789' x"}}})
	if err != nil {
		t.Fatal(err)
	}
	got := spans(t, sr)
	fire := attrs(got["fire PreToolUse"])
	payload := fire[telemetry.KeyPayload].AsString()
	if !strings.Contains(payload, `"tool_name":"Bash"`) || !strings.Contains(payload, "curl") || strings.Contains(payload, "abcdefghijklmnop") {
		t.Errorf("payload attribute %q: want the payload with the bearer token redacted", payload)
	}
	for _, r := range []string{fire[telemetry.KeyReason].AsString(), attrs(got["hook decides"])[telemetry.KeyHookReason].AsString()} {
		if !strings.HasPrefix(r, "no: password=") || strings.Contains(r, "hunter22") {
			t.Errorf("reason attribute %q: want the reason with the password redacted", r)
		}
	}
}

// TestVoidHooksOnThePool: parallel hooks that run on the worker pool get
// their spans there, children of the fire span; a timeout is an error.
func TestVoidHooksOnThePool(t *testing.T) {
	tp, sr := recorded(t)
	e := newEngine(t, telemetry.WithTracing(tp))
	for _, id := range []string{"a", "b"} {
		register(t, e, engine.Hook{ID: id, Event: "Notification", Handler: hookHandler(func(context.Context, *engine.Call) (engine.Result, error) {
			time.Sleep(time.Millisecond)
			return nil, nil
		})})
	}
	register(t, e, engine.Hook{ID: "slow", Event: "Notification", Timeout: 5 * time.Millisecond,
		Handler: hookHandler(func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})})
	if _, err := e.Fire(context.Background(), engine.Event{Name: "Notification", Payload: map[string]any{"message": "hi"}}); err != nil {
		t.Fatal(err)
	}
	got := spans(t, sr)
	fire := got["fire Notification"]
	if fire == nil || fire.Parent().IsValid() {
		t.Fatalf("want a root fire span: %q", names(got))
	}
	for _, n := range []string{"hook a", "hook b", "hook slow"} {
		if s := got[n]; s == nil || s.Parent().SpanID() != fire.SpanContext().SpanID() {
			t.Fatalf("%s: not a child of the fire span (%q)", n, names(got))
		}
		want(t, got[n], telemetry.KeyHookPhase.String("void"))
	}
	slow := got["hook slow"]
	want(t, slow, telemetry.KeyHookStatus.String("timeout"), telemetry.KeyErrorType.String("timeout"))
	if slow.Status().Code != codes.Error || slow.Status().Description == "" {
		t.Errorf("timeout status: %+v", slow.Status())
	}
	want(t, fire, telemetry.KeyHooksRan.Int(2), telemetry.KeyHooksFailed.Int(1))
}

// TestNestedFire: a hook that fires another event makes that fire a child
// of its own fire span.
func TestNestedFire(t *testing.T) {
	tp, sr := recorded(t)
	e := newEngine(t, telemetry.WithTracing(tp))
	register(t, e,
		engine.Hook{ID: "outer", Event: "UserPromptSubmit", Handler: hookHandler(func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
			_, err := e.Fire(ctx, engine.Event{Name: "Notification", Payload: map[string]any{"message": "prompt seen"}})
			return nil, err
		})},
		engine.Hook{ID: "inner", Event: "Notification", Handler: engine.Static(engine.Context("x"))},
	)
	if _, err := e.Fire(context.Background(), engine.Event{Name: "UserPromptSubmit", Payload: map[string]any{"prompt": "hi"}}); err != nil {
		t.Fatal(err)
	}
	got := spans(t, sr)
	outer, inner := got["fire UserPromptSubmit"], got["fire Notification"]
	if outer == nil || inner == nil || inner.Parent().SpanID() != outer.SpanContext().SpanID() {
		t.Fatalf("nested fire is not a child of the outer fire: %q", names(got))
	}
}

// TestUnsampledFire: a fire the sampler drops records nothing and runs
// as usual.
func TestUnsampledFire(t *testing.T) {
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr), sdktrace.WithSampler(sdktrace.NeverSample()))
	e := newEngine(t, telemetry.WithTracing(tp))
	register(t, e, engine.Hook{ID: "d", Event: "PreToolUse", Handler: engine.Static(engine.Deny("no"))})
	out, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{"tool_name": "Bash"}})
	if err != nil || out.Decision != engine.DecisionDeny {
		t.Fatalf("%v %+v", err, out)
	}
	if n := len(sr.Ended()); n != 0 {
		t.Fatalf("%d spans recorded", n)
	}
}

// TestWithTracingNil: no provider, no observer.
func TestWithTracingNil(t *testing.T) {
	e := newEngine(t, telemetry.WithTracing(nil))
	register(t, e, engine.Hook{ID: "d", Event: "PreToolUse", Handler: engine.Static(engine.Deny("no"))})
	if out, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse"}); err != nil || out.Decision != engine.DecisionDeny {
		t.Fatalf("%v %+v", err, out)
	}
}
