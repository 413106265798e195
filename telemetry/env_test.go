package telemetry_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/otlptest"
	"github.com/hookctl/hookctl/internal/syncbuf"
	"github.com/hookctl/hookctl/telemetry"
)

// otelVars are the variables these tests set; each test starts with none
// of them, whatever the environment running the tests has.
var otelVars = []string{
	"OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
	"OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_SERVICE_NAME", "OTEL_RESOURCE_ATTRIBUTES",
	"OTEL_TRACES_SAMPLER", "OTEL_TRACES_SAMPLER_ARG", "OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
}

func clearEnv(t *testing.T) {
	for _, k := range otelVars {
		t.Setenv(k, "")
	}
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// TestFromEnvOff: without an endpoint or an exporter, or when disabled,
// there is no provider and no error.
func TestFromEnvOff(t *testing.T) {
	for _, m := range []map[string]string{
		{},
		{"OTEL_SERVICE_NAME": "x", "OTEL_TRACES_SAMPLER": "always_on"},
		{"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1"},
		{"OTEL_SDK_DISABLED": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1"},
		{"OTEL_SDK_DISABLED": "TRUE", "OTEL_TRACES_EXPORTER": "console"},
	} {
		tp, err := telemetry.FromEnv(context.Background(), telemetry.WithGetenv(env(m)))
		if tp != nil || err != nil {
			t.Errorf("%v: provider %v, error %v; want neither", m, tp, err)
		}
		if telemetry.Enabled(env(m)) {
			t.Errorf("%v: Enabled", m)
		}
	}
	for _, m := range []map[string]string{
		{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1"},
		{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:1/v1/traces"},
		{"OTEL_TRACES_EXPORTER": "console"},
		{"OTEL_SDK_DISABLED": "false", "OTEL_TRACES_EXPORTER": "otlp"},
	} {
		if !telemetry.Enabled(env(m)) {
			t.Errorf("%v: not Enabled", m)
		}
	}
}

// TestFromEnvRefuses: a value hookctl cannot honour is an error, not a
// silent default.
func TestFromEnvRefuses(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"OTEL_TRACES_EXPORTER": "zipkin"}, `"zipkin" is not an exporter`},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"}, `"http/json" is not supported`},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "thrift"}, `"thrift" is not supported`},
		{map[string]string{"OTEL_TRACES_EXPORTER": "console", "OTEL_TRACES_SAMPLER": "xray"}, `"xray" is not a sampler`},
		{map[string]string{"OTEL_TRACES_EXPORTER": "console", "OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "2"}, `"2" is not a ratio`},
	} {
		tp, err := telemetry.FromEnv(context.Background(), telemetry.WithGetenv(env(c.env)))
		if tp != nil || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: provider %v, error %v; want an error with %q", c.env, tp, err, c.want)
		}
		if !telemetry.Enabled(env(c.env)) {
			t.Errorf("%v: not Enabled", c.env)
		}
	}
}

// fireOnce fires one PreToolUse with one hook through a traced engine and
// shuts the provider down (sending what is batched).
func fireOnce(t *testing.T, opts ...telemetry.EnvOption) {
	t.Helper()
	tp, err := telemetry.FromEnv(context.Background(), opts...)
	if err != nil || tp == nil {
		t.Fatalf("FromEnv: %v %v", tp, err)
	}
	e := newEngine(t, telemetry.WithTracing(tp))
	register(t, e, engine.Hook{ID: "deny", Event: "PreToolUse", Handler: engine.Static(engine.Deny("no"))})
	if _, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{"tool_name": "Bash"}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := tp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestFromEnvConsole: OTEL_TRACES_EXPORTER=console writes the spans to
// the console writer (stderr by default: stdout is a hook's reply).
func TestFromEnvConsole(t *testing.T) {
	clearEnv(t)
	var buf syncbuf.Buffer
	fireOnce(t, telemetry.WithGetenv(env(map[string]string{"OTEL_TRACES_EXPORTER": "console"})), telemetry.WithConsoleWriter(&buf))
	out := buf.String()
	for _, w := range []string{`"Name":"fire PreToolUse"`, `"Name":"hook deny"`, `"Value":"hookctl"`} {
		if !strings.Contains(out, w) {
			t.Errorf("console output lacks %s:\n%s", w, out)
		}
	}
}

// TestFromEnvOTLP: OTEL_EXPORTER_OTLP_ENDPOINT sends the spans over
// OTLP/HTTP (the default protocol) or OTLP/gRPC, with service.name
// "hookctl" unless OTEL_SERVICE_NAME says otherwise.
func TestFromEnvOTLP(t *testing.T) {
	for _, c := range []struct {
		proto, service string
		receiver       func(testing.TB) *otlptest.Receiver
	}{
		{"", "", otlptest.NewHTTP},
		{"http/protobuf", "my-hooks", otlptest.NewHTTP},
		{"grpc", "", otlptest.NewGRPC},
	} {
		t.Run("protocol="+c.proto, func(t *testing.T) {
			clearEnv(t)
			r := c.receiver(t)
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", r.Endpoint)
			t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", c.proto)
			t.Setenv("OTEL_SERVICE_NAME", c.service)
			fireOnce(t, telemetry.WithServiceVersion("1.2.3"))
			fire, ok := r.Wait(5*time.Second, "fire PreToolUse")
			if !ok {
				t.Fatalf("no fire span received: %v", r.Spans())
			}
			hook, ok := r.Wait(5*time.Second, "hook deny")
			if !ok || hook.ParentID() != fire.SpanID() || hook.TraceID() != fire.TraceID() {
				t.Fatalf("hook span %v not a child of %v", hook, fire)
			}
			want := c.service
			if want == "" {
				want = "hookctl"
			}
			if fire.Service != want {
				t.Errorf("service.name %q, want %q", fire.Service, want)
			}
			if fire.Attr("hookctl.decision") != "deny" || hook.Attr("hookctl.hook.handler") != "declarative" {
				t.Errorf("attributes: fire %v hook %v", fire.Attributes, hook.Attributes)
			}
		})
	}
}

// TestFromEnvGivenEnvironment: with WithGetenv, the endpoint, headers,
// service name, resource attributes and sampler come from the given
// environment; the process's, which names another collector, is not read.
func TestFromEnvGivenEnvironment(t *testing.T) {
	clearEnv(t)
	process, given := otlptest.NewHTTP(t), otlptest.NewHTTP(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", process.Endpoint)
	t.Setenv("OTEL_SERVICE_NAME", "process-service")
	t.Setenv("OTEL_TRACES_SAMPLER", "always_off")
	fireOnce(t, telemetry.WithGetenv(env(map[string]string{
		"OTEL_EXPORTER_OTLP_ENDPOINT": given.Endpoint,
		"OTEL_SERVICE_NAME":           "request-service",
		"OTEL_RESOURCE_ATTRIBUTES":    "deployment.environment=ci%20one",
	})))
	fire, ok := given.Wait(5*time.Second, "fire PreToolUse")
	if !ok {
		t.Fatalf("the given endpoint received no fire span: %v", given.Spans())
	}
	if fire.Service != "request-service" {
		t.Errorf("service.name %q, want request-service", fire.Service)
	}
	if got := process.Spans(); len(got) != 0 {
		t.Errorf("the process's endpoint received %d spans", len(got))
	}
	// The given sampler, not the process's always_off... and the given
	// always_off, not the process's default.
	clearEnv(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", process.Endpoint)
	off := otlptest.NewHTTP(t)
	fireOnce(t, telemetry.WithGetenv(env(map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": off.Endpoint, "OTEL_TRACES_SAMPLER": "always_off"})))
	if got := off.Spans(); len(got) != 0 {
		t.Errorf("always_off in the given environment, yet %d spans", len(got))
	}
	if got := process.Spans(); len(got) != 0 {
		t.Errorf("the process's endpoint received %d spans", len(got))
	}
}

// TestFromEnvGivenResource: OTEL_RESOURCE_ATTRIBUTES of the given
// environment describe the spans, percent-decoded, not the process's.
func TestFromEnvGivenResource(t *testing.T) {
	clearEnv(t)
	t.Setenv("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=process")
	var buf syncbuf.Buffer
	fireOnce(t, telemetry.WithGetenv(env(map[string]string{"OTEL_TRACES_EXPORTER": "console", "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=ci%20one"})), telemetry.WithConsoleWriter(&buf))
	if out := buf.String(); !strings.Contains(out, `"Value":"ci one"`) || strings.Contains(out, `"Value":"process"`) {
		t.Errorf("resource not from the given environment:\n%s", out)
	}
	if _, err := telemetry.FromEnv(context.Background(), telemetry.WithGetenv(env(map[string]string{"OTEL_TRACES_EXPORTER": "console", "OTEL_RESOURCE_ATTRIBUTES": "novalue"}))); err == nil {
		t.Error("a malformed OTEL_RESOURCE_ATTRIBUTES is not an error")
	}
}
