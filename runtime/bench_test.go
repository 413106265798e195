package runtime_test

import (
	"context"
	"strings"
	"testing"
	"time"

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

// BenchmarkReadStdin is the one-shot path's read of its input (Stdin)
// under the host's timeout, against the same read with no deadline
// (HostTimeout < 0): the cost of bounding the read.
func BenchmarkReadStdin(b *testing.B) {
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
	rt := runtime.New(runtime.WithSource(runtime.Watched(eng)))
	p, _ := runtime.Lookup("claude")
	for _, c := range []struct {
		name string
		ht   time.Duration
	}{{"no-deadline", -1}, {"deadline", 0}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := rt.Try(context.Background(), runtime.Request{Protocol: p, Stdin: strings.NewReader(rm), HostTimeout: c.ht}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
