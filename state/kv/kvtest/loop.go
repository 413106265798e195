package kvtest

import (
	"context"
	"testing"
	"time"

	"github.com/hookctl/hookctl/state/kv"
)

// LoopStore is the engine's LoopStore (the Stop loop guard's count of
// consecutive blocks per session), restated so that the suite does not
// depend on the engine.
type LoopStore interface {
	LoopCount(ctx context.Context, key string) (int, error)
	SetLoopCount(ctx context.Context, key string, n int) error
	// SwapLoopCount sets key's count to new if it is old (0: no count),
	// and reports whether it did (the engine's LoopSwapper).
	SwapLoopCount(ctx context.Context, key string, old, new int) (bool, error)
}

// OpenLoops returns a fresh loop store that reads the time from clock
// only, and the kv.Store it keeps its counts in.
type OpenLoops func(t *testing.T, clock func() time.Time) (LoopStore, kv.Store)

// RunLoopStore checks the semantics of kv.LoopStore against the loop
// store open returns: a count is stored under "stopguard/<key>", lives
// 24 hours after it was last set, 0 deletes it, and a negative count or
// a stored value that is not a count is an error.
func RunLoopStore(t *testing.T, open OpenLoops) {
	c := NewClock()
	ls, s := open(t, c.Now)
	ctx := context.Background()
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

	// SwapLoopCount changes a count only if it holds what the caller
	// read; no count and a count swapped to 0 are both 0.
	const sk = "Stop/swap"
	swap := func(old, new int, want bool) {
		t.Helper()
		if ok, err := ls.SwapLoopCount(ctx, sk, old, new); err != nil || ok != want {
			t.Fatalf("SwapLoopCount(%d, %d) = %v, %v; want %v", old, new, ok, err, want)
		}
	}
	swap(0, 1, true)
	count(sk, 1)
	swap(0, 2, false)
	swap(2, 3, false)
	count(sk, 1)
	swap(1, 2, true)
	swap(2, 0, true)
	count(sk, 0)
	swap(1, 2, false)
	swap(0, 1, true)
	count(sk, 1)
	ls.SetLoopCount(ctx, sk, 0)
	if _, err := ls.SwapLoopCount(ctx, sk, 0, -1); err == nil {
		t.Error("negative count swapped in")
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
}
