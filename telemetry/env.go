package telemetry

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// DefaultServiceName is the service.name of hookctl's spans unless
// OTEL_SERVICE_NAME (or service.name in OTEL_RESOURCE_ATTRIBUTES) says
// otherwise.
const DefaultServiceName = "hookctl"

// EnvOption configures FromEnv.
type EnvOption func(*envConfig)

type envConfig struct {
	getenv func(string) string
	// given is set by WithGetenv: the resource, the sampler and the OTLP
	// exporter's endpoint and headers are read with getenv too, not by
	// the SDK from the process's environment.
	given   bool
	console io.Writer
	version string
	service string
}

// WithGetenv sets the environment FromEnv reads (default os.Getenv): the
// variables that decide whether tracing is on and which exporter runs, the
// resource (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES), the sampler
// (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG) and the OTLP endpoint and
// headers (OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT, ..._HEADERS). The
// exporters' other settings (timeouts, TLS certificates, compression) are
// still read from the process's environment.
func WithGetenv(getenv func(string) string) EnvOption {
	return func(c *envConfig) { c.getenv, c.given = getenv, getenv != nil }
}

// WithConsoleWriter sets where the console exporter writes (default
// os.Stderr: standard output is a hook's reply).
func WithConsoleWriter(w io.Writer) EnvOption {
	return func(c *envConfig) { c.console = w }
}

// WithServiceVersion sets the service.version resource attribute.
func WithServiceVersion(v string) EnvOption {
	return func(c *envConfig) { c.version = v }
}

// WithServiceName sets the default service.name (DefaultServiceName
// otherwise); OTEL_SERVICE_NAME still wins.
func WithServiceName(name string) EnvOption {
	return func(c *envConfig) { c.service = name }
}

// Enabled reports whether the environment read by getenv turns tracing
// on: OTEL_SDK_DISABLED is not true and either OTEL_TRACES_EXPORTER names
// an exporter other than none, or an OTLP endpoint is set
// (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT).
// It is true, too, when OTEL_TRACES_EXPORTER names an exporter hookctl
// does not have: FromEnv then says so.
func Enabled(getenv func(string) string) bool {
	exporters, err := exportersFromEnv(getenv)
	return err != nil || len(exporters) > 0
}

// exportersFromEnv returns the exporters the environment asks for (none
// when tracing is off), or an error for one hookctl does not have.
func exportersFromEnv(getenv func(string) string) ([]string, error) {
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return nil, nil
	}
	list := strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER"))
	if list == "" {
		if getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == "" && getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") == "" {
			return nil, nil
		}
		return []string{"otlp"}, nil
	}
	var out []string
	for name := range strings.SplitSeq(list, ",") {
		name = strings.ToLower(strings.TrimSpace(name))
		switch name {
		case "none":
			// "none" alone turns tracing off; with others it adds nothing.
		case "otlp", "console":
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		default:
			return nil, fmt.Errorf("OTEL_TRACES_EXPORTER: %q is not an exporter hookctl has (otlp, console, none)", name)
		}
	}
	return out, nil
}

// protocol is the OTLP protocol for traces.
func protocol(getenv func(string) string) (string, error) {
	p := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"))
	if p == "" {
		p = strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_PROTOCOL"))
	}
	switch strings.ToLower(p) {
	case "", "http/protobuf":
		return "http/protobuf", nil
	case "grpc":
		return "grpc", nil
	}
	return "", fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL: %q is not supported (http/protobuf or grpc)", p)
}

// checkSampler refuses a sampler the SDK would only complain about and
// replace by its default.
func checkSampler(getenv func(string) string) error {
	s := strings.ToLower(strings.TrimSpace(getenv("OTEL_TRACES_SAMPLER")))
	switch s {
	case "", "always_on", "always_off", "parentbased_always_on", "parentbased_always_off":
		return nil
	case "traceidratio", "parentbased_traceidratio":
		arg := strings.TrimSpace(getenv("OTEL_TRACES_SAMPLER_ARG"))
		if arg == "" {
			return nil
		}
		if r, err := strconv.ParseFloat(arg, 64); err != nil || r < 0 || r > 1 {
			return fmt.Errorf("OTEL_TRACES_SAMPLER_ARG: %q is not a ratio between 0 and 1", arg)
		}
		return nil
	}
	return fmt.Errorf("OTEL_TRACES_SAMPLER: %q is not a sampler hookctl has (always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio)", s)
}

// FromEnv returns a TracerProvider configured by the standard OpenTelemetry
// environment variables (see the package documentation), or nil and no
// error when they leave tracing off. Spans are batched; call Shutdown on
// the provider (with a deadline) to send what is left before the program
// exits. A variable with a value hookctl cannot honour is an error, never
// a silent fallback.
func FromEnv(ctx context.Context, opts ...EnvOption) (*sdktrace.TracerProvider, error) {
	c := envConfig{getenv: os.Getenv, console: os.Stderr, service: DefaultServiceName}
	for _, o := range opts {
		o(&c)
	}
	names, err := exportersFromEnv(c.getenv)
	if err != nil || len(names) == 0 {
		return nil, err
	}
	if err := checkSampler(c.getenv); err != nil {
		return nil, err
	}
	attrs := []attribute.KeyValue{attribute.String("service.name", c.service)}
	if c.version != "" {
		attrs = append(attrs, attribute.String("service.version", c.version))
	}
	// Later detectors win: the environment overrides the defaults.
	detectors := []resource.Option{resource.WithAttributes(attrs...), resource.WithTelemetrySDK(), resource.WithFromEnv()}
	if c.given {
		fromEnv, err := resourceFromEnv(c.getenv)
		if err != nil {
			return nil, fmt.Errorf("tracing resource: %w", err)
		}
		detectors[2] = resource.WithAttributes(fromEnv...)
	}
	res, err := resource.New(ctx, detectors...)
	if err != nil {
		return nil, fmt.Errorf("tracing resource: %w", err)
	}
	popts := []sdktrace.TracerProviderOption{sdktrace.WithResource(res)}
	if c.given {
		popts = append(popts, sdktrace.WithSampler(samplerFromEnv(c.getenv)))
	}
	var exps []sdktrace.SpanExporter
	for _, name := range names {
		var exp sdktrace.SpanExporter
		switch name {
		case "console":
			exp, err = stdouttrace.New(stdouttrace.WithWriter(c.console))
		case "otlp":
			var proto string
			if proto, err = protocol(c.getenv); err != nil {
				break
			}
			switch {
			case proto == "grpc" && c.given:
				exp, err = otlptracegrpc.New(ctx, grpcOptions(c.getenv)...)
			case proto == "grpc":
				exp, err = otlptracegrpc.New(ctx)
			case c.given:
				exp, err = otlptracehttp.New(ctx, httpOptions(c.getenv)...)
			default:
				exp, err = otlptracehttp.New(ctx)
			}
		}
		if err != nil {
			for _, e := range exps {
				_ = e.Shutdown(ctx)
			}
			return nil, fmt.Errorf("tracing exporter %s: %w", name, err)
		}
		exps = append(exps, exp)
		popts = append(popts, sdktrace.WithBatcher(exp))
	}
	return sdktrace.NewTracerProvider(popts...), nil
}

// resourceFromEnv is the resource the environment describes:
// OTEL_RESOURCE_ATTRIBUTES (key=value pairs, comma-separated, values
// percent-encoded), then OTEL_SERVICE_NAME, as the SDK reads them from the
// process's environment.
func resourceFromEnv(getenv func(string) string) ([]attribute.KeyValue, error) {
	var out []attribute.KeyValue
	pairs, err := keyValues(getenv("OTEL_RESOURCE_ATTRIBUTES"))
	if err != nil {
		return nil, fmt.Errorf("OTEL_RESOURCE_ATTRIBUTES: %w", err)
	}
	for _, kv := range pairs {
		out = append(out, attribute.String(kv[0], kv[1]))
	}
	if s := strings.TrimSpace(getenv("OTEL_SERVICE_NAME")); s != "" {
		out = append(out, attribute.String("service.name", s))
	}
	return out, nil
}

// keyValues parses "k1=v1,k2=v2" with percent-encoded values.
func keyValues(s string) ([][2]string, error) {
	var out [][2]string
	for p := range strings.SplitSeq(s, ",") {
		if strings.TrimSpace(p) == "" {
			continue
		}
		k, v, ok := strings.Cut(p, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("%q is not key=value", p)
		}
		val, err := url.PathUnescape(strings.TrimSpace(v))
		if err != nil {
			return nil, fmt.Errorf("%q: %w", p, err)
		}
		out = append(out, [2]string{k, val})
	}
	return out, nil
}

// samplerFromEnv is the sampler OTEL_TRACES_SAMPLER names (checkSampler
// has refused the others), parent-based always-on by default.
func samplerFromEnv(getenv func(string) string) sdktrace.Sampler {
	ratio := 1.0
	if r, err := strconv.ParseFloat(strings.TrimSpace(getenv("OTEL_TRACES_SAMPLER_ARG")), 64); err == nil {
		ratio = r
	}
	switch strings.ToLower(strings.TrimSpace(getenv("OTEL_TRACES_SAMPLER"))) {
	case "always_on":
		return sdktrace.AlwaysSample()
	case "always_off":
		return sdktrace.NeverSample()
	case "traceidratio":
		return sdktrace.TraceIDRatioBased(ratio)
	case "parentbased_always_off":
		return sdktrace.ParentBased(sdktrace.NeverSample())
	case "parentbased_traceidratio":
		return sdktrace.ParentBased(sdktrace.TraceIDRatioBased(ratio))
	}
	return sdktrace.ParentBased(sdktrace.AlwaysSample())
}

// otlpEndpoint is the traces endpoint of the environment: the traces one
// as written, or the general one (path is added to it for HTTP); "" when
// neither is set.
func otlpEndpoint(getenv func(string) string, path string) string {
	if e := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")); e != "" {
		return e
	}
	if e := strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_ENDPOINT")); e != "" {
		return strings.TrimSuffix(e, "/") + path
	}
	return ""
}

// otlpHeaders are the headers of the environment (always a map, so that
// the process's are not read).
func otlpHeaders(getenv func(string) string) map[string]string {
	h := getenv("OTEL_EXPORTER_OTLP_TRACES_HEADERS")
	if strings.TrimSpace(h) == "" {
		h = getenv("OTEL_EXPORTER_OTLP_HEADERS")
	}
	out := map[string]string{}
	pairs, _ := keyValues(h) // the SDK, too, ignores headers it cannot read
	for _, kv := range pairs {
		out[kv[0]] = kv[1]
	}
	return out
}

// httpOptions configure the OTLP/HTTP exporter from the environment.
func httpOptions(getenv func(string) string) []otlptracehttp.Option {
	opts := []otlptracehttp.Option{otlptracehttp.WithHeaders(otlpHeaders(getenv))}
	if e := otlpEndpoint(getenv, "/v1/traces"); e != "" {
		return append(opts, otlptracehttp.WithEndpointURL(e))
	}
	return append(opts, otlptracehttp.WithEndpoint("localhost:4318"), otlptracehttp.WithURLPath("/v1/traces"))
}

// grpcOptions configure the OTLP/gRPC exporter from the environment.
func grpcOptions(getenv func(string) string) []otlptracegrpc.Option {
	opts := []otlptracegrpc.Option{otlptracegrpc.WithHeaders(otlpHeaders(getenv))}
	if e := otlpEndpoint(getenv, ""); e != "" {
		return append(opts, otlptracegrpc.WithEndpointURL(e))
	}
	return append(opts, otlptracegrpc.WithEndpoint("localhost:4317"))
}
