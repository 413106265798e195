package kv

import (
	"context"
	"fmt"
	"time"
)

const (
	loopPrefix = "stopguard/"
	// loopTTL bounds how long a forgotten streak (a session that ended
	// mid-streak) stays in the store.
	loopTTL = 24 * time.Hour
)

// LoopStore adapts s to the engine's LoopStore, the Stop loop guard's
// count of consecutive blocks per session, so that the count survives
// across hookctl processes when s is a File. A count is kept under
// "stopguard/<key>" for 24 hours after it was last set; setting 0
// deletes it.
//
// It also implements the engine's LoopSwapper with CompareAndSwap, so that
// engines sharing s (serve replicas on one NATS) count every block of a
// streak even when two count at once; a count swapped to 0 is kept as 0
// until it expires, and reads as no count.
func LoopStore(s Store) interface {
	LoopCount(context.Context, string) (int, error)
	SetLoopCount(context.Context, string, int) error
	SwapLoopCount(context.Context, string, int, int) (bool, error)
} {
	return loopStore{s: s}
}

type loopStore struct{ s Store }

func (l loopStore) LoopCount(ctx context.Context, key string) (int, error) {
	v, ok, err := l.s.Get(ctx, loopPrefix+key)
	if err != nil || !ok {
		return 0, err
	}
	n, isInt := v.(int64)
	if !isInt || n < 0 || int64(int(n)) != n {
		return 0, fmt.Errorf("kv: loop count %q: want a non-negative integer, have %s %v", key, Describe(v), v)
	}
	return int(n), nil
}

func (l loopStore) SetLoopCount(ctx context.Context, key string, n int) error {
	switch {
	case n == 0:
		return l.s.Delete(ctx, loopPrefix+key)
	case n < 0:
		return fmt.Errorf("kv: loop count %q: negative count %d", key, n)
	}
	return l.s.Set(ctx, loopPrefix+key, n, loopTTL)
}

func (l loopStore) SwapLoopCount(ctx context.Context, key string, old, new int) (bool, error) {
	if old < 0 || new < 0 {
		return false, fmt.Errorf("kv: loop count %q: negative count", key)
	}
	if old == 0 {
		// No count: the key is absent, or holds 0 after a swap.
		if ok, err := l.s.CompareAndSwap(ctx, loopPrefix+key, nil, new, loopTTL); ok || err != nil {
			return ok, err
		}
	}
	return l.s.CompareAndSwap(ctx, loopPrefix+key, old, new, loopTTL)
}
