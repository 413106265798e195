package kv

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/filelock"
)

// TestFileLockWaitsForContext holds the lock of a key's bucket the way
// another process would and checks that operations wait for it and give up when their
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

	dir, _ := f.locate("k")
	lockPath := filepath.Join(dir, lockName)
	unlock, err := filelock.Lock(bg, lockPath, true)
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
	unlockShared, err := filelock.Lock(bg, lockPath, false)
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

// TestFileLockWaitIsBounded: a lock held by a process that never lets go
// (stopped, or stuck) ends an operation with ErrLockWait after the lock
// wait even when its context never ends; OpenFile took the lock with no
// bound at all and so hung every process behind it.
func TestFileLockWaitIsBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kv.json")
	f, err := OpenFile(path, WithLockWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := f.locate("k")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	unlock, err := filelock.Lock(context.Background(), filepath.Join(dir, lockName), true)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	start := time.Now()
	_, err = f.Incr(context.Background(), "k", 1, 0)
	if !errors.Is(err, ErrLockWait) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Incr under a held lock: %v, want ErrLockWait", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("waited %v", d)
	}
	// Opening takes no lock at all.
	unlockAll, err := filelock.Lock(context.Background(), path+".lock", true)
	if err != nil {
		t.Fatal(err)
	}
	defer unlockAll()
	if _, err := OpenFile(path); err != nil {
		t.Fatal(err)
	}
	// Other buckets are not held up.
	for i := 0; i < 10; i++ {
		k := fmt.Sprintf("other%d", i)
		if d, _ := f.locate(k); d == dir {
			continue
		}
		if _, err := f.Incr(context.Background(), k, 1, 0); err != nil {
			t.Fatal(err)
		}
	}
}
