package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/telemetry"
)

// Tracing. serve, claude, hook and fire export OpenTelemetry traces when
// the standard OTEL_* variables ask for it (an OTLP endpoint, or
// OTEL_TRACES_EXPORTER); see package telemetry.
const (
	// tracePayloadsEnv, when true, puts payloads and reasons (redacted)
	// on the spans.
	tracePayloadsEnv = "HOOKCTL_TRACE_PAYLOADS"
	// traceFlushEnv bounds how long a one-shot command (claude, hook,
	// fire) waits to send its spans after its reply is written.
	traceFlushEnv     = "HOOKCTL_TRACE_FLUSH_TIMEOUT"
	defaultTraceFlush = 250 * time.Millisecond
	// serveTraceFlush bounds sending the last spans when serve stops.
	serveTraceFlush = 5 * time.Second
)

// tracing is a command's trace export: nil when the environment leaves
// tracing off.
type tracing struct {
	tp       *sdktrace.TracerProvider
	payloads bool
}

// startTracing builds the TracerProvider the environment asks for (nil
// when none). payloads (a flag), or HOOKCTL_TRACE_PAYLOADS, puts payload
// contents on the spans.
func (a *app) startTracing(ctx context.Context, payloads bool) (*tracing, error) {
	if !telemetry.Enabled(os.Getenv) {
		return nil, nil // the common case: no SDK is set up at all
	}
	tp, err := telemetry.FromEnv(ctx, telemetry.WithServiceVersion(version()), telemetry.WithConsoleWriter(a.stderr))
	if err != nil {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	if tp == nil {
		return nil, nil
	}
	if v, err := strconv.ParseBool(strings.TrimSpace(os.Getenv(tracePayloadsEnv))); err == nil && v {
		payloads = true
	}
	return &tracing{tp: tp, payloads: payloads}, nil
}

// engineOptions are the options that trace an engine's fires.
func (t *tracing) engineOptions() []engine.Option {
	if t == nil {
		return nil
	}
	return []engine.Option{telemetry.WithTracing(t.tp, telemetry.WithPayloadAttributes(t.payloads))}
}

// shutdown sends the spans still batched, waiting d at most, and reports
// a failure on w.
func (t *tracing) shutdown(d time.Duration, w io.Writer) {
	if t == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	if err := t.tp.Shutdown(ctx); err != nil {
		fmt.Fprintf(w, "hookctl: sending traces: %v\n", err)
	}
}

// oneShotTracing starts the tracing of a command that fires once and
// exits: the returned context carries the parent span a parent process
// passed in TRACEPARENT, and done sends the spans, waiting at most
// HOOKCTL_TRACE_FLUSH_TIMEOUT (250ms by default) so that the host that
// waits for the process is not held up. A tracing configuration that
// cannot be honoured is reported on stderr and the command runs untraced:
// tracing never stands between a host and its hook's answer.
func (a *app) oneShotTracing(ctx context.Context) (context.Context, []engine.Option, func()) {
	t, err := a.startTracing(ctx, false)
	if err != nil {
		fmt.Fprintf(a.stderr, "hookctl: %v; not tracing\n", err)
	}
	if t == nil {
		return ctx, nil, func() {}
	}
	d := defaultTraceFlush
	if v := strings.TrimSpace(os.Getenv(traceFlushEnv)); v != "" {
		if p, err := time.ParseDuration(v); err == nil && p >= 0 {
			d = p
		} else {
			fmt.Fprintf(a.stderr, "hookctl: %s=%q is not a duration; waiting %s\n", traceFlushEnv, v, d)
		}
	}
	return telemetry.ContextFromEnv(ctx, os.Getenv), t.engineOptions(), func() { t.shutdown(d, a.stderr) }
}
