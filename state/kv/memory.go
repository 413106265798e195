package kv

import (
	"context"
	"sync"
	"time"
)

// Memory is an in-process Store. It is safe for concurrent use. Expired
// entries are dropped lazily: when an operation meets one, and all at
// once on Keys.
type Memory struct {
	now func() time.Time

	mu sync.Mutex
	t  table
}

var _ Store = (*Memory)(nil)

// NewMemory returns an empty in-memory store.
func NewMemory(opts ...Option) *Memory {
	o := buildOptions(opts)
	return &Memory{now: o.now, t: table{}}
}

// Get implements Store.
func (m *Memory) Get(ctx context.Context, key string) (any, bool, error) {
	if err := begin(ctx, key); err != nil {
		return nil, false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.t[key]
	if !ok {
		return nil, false, nil
	}
	if e.expired(m.now()) {
		delete(m.t, key)
		return nil, false, nil
	}
	return clone(e.value), true, nil
}

// Set implements Store.
func (m *Memory) Set(ctx context.Context, key string, value any, ttl time.Duration) error {
	vals, err := writeArgs(ctx, key, ttl, value)
	if err != nil {
		return err
	}
	v := vals[0]
	m.mu.Lock()
	defer m.mu.Unlock()
	m.t.set(key, v, ttl, m.now())
	return nil
}

// Delete implements Store.
func (m *Memory) Delete(ctx context.Context, key string) error {
	if err := begin(ctx, key); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.t.delete(key, m.now())
	return nil
}

// Incr implements Store.
func (m *Memory) Incr(ctx context.Context, key string, delta int64, ttl time.Duration) (int64, error) {
	if _, err := writeArgs(ctx, key, ttl); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.t.incr(key, delta, ttl, m.now())
}

// CompareAndSwap implements Store.
func (m *Memory) CompareAndSwap(ctx context.Context, key string, old, new any, ttl time.Duration) (bool, error) {
	vals, err := writeArgs(ctx, key, ttl, old, new)
	if err != nil {
		return false, err
	}
	o, n := vals[0], vals[1]
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.t.cas(key, o, n, ttl, m.now()), nil
}

// Keys implements Store.
func (m *Memory) Keys(ctx context.Context, prefix string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	m.t.purge(now)
	return m.t.keys(prefix, now), nil
}

// begin checks what every keyed operation checks first.
// writeArgs checks what every write takes (the context, the key, the ttl)
// and normalizes the values it stores.
func writeArgs(ctx context.Context, key string, ttl time.Duration, values ...any) ([]any, error) {
	if err := begin(ctx, key); err != nil {
		return nil, err
	}
	if err := checkTTL(ttl); err != nil {
		return nil, err
	}
	for i, v := range values {
		n, err := Normalize(v)
		if err != nil {
			return nil, err
		}
		values[i] = n
	}
	return values, nil
}

func begin(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return checkKey(key)
}
