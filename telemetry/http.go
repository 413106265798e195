package telemetry

import (
	"context"
	"net/http"

	"go.opentelemetry.io/otel/propagation"
)

// Handler returns next with the caller's trace context, read from each
// request's headers (W3C traceparent and tracestate unless WithPropagator
// says otherwise), in the request's context: the fires the request makes
// are children of the caller's span. A request without the headers is
// passed on unchanged, and the fires it makes start a trace of their own.
func Handler(next http.Handler, opts ...Option) http.Handler {
	prop := newConfig(opts).propagator
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ctx := prop.Extract(r.Context(), propagation.HeaderCarrier(r.Header)); ctx != r.Context() {
			r = r.WithContext(ctx)
		}
		next.ServeHTTP(w, r)
	})
}

// ContextFromEnv returns ctx with the trace context a parent process
// passed in the environment: the TRACEPARENT and TRACESTATE variables, as
// OpenTelemetry's environment carrier specifies, read with getenv (for
// example os.Getenv). A one-shot hook process started by a traced program
// then makes its fire a child of that program's span.
func ContextFromEnv(ctx context.Context, getenv func(string) string, opts ...Option) context.Context {
	tp := getenv("TRACEPARENT")
	if tp == "" {
		return ctx
	}
	carrier := propagation.MapCarrier{"traceparent": tp}
	if ts := getenv("TRACESTATE"); ts != "" {
		carrier["tracestate"] = ts
	}
	return newConfig(opts).propagator.Extract(ctx, carrier)
}
