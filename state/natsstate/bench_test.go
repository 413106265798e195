package natsstate_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/hookctl/hookctl/state/natsstate"
)

// Benchmarks against an in-process server on loopback. They report
// ops/s besides ns/op.

func benchState(b *testing.B, opts ...natsstate.Option) *natsstate.State {
	b.Helper()
	return open(b, startServer(b).URL(), opts...)
}

func opsPerSec(b *testing.B) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
}

func BenchmarkGet(b *testing.B) {
	ctx := context.Background()
	s := benchState(b).KV()
	s.Set(ctx, "session/s1/k", "value", 0)
	for b.Loop() {
		if _, _, err := s.Get(ctx, "session/s1/k"); err != nil {
			b.Fatal(err)
		}
	}
	opsPerSec(b)
}

func BenchmarkSet(b *testing.B) {
	ctx := context.Background()
	s := benchState(b).KV()
	for b.Loop() {
		if err := s.Set(ctx, "session/s1/k", map[string]any{"tool": "Bash", "n": 3}, 0); err != nil {
			b.Fatal(err)
		}
	}
	opsPerSec(b)
}

func BenchmarkIncr(b *testing.B) {
	ctx := context.Background()
	s := benchState(b).KV()
	for b.Loop() {
		if _, err := s.Incr(ctx, "session/s1/n", 1, 0); err != nil {
			b.Fatal(err)
		}
	}
	opsPerSec(b)
}

// BenchmarkIncrParallelOneKey: every goroutine increments the same key,
// so most attempts conflict and retry.
func BenchmarkIncrParallelOneKey(b *testing.B) {
	ctx := context.Background()
	s := benchState(b).KV()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.Incr(ctx, "global/n", 1, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
	opsPerSec(b)
}

// BenchmarkIncrTwoClientsOneKey: two clients, each its own connection as
// two hookctl serve replicas have, increment the same key from
// GOMAXPROCS goroutines each: the conflicts are between connections, and
// every increment still lands exactly once.
func BenchmarkIncrTwoClientsOneKey(b *testing.B) {
	ctx := context.Background()
	url := startServer(b).URL()
	clients := []*natsstate.State{open(b, url), open(b, url)}
	var next atomic.Int64
	var done atomic.Int64
	b.SetParallelism(2) // 2×GOMAXPROCS goroutines, half on each client
	b.RunParallel(func(pb *testing.PB) {
		s := clients[next.Add(1)%2].KV()
		for pb.Next() {
			if _, err := s.Incr(ctx, "global/n", 1, 0); err != nil {
				b.Fatal(err)
			}
			done.Add(1)
		}
	})
	opsPerSec(b)
	b.StopTimer()
	if v, _, err := clients[0].KV().Get(ctx, "global/n"); err != nil || v != done.Load() {
		b.Fatalf("the key holds %v (%v) after %d increments", v, err, done.Load())
	}
}

// BenchmarkIncrParallelKeys: each goroutine increments a key of its own
// (the usual case: one counter per session).
func BenchmarkIncrParallelKeys(b *testing.B) {
	ctx := context.Background()
	s := benchState(b).KV()
	var id atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		key := fmt.Sprintf("session/s%d/n", id.Add(1))
		for pb.Next() {
			if _, err := s.Incr(ctx, key, 1, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
	opsPerSec(b)
}

func BenchmarkKeys100(b *testing.B) {
	ctx := context.Background()
	s := benchState(b).KV()
	for i := range 100 {
		s.Set(ctx, fmt.Sprintf("session/s1/k%d", i), i, 0)
		s.Set(ctx, fmt.Sprintf("session/s2/k%d", i), i, 0)
	}
	for b.Loop() {
		ks, err := s.Keys(ctx, "session/s1/")
		if err != nil || len(ks) != 100 {
			b.Fatal(len(ks), err)
		}
	}
	opsPerSec(b)
}

func BenchmarkAuditWrite(b *testing.B) {
	w := benchState(b).Audit()
	rec := []byte(`{"time":"2025-06-01T12:00:00Z","event":"PreToolUse","decision":"deny","reason":"rm -rf","blocked":true,"hooks":[]}` + "\n")
	for b.Loop() {
		if _, err := w.Write(rec); err != nil {
			b.Fatal(err)
		}
	}
	opsPerSec(b)
}
