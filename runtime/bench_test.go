package runtime_test

import (
	"context"
	"testing"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/internal/jsonx"
	claude "github.com/hookctl/hookctl/protocol/claude"
	"github.com/hookctl/hookctl/runtime"
)

// BenchmarkWatched is serve's /claude path per request, after the body is
// read: through the runtime (Try with the watched engine), and as the
// server answered before the runtime (decode, claude.Handle).
func BenchmarkWatched(b *testing.B) {
	dir := b.TempDir()
	cfg := dir + "/hooks.hcl"
	if err := writeFile(cfg, denyRm); err != nil {
		b.Fatal(err)
	}
	eng, err := assemble.NewEngine()
	if err != nil {
		b.Fatal(err)
	}
	c, err := assemble.Load(cfg, assemble.WithEngine(eng))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := eng.Load(c.Engine); err != nil {
		b.Fatal(err)
	}
	defer eng.Close(context.Background())
	payload := []byte(rm)
	b.Run("runtime", func(b *testing.B) {
		rt := runtime.New(runtime.WithSource(runtime.Watched(eng)), runtime.WithTransportLimits())
		p, _ := runtime.Lookup("claude")
		for b.Loop() {
			if _, err := rt.Try(context.Background(), runtime.Request{Protocol: p, Payload: payload}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("claude.Handle", func(b *testing.B) {
		for b.Loop() {
			m, err := jsonx.DecodeObject(payload)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := claude.Handle(context.Background(), eng, m, m["hook_event_name"].(string)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
