package telemetry

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/lib/secrets"
)

// ScopeName is the instrumentation scope of hookctl's spans.
const ScopeName = "github.com/hookctl/hookctl/telemetry"

// maxContent bounds each payload or reason attribute, in bytes.
const maxContent = 8 << 10

// Attribute keys of the spans (see the package documentation).
const (
	KeyEvent           = attribute.Key("hookctl.event")
	KeyHooks           = attribute.Key("hookctl.hooks")
	KeyHooksRan        = attribute.Key("hookctl.hooks.ran")
	KeyHooksSkipped    = attribute.Key("hookctl.hooks.skipped")
	KeyHooksFailed     = attribute.Key("hookctl.hooks.failed")
	KeyHooksQueued     = attribute.Key("hookctl.hooks.queued")
	KeyDecision        = attribute.Key("hookctl.decision")
	KeyBlocked         = attribute.Key("hookctl.blocked")
	KeyContinue        = attribute.Key("hookctl.continue")
	KeyGuardReleased   = attribute.Key("hookctl.stop_guard.released")
	KeyPayload         = attribute.Key("hookctl.payload")
	KeyReason          = attribute.Key("hookctl.reason")
	KeyHookID          = attribute.Key("hookctl.hook.id")
	KeyHookHandler     = attribute.Key("hookctl.hook.handler")
	KeyHookPhase       = attribute.Key("hookctl.hook.phase")
	KeyHookStatus      = attribute.Key("hookctl.hook.status")
	KeyHookDecision    = attribute.Key("hookctl.hook.decision")
	KeyHookDurationUS  = attribute.Key("hookctl.hook.duration_us")
	KeyHookFailClosed  = attribute.Key("hookctl.hook.fail_closed")
	KeyHookAttempts    = attribute.Key("hookctl.hook.attempts")
	KeyHookSource      = attribute.Key("hookctl.hook.source")
	KeyHookLayer       = attribute.Key("hookctl.hook.layer")
	KeyHookReason      = attribute.Key("hookctl.hook.reason")
	KeyErrorType       = attribute.Key("error.type")
	spanNameFirePrefix = "fire "
	spanNameHookPrefix = "hook "
)

// Option configures an Observer or a Handler.
type Option func(*config)

type config struct {
	payload    bool
	propagator propagation.TextMapPropagator
}

// WithPayloadAttributes puts payload contents on the spans: the payload
// as fired and the merged reason on the fire span, each hook's reason on
// its span, with credentials redacted (package lib/secrets) and each
// cut at 8 KiB. Off by default: traces often leave the machine.
func WithPayloadAttributes(on bool) Option { return func(c *config) { c.payload = on } }

// WithPropagator sets how Handler reads the caller's trace context from
// request headers (default: W3C Trace Context, traceparent and
// tracestate).
func WithPropagator(p propagation.TextMapPropagator) Option {
	return func(c *config) {
		if p != nil {
			c.propagator = p
		}
	}
}

func newConfig(opts []Option) config {
	c := config{propagator: propagation.TraceContext{}}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// Observer is an engine.Observer that records fires and hooks as spans
// (see the package documentation). It is safe for concurrent use.
type Observer struct {
	tracer  trace.Tracer
	payload bool
	// names caches span names by event or hook id (both come from the
	// configuration: their number is bounded).
	fireNames, hookNames sync.Map
}

var _ engine.Observer = (*Observer)(nil)

// NewObserver returns an Observer whose spans go to tp.
func NewObserver(tp trace.TracerProvider, opts ...Option) *Observer {
	c := newConfig(opts)
	return &Observer{tracer: tp.Tracer(ScopeName), payload: c.payload}
}

// WithTracing has an engine trace its fires to tp: engine.WithObserver
// with NewObserver(tp, opts...). A nil tp leaves the engine untraced.
func WithTracing(tp trace.TracerProvider, opts ...Option) engine.Option {
	if tp == nil {
		return engine.WithObserver()
	}
	return engine.WithObserver(NewObserver(tp, opts...))
}

// FireStarted starts the fire span, a child of the span in ctx.
func (o *Observer) FireStarted(ctx context.Context, f engine.FireInfo) context.Context {
	kind := trace.SpanKindInternal
	if trace.SpanContextFromContext(ctx).IsRemote() {
		// The caller's span came over the wire: this is the server side.
		kind = trace.SpanKindServer
	}
	ctx, span := o.tracer.Start(ctx, spanName(&o.fireNames, spanNameFirePrefix, f.Event), trace.WithSpanKind(kind),
		trace.WithAttributes(KeyEvent.String(f.Event)))
	if o.payload && span.IsRecording() {
		span.SetAttributes(KeyPayload.String(content(f.Payload)))
	}
	return ctx
}

// HookDone records the span of a hook that ran, failed or timed out: it
// ended now and took tr.Duration. The hooks of a fire whose span was not
// sampled are not recorded either.
func (o *Observer) HookDone(ctx context.Context, f engine.FireInfo, tr *engine.HookTrace) {
	if parent := trace.SpanFromContext(ctx); !parent.SpanContext().IsSampled() && !parent.IsRecording() {
		return
	}
	end := time.Now()
	_, span := o.tracer.Start(ctx, spanName(&o.hookNames, spanNameHookPrefix, tr.ID), trace.WithTimestamp(end.Add(-tr.Duration)))
	if span.IsRecording() {
		attrs := make([]attribute.KeyValue, 0, 11)
		attrs = append(attrs,
			KeyEvent.String(f.Event),
			KeyHookID.String(tr.ID),
			KeyHookHandler.String(tr.Handler),
			KeyHookPhase.String(string(tr.Phase)),
			KeyHookStatus.String(string(tr.Status)),
			KeyHookDurationUS.Int64(tr.Duration.Microseconds()),
		)
		if tr.Decision != "" {
			attrs = append(attrs, KeyHookDecision.String(string(tr.Decision)))
		}
		if tr.FailClosed {
			attrs = append(attrs, KeyHookFailClosed.Bool(true))
		}
		if tr.Attempts > 0 {
			attrs = append(attrs, KeyHookAttempts.Int(tr.Attempts))
		}
		if tr.Source != "" {
			attrs = append(attrs, KeyHookSource.String(tr.Source))
		}
		if tr.Layer != "" {
			attrs = append(attrs, KeyHookLayer.String(tr.Layer))
		}
		if o.payload && tr.Reason != "" {
			attrs = append(attrs, KeyHookReason.String(redact(tr.Reason)))
		}
		if tr.Status == engine.StatusError || tr.Status == engine.StatusTimeout {
			attrs = append(attrs, KeyErrorType.String(string(tr.Status)))
			span.SetStatus(codes.Error, secrets.Redact(tr.Error))
		}
		span.SetAttributes(attrs...)
	}
	span.End(trace.WithTimestamp(end))
}

// FireEnded ends the fire span with what the fire decided.
func (o *Observer) FireEnded(ctx context.Context, f engine.FireInfo, out *engine.Outcome, err error) {
	span := trace.SpanFromContext(ctx)
	if span.IsRecording() {
		var ran, skipped, failed, queued int
		for i := range out.Hooks {
			switch out.Hooks[i].Status {
			case engine.StatusDecided, engine.StatusRan:
				ran++
			case engine.StatusSkipped:
				skipped++
			case engine.StatusError, engine.StatusTimeout:
				failed++
			case engine.StatusQueued:
				queued++
			}
		}
		attrs := make([]attribute.KeyValue, 0, 11)
		attrs = append(attrs,
			KeyHooks.Int(len(out.Hooks)),
			KeyHooksRan.Int(ran),
			KeyHooksSkipped.Int(skipped),
			KeyHooksFailed.Int(failed),
			KeyHooksQueued.Int(queued),
			KeyBlocked.Bool(out.Blocked),
			KeyContinue.Bool(out.Continue),
		)
		if out.Decision != "" {
			attrs = append(attrs, KeyDecision.String(string(out.Decision)))
		}
		if out.StopGuard != nil && out.StopGuard.Released {
			attrs = append(attrs, KeyGuardReleased.Bool(true))
		}
		if o.payload && out.Reason != "" {
			attrs = append(attrs, KeyReason.String(redact(out.Reason)))
		}
		span.SetAttributes(attrs...)
		if err != nil {
			span.SetStatus(codes.Error, err.Error())
		}
	}
	span.End()
}

// spanName returns prefix+name, once per name.
func spanName(cache *sync.Map, prefix, name string) string {
	if v, ok := cache.Load(name); ok {
		return v.(string)
	}
	s := prefix + name
	cache.Store(name, s)
	return s
}

// content is a payload as redacted JSON, cut at maxContent bytes.
func content(payload map[string]any) string {
	b, err := json.Marshal(payload)
	if err != nil {
		return "(payload not encodable: " + err.Error() + ")"
	}
	return redact(string(b))
}

// redact removes credentials from s and cuts it at maxContent bytes.
func redact(s string) string {
	s = secrets.Redact(s)
	if len(s) > maxContent {
		cut := maxContent
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut-- // not inside a UTF-8 sequence
		}
		s = s[:cut] + "…(cut)"
	}
	return s
}
