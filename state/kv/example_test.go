package kv_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hookctl/hookctl/state/kv"
)

func ExampleNewMemory() {
	ctx := context.Background()
	s := kv.NewMemory()
	s.Set(ctx, "greeting", "hello", 0)
	n, _ := s.Incr(ctx, "runs", 1, 0)
	n, _ = s.Incr(ctx, "runs", 1, 0)
	v, ok, _ := s.Get(ctx, "greeting")
	fmt.Println(v, ok, n)
	// Output: hello true 2
}

func ExampleOpenFile() {
	dir, _ := os.MkdirTemp("", "kv-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	path := filepath.Join(dir, "kv.json")

	// One hookctl process records something ...
	first, err := kv.OpenFile(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	first.Set(ctx, "last_tool", "Bash", time.Hour)

	// ... and the next one, spawned for the following event, sees it.
	next, err := kv.OpenFile(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _, _ := next.Get(ctx, "last_tool")
	fmt.Println(v)
	// Output: Bash
}

func ExampleScoped() {
	ctx := context.Background()
	store := kv.NewMemory()
	session := kv.Scoped(store, kv.SessionScope("abc"))
	session.Incr(ctx, "edits", 1, 24*time.Hour)
	session.Set(ctx, "warned", true, 0)

	inside, _ := session.Keys(ctx, "")
	outside, _ := store.Keys(ctx, "")
	fmt.Println(inside)
	fmt.Println(outside)
	// Output:
	// [edits warned]
	// [session/abc/edits session/abc/warned]
}

func ExampleStore_compareAndSwap() {
	ctx := context.Background()
	s := kv.NewMemory()
	// Take a lease that only one hook may hold, for a minute.
	got, _ := s.CompareAndSwap(ctx, "lease", nil, "hook-a", time.Minute)
	again, _ := s.CompareAndSwap(ctx, "lease", nil, "hook-b", time.Minute)
	fmt.Println(got, again)
	// Output: true false
}

func ExampleWithClock() {
	ctx := context.Background()
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	s := kv.NewMemory(kv.WithClock(func() time.Time { return now }))
	s.Set(ctx, "cooldown", true, 10*time.Minute)
	_, before, _ := s.Get(ctx, "cooldown")
	now = now.Add(10 * time.Minute)
	_, after, _ := s.Get(ctx, "cooldown")
	fmt.Println(before, after)
	// Output: true false
}

func ExampleLoopStore() {
	ctx := context.Background()
	loops := kv.LoopStore(kv.NewMemory())
	loops.SetLoopCount(ctx, "Stop/session-1", 2)
	n, _ := loops.LoopCount(ctx, "Stop/session-1")
	fmt.Println(n)
	// Output: 2
}
