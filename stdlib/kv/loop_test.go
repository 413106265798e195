package kv_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookctl/hookctl/stdlib/kv"
)

// loopStore is the engine's LoopStore interface, restated so that the
// test checks the adapter satisfies it without importing the engine.
type loopStore interface {
	LoopCount(ctx context.Context, key string) (int, error)
	SetLoopCount(ctx context.Context, key string, n int) error
}

var _ loopStore = kv.LoopStore(kv.NewMemory())

func TestLoopStore(t *testing.T) {
	forEach(t, func(t *testing.T, s kv.Store, c *fakeClock) {
		ctx := context.Background()
		ls := kv.LoopStore(s)
		count := func(key string, want int) {
			t.Helper()
			if n, err := ls.LoopCount(ctx, key); err != nil || n != want {
				t.Fatalf("LoopCount(%s) = %d, %v; want %d", key, n, err, want)
			}
		}
		const key = "Stop/sess-1"
		count(key, 0)
		for n := 1; n <= 3; n++ {
			if err := ls.SetLoopCount(ctx, key, n); err != nil {
				t.Fatal(err)
			}
			count(key, n)
		}
		if v, ok, _ := s.Get(ctx, "stopguard/"+key); !ok || v != int64(3) {
			t.Errorf("stored under stopguard/%s: %v, %v", key, v, ok)
		}
		ls.SetLoopCount(ctx, "SubagentStop/sess-1/agent-9", 1)
		if err := ls.SetLoopCount(ctx, key, 0); err != nil {
			t.Fatal(err)
		}
		count(key, 0)
		if ks, _ := s.Keys(ctx, "stopguard/"); len(ks) != 1 {
			t.Errorf("SetLoopCount(0) left keys %v", ks)
		}
		if err := ls.SetLoopCount(ctx, key, -1); err == nil {
			t.Error("negative count accepted")
		}

		// A count lives 24h after it was last set.
		ls.SetLoopCount(ctx, key, 2)
		c.Advance(23 * time.Hour)
		count(key, 2)
		ls.SetLoopCount(ctx, key, 3)
		c.Advance(23 * time.Hour)
		count(key, 3)
		c.Advance(time.Hour)
		count(key, 0)

		s.Set(ctx, "stopguard/bad", "x", 0)
		if _, err := ls.LoopCount(ctx, "bad"); err == nil {
			t.Error("non-number count accepted")
		}
	})
}

// TestLoopStoreAcrossOpens is what `hookctl claude` relies on: one
// process records a block, the next process spawned for the following
// Stop event sees it.
func TestLoopStoreAcrossOpens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kv.json")
	ctx := context.Background()
	for want := range 4 {
		f, err := kv.OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ls := kv.LoopStore(f)
		n, err := ls.LoopCount(ctx, "Stop/s")
		if err != nil || n != want {
			t.Fatalf("process %d: LoopCount = %d, %v", want, n, err)
		}
		if err := ls.SetLoopCount(ctx, "Stop/s", n+1); err != nil {
			t.Fatal(err)
		}
	}
}
