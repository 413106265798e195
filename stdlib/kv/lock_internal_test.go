package kv

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/filelock"
)

// TestFileLockWaitsForContext holds the lock the way another process
// would and checks that operations wait for it and give up when their
// context is done, and that readers share the lock.
func TestFileLockWaitsForContext(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kv.json")
	f, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bg := context.Background()
	if err := f.Set(bg, "k", 1, 0); err != nil {
		t.Fatal(err)
	}

	unlock, err := filelock.Lock(bg, f.lockPath, true)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(bg, 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := f.Incr(ctx, "k", 1, 0); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Incr under a held lock: %v, want DeadlineExceeded", err)
	}
	if d := time.Since(start); d < 40*time.Millisecond {
		t.Errorf("gave up after %v, before the deadline", d)
	}

	// Once the holder lets go, a waiting operation proceeds.
	done := make(chan error, 1)
	go func() {
		_, err := f.Incr(bg, "k", 1, 0)
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("Incr finished while the lock was held: %v", err)
	default:
	}
	unlock()
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	// A shared holder does not block readers, only writers.
	if !filelock.Shared {
		return
	}
	unlockShared, err := filelock.Lock(bg, f.lockPath, false)
	if err != nil {
		t.Fatal(err)
	}
	defer unlockShared()
	ctx2, cancel2 := context.WithTimeout(bg, 50*time.Millisecond)
	defer cancel2()
	if v, _, err := f.Get(ctx2, "k"); err != nil || v != int64(2) {
		t.Errorf("Get beside a shared holder = %v, %v", v, err)
	}
	if err := f.Set(ctx2, "k", 3, 0); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Set beside a shared holder: %v, want DeadlineExceeded", err)
	}
}
