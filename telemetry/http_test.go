package telemetry_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/server"
	"github.com/hookctl/hookctl/telemetry"
)

const (
	callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	callerSpan  = "00f067aa0ba902b7"
)

// TestHandlerTakesTraceparent: both of the server's firing endpoints make
// the fire span a child of the span named by the request's traceparent
// (server kind, tracestate kept); a request without one starts a trace.
func TestHandlerTakesTraceparent(t *testing.T) {
	tp, sr := recorded(t)
	e := newEngine(t, telemetry.WithTracing(tp))
	register(t, e, engine.Hook{ID: "deny", Event: "PreToolUse", Handler: engine.Static(engine.Deny("no"))})
	ts := httptest.NewServer(telemetry.Handler(server.NewServer(e, nil)))
	defer ts.Close()

	for _, c := range []struct{ path, body string }{
		{"/v1/fire/PreToolUse", `{"tool_name":"Bash"}`},
		{"/claude", `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{}}`},
		{"/claude/PreToolUse", `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{}}`},
	} {
		t.Run(strings.TrimPrefix(c.path, "/"), func(t *testing.T) {
			sr.Reset()
			req, _ := http.NewRequest(http.MethodPost, ts.URL+c.path, strings.NewReader(c.body))
			req.Header.Set("traceparent", "00-"+callerTrace+"-"+callerSpan+"-01")
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("tracestate", "vendor=opaque")
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "deny") {
				t.Fatalf("%d %s", resp.StatusCode, body)
			}
			fire := spans(t, sr)["fire PreToolUse"]
			if fire == nil {
				t.Fatal("no fire span")
			}
			if got := fire.SpanContext().TraceID().String(); got != callerTrace {
				t.Errorf("trace id %s, want the caller's %s", got, callerTrace)
			}
			if got := fire.Parent().SpanID().String(); got != callerSpan || !fire.Parent().IsRemote() {
				t.Errorf("parent span %s (remote %v), want the caller's %s", got, fire.Parent().IsRemote(), callerSpan)
			}
			if fire.SpanKind() != trace.SpanKindServer {
				t.Errorf("kind %v, want server", fire.SpanKind())
			}
			if got := fire.SpanContext().TraceState().Get("vendor"); got != "opaque" {
				t.Errorf("tracestate vendor=%q", got)
			}
		})
	}

	sr.Reset()
	resp, err := ts.Client().Post(ts.URL+"/v1/fire/PreToolUse", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	fire := spans(t, sr)["fire PreToolUse"]
	if fire == nil || fire.Parent().IsValid() || fire.SpanKind() != trace.SpanKindInternal {
		t.Fatalf("a request without traceparent: want a root span, got %+v", fire)
	}
}

// TestContextFromEnv: TRACEPARENT and TRACESTATE in the environment make
// the fire a child of the parent process's span.
func TestContextFromEnv(t *testing.T) {
	env := map[string]string{"TRACEPARENT": "00-" + callerTrace + "-" + callerSpan + "-01", "TRACESTATE": "k=v"}
	ctx := telemetry.ContextFromEnv(context.Background(), func(k string) string { return env[k] })
	sc := trace.SpanContextFromContext(ctx)
	if sc.TraceID().String() != callerTrace || sc.SpanID().String() != callerSpan || !sc.IsRemote() || sc.TraceState().Get("k") != "v" {
		t.Fatalf("span context %+v", sc)
	}
	base := context.Background()
	if telemetry.ContextFromEnv(base, func(string) string { return "" }) != base {
		t.Fatal("no TRACEPARENT: want ctx unchanged")
	}
	if trace.SpanContextFromContext(telemetry.ContextFromEnv(base, func(k string) string {
		if k == "TRACEPARENT" {
			return "garbage"
		}
		return ""
	})).IsValid() {
		t.Fatal("a bad TRACEPARENT made a span context")
	}
}
