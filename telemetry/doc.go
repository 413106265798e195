// Package telemetry traces hookctl's engine with OpenTelemetry.
//
// The engine does not import OpenTelemetry: it reports fires to an
// engine.Observer, and this package's Observer turns the reports into
// spans. An engine without it pays nothing (see engine.WithObserver).
//
//	tp := sdktrace.NewTracerProvider(...)            // or FromEnv
//	eng, _ := engine.New(telemetry.WithTracing(tp))  // spans for every fire
//	handler = telemetry.Handler(handler)             // traceparent from HTTP requests
//
// # Spans
//
// A fire of an event that has hooks is one span named "fire EVENT" (the
// canonical event name, e.g. "fire PreToolUse"), a child of the span in the
// context given to Fire: an embedder's own span, or the caller's span taken
// from an HTTP request's traceparent and tracestate headers by Handler
// (then the fire span is of kind server, else internal). Its attributes:
//
//	hookctl.event           the canonical event name
//	hookctl.hooks           hooks the fire considered (its Outcome.Hooks)
//	hookctl.hooks.ran       hooks that ran (decided or returned nothing)
//	hookctl.hooks.skipped   hooks skipped: matcher or condition false,
//	                        disabled, or chain stopped (no span each)
//	hookctl.hooks.failed    hooks that failed or timed out
//	hookctl.hooks.queued    background hooks queued (their spans follow)
//	hookctl.decision        the merged decision, when there is one
//	hookctl.blocked         whether the fire blocks the action
//	hookctl.continue        false when a hook stopped the agent
//	hookctl.stop_guard.released  true when the Stop loop guard let the agent stop
//
// Its status is Error only when Fire returns an error (its context ended).
//
// Each hook that ran, failed or timed out is a child span of the fire
// span, named "hook ID" (the hook's id: one per configured hook, not per
// fire), with its real start and end (declarative hooks run no code and
// take no time). Background hooks run after Fire returned: their spans
// are children of the fire span all the same, which has ended by then.
// Skipped hooks get no span (they would multiply the spans by every hook
// of the event); the fire span counts them. The hooks of a fire the
// sampler dropped get no span either. Attributes:
//
//	hookctl.event            the canonical event name
//	hookctl.hook.id          the hook's id
//	hookctl.hook.handler     handler kind: declarative, js, command, http, prompt, agent, go, ...
//	hookctl.hook.phase       chain, void, observe or background
//	hookctl.hook.status      the trace status: decided, ran, error or timeout
//	hookctl.hook.decision    the decision it returned (or its failure counted as)
//	hookctl.hook.duration_us how long it took, in microseconds
//	hookctl.hook.fail_closed true when its failure counted as a block
//	hookctl.hook.attempts    tries, when it was retried
//	hookctl.hook.source      where it was declared (file:line), when known
//	hookctl.hook.layer       its configuration layer (managed, user, project), when layered
//	error.type               "error" or "timeout", for a hook that failed
//
// A hook that failed or timed out has status Error with its error message
// (credentials redacted by package lib/secrets).
//
// # Payloads
//
// Spans never carry payload contents unless WithPayloadAttributes(true)
// asks for them; then the fire span has hookctl.payload (the payload as
// fired, JSON) and hookctl.reason, hook spans hookctl.hook.reason, each
// with credentials redacted by package lib/secrets and cut at 8 KiB.
// Reasons are off by default too: a script may build one from the payload.
//
// # Configuration from the environment
//
// FromEnv builds a TracerProvider the way OpenTelemetry SDKs do, from
// OTEL_TRACES_EXPORTER (otlp, console, none), OTEL_EXPORTER_OTLP_ENDPOINT,
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL and
// OTEL_EXPORTER_OTLP_TRACES_PROTOCOL (http/protobuf, the default, or
// grpc), the other OTEL_EXPORTER_OTLP_* variables (headers, timeout,
// compression, certificates), OTEL_SERVICE_NAME (default "hookctl"),
// OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER and its argument, and
// OTEL_SDK_DISABLED. Tracing is on when an OTLP endpoint variable or
// OTEL_TRACES_EXPORTER is set, off otherwise.
//
// Everything here is safe for concurrent use.
package telemetry
