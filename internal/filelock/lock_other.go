//go:build !unix || solaris || aix

package filelock

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"time"
)

// staleLock is how old a lock file must be before a waiter assumes its
// holder died and removes it. Holders keep the lock for milliseconds.
const staleLock = 30 * time.Second

// Shared reports whether readers can hold the lock together (flock(2)
// is available). Without it a holder must not keep the locked file open
// either: some systems refuse to rename a file held open.
const Shared = false

// Lock takes the lock at path by creating the file with O_EXCL, and
// returns the function that releases it by removing the file. A waiter
// retries with a backoff of up to 20ms until ctx is done. Without flock(2)
// readers cannot share the lock, so exclusive is ignored and every lock is
// exclusive.
//
// A lock file older than staleLock is taken to be left behind by a
// crashed process and is removed.
func Lock(ctx context.Context, path string, exclusive bool) (func(), error) {
	_ = exclusive
	delay := time.Millisecond
	start := time.Now()
	for {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid())
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		switch {
		case errors.Is(err, fs.ErrExist):
			if fi, serr := os.Stat(path); serr == nil && time.Since(fi.ModTime()) > staleLock {
				os.Remove(path)
				continue
			}
		case errors.Is(err, fs.ErrPermission) && runtime.GOOS == "windows" && time.Since(start) < staleLock:
			// A lock file being deleted by its holder cannot be
			// created again until the deletion completes.
		default:
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
		delay = min(2*delay, 20*time.Millisecond)
	}
}

// Locker takes locks like Lock. Where flock(2) is missing it is Lock: a
// waiter polls.
type Locker struct{}

// NewLocker returns a Locker; the bound is for the flock(2) implementation.
func NewLocker(int) *Locker { return &Locker{} }

// Lock takes the lock at path; see Lock.
func (l *Locker) Lock(ctx context.Context, path string, exclusive bool) (func(), error) {
	return Lock(ctx, path, exclusive)
}
