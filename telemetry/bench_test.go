package telemetry_test

import (
	"context"
	"fmt"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/telemetry"
)

// discard is a span exporter that drops what it is sent: the benchmark
// measures recording and batching, not the network.
type discard struct{}

func (discard) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discard) Shutdown(context.Context) error                             { return nil }

// BenchmarkFireTracing: a fire of 10 declarative hooks (the engine's
// BenchmarkFireDeclarative/hooks=10) untraced (off), traced with every
// span sampled, recorded and batched to an exporter that drops them (on),
// and traced with a sampler that records nothing (unsampled).
func BenchmarkFireTracing(b *testing.B) {
	payload := map[string]any{
		"session_id":      "5571db9b-f86b-4717-a6e4-58d884fbb40d",
		"transcript_path": "/home/u/.claude/projects/p/5571db9b.jsonl",
		"cwd":             "/home/u/project",
		"hook_event_name": "PreToolUse",
		"tool_name":       "Bash",
		"tool_input":      map[string]any{"command": "rm -rf /tmp/x", "description": "cleanup"},
		"tool_use_id":     "toolu_48491c349dd8409bbc4d3ec6",
	}
	const cond = `tool_name in ["Bash","Shell"] && (tool_input.command matches "^rm " || tool_input.command contains "sudo") && !(session_id startsWith "test-")`
	for _, c := range []struct {
		name    string
		sampler sdktrace.Sampler
	}{{"off", nil}, {"on", sdktrace.AlwaysSample()}, {"unsampled", sdktrace.NeverSample()}} {
		b.Run(c.name, func(b *testing.B) {
			var opts []engine.Option
			if c.sampler != nil {
				tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(c.sampler), sdktrace.WithBatcher(discard{}))
				b.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
				opts = append(opts, telemetry.WithTracing(tp))
			}
			e, err := engine.New(opts...)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = e.Close(context.Background()) })
			for i := range 10 {
				if err := e.Register(engine.Hook{ID: fmt.Sprintf("h%d", i), Event: "PreToolUse", Matcher: "Bash", When: cond,
					Handler: engine.Static(engine.Context(fmt.Sprintf("note %d", i)))}); err != nil {
					b.Fatal(err)
				}
			}
			id, _ := e.Resolve("PreToolUse")
			ev := engine.Event{ID: id, Payload: payload}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Fire(ctx, ev); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
