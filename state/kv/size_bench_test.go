package kv_test

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/hookctl/hookctl/state/kv"
)

// BenchmarkFileBySize measures File's Get, Set and Incr on a store that
// already holds 10 to 10,000 other keys: the cost of an operation must
// not grow with the size of the store.
func BenchmarkFileBySize(b *testing.B) {
	for _, size := range []int{10, 100, 1000, 10000} {
		ctx := context.Background()
		s, err := kv.OpenFile(filepath.Join(b.TempDir(), "kv.json"))
		if err != nil {
			b.Fatal(err)
		}
		fill(b, s, size)
		b.Run("Get/keys="+strconv.Itoa(size), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := s.Get(ctx, "session/s/key7"); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Set/keys="+strconv.Itoa(size), func(b *testing.B) {
			for b.Loop() {
				if err := s.Set(ctx, "session/s/key7", "value", 0); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Incr/keys="+strconv.Itoa(size), func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Incr(ctx, "counter", 1, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// fill puts n keys of a typical shape into s.
func fill(b *testing.B, s kv.Store, n int) {
	b.Helper()
	ctx := context.Background()
	for i := range n {
		if err := s.Set(ctx, "session/s/key"+strconv.Itoa(i), map[string]any{"n": i, "note": "some state"}, 0); err != nil {
			b.Fatal(err)
		}
	}
}
