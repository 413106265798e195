//go:build unix && !solaris && !aix

package filelock

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// Shared reports whether readers can hold the lock together (flock(2)
// is available). Without it a holder must not keep the locked file open
// either: some systems refuse to rename a file held open.
const Shared = true

// Lock takes an flock(2) lock on the file at path, creating it
// (0600) if needed, and returns the function that releases it. The lock
// belongs to this call's own open file description, so two calls exclude
// each other even within one process.
//
// With a context that can never be canceled it blocks in the kernel;
// otherwise it polls with a non-blocking flock, backing off up to 10ms,
// and gives up with ctx.Err() when ctx is done.
func Lock(ctx context.Context, path string, exclusive bool) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	fd := int(f.Fd())
	if err := flock(ctx, fd, how); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		// Closing the descriptor releases the lock; the explicit
		// unlock just makes that independent of any dup of fd.
		_ = syscall.Flock(fd, syscall.LOCK_UN)
		f.Close()
	}, nil
}

func flock(ctx context.Context, fd, how int) error {
	if ctx.Done() == nil {
		for {
			err := syscall.Flock(fd, how)
			if err != syscall.EINTR {
				return err
			}
		}
	}
	delay := 50 * time.Microsecond
	for {
		err := syscall.Flock(fd, how|syscall.LOCK_NB)
		if err == nil {
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && err != syscall.EINTR {
			return err
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		delay = min(2*delay, 10*time.Millisecond)
	}
}
