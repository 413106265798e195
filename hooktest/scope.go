package hooktest

import (
	"context"
	"sync"
	"time"

	"github.com/hookctl/hookctl/state/kv"
)

type scopeKey struct{}

// withScope marks a context as test n's: the stores see it.
func withScope(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, scopeKey{}, n)
}

// scoped is a kv store that is a separate in-memory store per test (by
// the scope of the context), so that what one test's hooks remember, and
// the Stop loop guard's count, never leak into another. Operations
// outside any test (n = 0: at load) have their own store too.
type scoped struct {
	mu     sync.Mutex
	stores map[int]kv.Store
}

func newScoped() *scoped { return &scoped{stores: map[int]kv.Store{}} }

func (s *scoped) store(ctx context.Context) kv.Store {
	n, _ := ctx.Value(scopeKey{}).(int)
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.stores[n]
	if !ok {
		st = kv.NewMemory()
		s.stores[n] = st
	}
	return st
}

func (s *scoped) Get(ctx context.Context, key string) (any, bool, error) {
	return s.store(ctx).Get(ctx, key)
}

func (s *scoped) Set(ctx context.Context, key string, v any, ttl time.Duration) error {
	return s.store(ctx).Set(ctx, key, v, ttl)
}

func (s *scoped) Delete(ctx context.Context, key string) error {
	return s.store(ctx).Delete(ctx, key)
}

func (s *scoped) Incr(ctx context.Context, key string, delta int64, ttl time.Duration) (int64, error) {
	return s.store(ctx).Incr(ctx, key, delta, ttl)
}

func (s *scoped) CompareAndSwap(ctx context.Context, key string, old, new any, ttl time.Duration) (bool, error) {
	return s.store(ctx).CompareAndSwap(ctx, key, old, new, ttl)
}

func (s *scoped) Keys(ctx context.Context, prefix string) ([]string, error) {
	return s.store(ctx).Keys(ctx, prefix)
}

var _ kv.Store = (*scoped)(nil)
