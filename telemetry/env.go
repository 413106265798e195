package telemetry

import (
	"context"
	"fmt"
	"io"
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
	getenv  func(string) string
	console io.Writer
	version string
	service string
}

// WithGetenv sets how FromEnv reads the variables that decide whether
// tracing is on and which exporter runs (default os.Getenv). The exporters
// and the SDK read the variables they configure themselves (endpoints,
// headers, timeouts, sampler, resource) from the process environment.
func WithGetenv(getenv func(string) string) EnvOption {
	return func(c *envConfig) { c.getenv = getenv }
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
	res, err := resource.New(ctx, resource.WithAttributes(attrs...), resource.WithTelemetrySDK(), resource.WithFromEnv())
	if err != nil {
		return nil, fmt.Errorf("tracing resource: %w", err)
	}
	popts := []sdktrace.TracerProviderOption{sdktrace.WithResource(res)}
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
			if proto == "grpc" {
				exp, err = otlptracegrpc.New(ctx)
			} else {
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
