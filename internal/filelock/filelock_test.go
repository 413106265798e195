package filelock

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// TestLockExcludes: on every platform (flock(2) on Linux and macOS, a
// lock file elsewhere) a held exclusive lock keeps a second taker out
// until it is released, within one process too; where locks can be
// shared, two readers hold one together and keep a writer out.
func TestLockExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	gone, cancel := context.WithCancel(t.Context())
	cancel()
	held := func(what string, u func(), err error) {
		t.Helper()
		if !errors.Is(err, context.Canceled) {
			if u != nil {
				u()
			}
			t.Fatalf("%s: taken (%v)", what, err)
		}
	}
	unlock, err := Lock(t.Context(), path, true)
	if err != nil {
		t.Fatal(err)
	}
	u, err := Lock(gone, path, true)
	held("a held lock taken again", u, err)
	u, err = Lock(gone, path, false)
	held("a held lock taken shared", u, err)
	unlock()
	again, err := Lock(gone, path, true)
	if err != nil {
		t.Fatalf("a released lock: %v", err)
	}
	again()
	if Shared {
		r1, err := Lock(t.Context(), path, false)
		if err != nil {
			t.Fatal(err)
		}
		r2, err := Lock(gone, path, false)
		if err != nil {
			t.Fatalf("two readers: %v", err)
		}
		u, err := Lock(gone, path, true)
		held("a writer past readers", u, err)
		r1()
		r2()
	}
	// Last: a Locker that gives up leaves a waiter behind, which takes
	// and releases the lock once it is free.
	unlock, err = Lock(t.Context(), path, true)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	for _, exclusive := range []bool{true, false} {
		u, err := NewLocker(1).Lock(gone, path, exclusive)
		held("a Locker took a held lock", u, err)
	}
}
