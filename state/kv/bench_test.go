package kv_test

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/hookctl/hookctl/state/kv"
)

func BenchmarkMemoryGet(b *testing.B) {
	ctx := context.Background()
	s := kv.NewMemory()
	s.Set(ctx, "k", "value", 0)
	for b.Loop() {
		if _, _, err := s.Get(ctx, "k"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMemoryGetObject(b *testing.B) {
	ctx := context.Background()
	s := kv.NewMemory()
	s.Set(ctx, "k", map[string]any{"tool": "Bash", "n": 3, "args": []any{"a", "b"}}, 0)
	for b.Loop() {
		if _, _, err := s.Get(ctx, "k"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMemoryIncr(b *testing.B) {
	ctx := context.Background()
	s := kv.NewMemory()
	for b.Loop() {
		if _, err := s.Incr(ctx, "n", 1, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMemoryIncrParallel(b *testing.B) {
	ctx := context.Background()
	s := kv.NewMemory()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.Incr(ctx, "n", 1, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFileIncr measures a full cross-process-safe Incr: lock the
// key's bucket, read and parse the key's file, write a synced temporary
// file, rename, sync the directory. The store holds other keys besides
// the counter (see BenchmarkFileBySize for larger stores).
func BenchmarkFileIncr(b *testing.B) {
	for _, entries := range []int{1, 100} {
		b.Run(strconv.Itoa(entries)+"entries", func(b *testing.B) {
			ctx := context.Background()
			s, err := kv.OpenFile(filepath.Join(b.TempDir(), "kv.json"))
			if err != nil {
				b.Fatal(err)
			}
			for i := 1; i < entries; i++ {
				s.Set(ctx, "session/s/key"+strconv.Itoa(i), i, 0)
			}
			for b.Loop() {
				if _, err := s.Incr(ctx, "n", 1, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkFileGet(b *testing.B) {
	ctx := context.Background()
	s, err := kv.OpenFile(filepath.Join(b.TempDir(), "kv.json"))
	if err != nil {
		b.Fatal(err)
	}
	s.Set(ctx, "k", "value", 0)
	for b.Loop() {
		if _, _, err := s.Get(ctx, "k"); err != nil {
			b.Fatal(err)
		}
	}
}
