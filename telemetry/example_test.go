package telemetry_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/server"
	"github.com/hookctl/hookctl/telemetry"
)

// An engine traced to a TracerProvider of its own: one span per fire, a
// child span per hook that ran. In a program, build the provider with
// FromEnv (or your own exporter) and shut it down before exiting.
func Example() {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer tp.Shutdown(context.Background())

	eng, _ := engine.New(telemetry.WithTracing(tp))
	defer eng.Close(context.Background())
	_ = eng.Register(engine.Hook{ID: "no-rm", Event: "PreToolUse", Matcher: "Bash", Handler: engine.Static(engine.Deny("no rm"))})
	_ = eng.Register(engine.Hook{ID: "edits", Event: "PreToolUse", Matcher: "Edit", Handler: engine.Static(engine.Ask("check"))})

	// The embedder's own span: the fire span is its child.
	ctx, span := tp.Tracer("example").Start(context.Background(), "agent turn")
	_, _ = eng.Fire(ctx, engine.Event{Name: "PreToolUse", Payload: map[string]any{"tool_name": "Bash"}})
	span.End()

	for _, s := range rec.Ended() {
		fmt.Printf("%-16s child of %s\n", s.Name(), parentName(rec, s))
	}
	// Output:
	// hook no-rm       child of fire PreToolUse
	// fire PreToolUse  child of agent turn
	// agent turn       child of (root)
}

func parentName(rec *tracetest.SpanRecorder, s sdktrace.ReadOnlySpan) string {
	for _, p := range rec.Ended() {
		if p.SpanContext().SpanID() == s.Parent().SpanID() {
			return p.Name()
		}
	}
	return "(root)"
}

// A hook server whose fires continue the trace of each request's
// traceparent header.
func ExampleHandler() {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer tp.Shutdown(context.Background())
	eng, _ := engine.New(telemetry.WithTracing(tp))
	defer eng.Close(context.Background())
	_ = eng.Register(engine.Hook{ID: "no-rm", Event: "PreToolUse", Handler: engine.Static(engine.Deny("no rm"))})

	ts := httptest.NewServer(telemetry.Handler(server.NewServer(eng, nil)))
	defer ts.Close()
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/v1/fire/PreToolUse", strings.NewReader(`{"tool_name":"Bash"}`))
	req.Header.Set("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	req.Header.Set("Content-Type", "application/json")
	resp, err := ts.Client().Do(req)
	if err != nil {
		panic(err)
	}
	resp.Body.Close()

	for _, s := range rec.Ended() {
		if s.Name() == "fire PreToolUse" {
			fmt.Println(s.SpanContext().TraceID(), s.Parent().SpanID(), s.SpanKind())
		}
	}
	// Output: 4bf92f3577b34da6a3ce929d0e0e4736 00f067aa0ba902b7 server
}

// Tracing configured the standard way: FromEnv reads the OTEL_* variables
// and returns no provider when they leave tracing off.
func ExampleFromEnv() {
	getenv := func(k string) string {
		return map[string]string{"OTEL_TRACES_EXPORTER": "none"}[k]
	}
	tp, err := telemetry.FromEnv(context.Background(), telemetry.WithGetenv(getenv))
	fmt.Println(tp == nil, err)
	// Output: true <nil>
}
