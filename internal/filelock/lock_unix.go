//go:build unix && !aix

package filelock

import (
	"context"
	"errors"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// Shared reports whether readers can hold the lock together (flock(2)
// is available). Without it a holder must not keep the locked file open
// either: some systems refuse to rename a file held open.
const Shared = true

// Lock takes an flock(2) lock on the file at path, creating it
// (0600) if needed, and returns the function that releases it. It never
// opens through a symbolic link: one at path fails the open with ELOOP,
// and its target is not created. The lock belongs to this call's own open file description, so two calls exclude
// each other even within one process.
//
// With a context that can never be canceled it blocks in the kernel;
// otherwise it polls with a non-blocking flock, backing off up to 10ms,
// and gives up with ctx.Err() when ctx is done.
func Lock(ctx context.Context, path string, exclusive bool) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	how := unix.LOCK_SH
	if exclusive {
		how = unix.LOCK_EX
	}
	fd := int(f.Fd())
	if err := flock(ctx, fd, how); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		// Closing the descriptor releases the lock; the explicit
		// unlock just makes that independent of any dup of fd.
		_ = unix.Flock(fd, unix.LOCK_UN)
		f.Close()
	}, nil
}

func flock(ctx context.Context, fd, how int) error {
	if ctx.Done() == nil {
		for {
			err := unix.Flock(fd, how)
			if err != unix.EINTR {
				return err
			}
		}
	}
	return poll(ctx, func() error { return unix.Flock(fd, how|unix.LOCK_NB) }, func(err error) bool {
		return errors.Is(err, unix.EWOULDBLOCK) || err == unix.EINTR
	})
}

// Locker takes locks like Lock, but a waiter sleeps in the kernel until
// the lock is free instead of polling: with many processes waiting for one
// lock, polling waiters wake up in turn to find it taken, and the holder
// waits for a CPU behind them. flock(2) cannot be interrupted, so a waiter
// blocks on a goroutine of its own, and when its context ends first it
// gives up at once and leaves that goroutine to release the lock as soon
// as it gets it. At most max such goroutines exist at a time (each holds
// an OS thread); past that, waiters poll. A Locker is safe for concurrent
// use.
type Locker struct {
	slots chan struct{}
}

// NewLocker returns a Locker with at most max waiters blocked in the
// kernel at once (at least 1).
func NewLocker(n int) *Locker {
	return &Locker{slots: make(chan struct{}, max(1, n))}
}

// Lock takes the lock at path; see Lock and Locker.
func (l *Locker) Lock(ctx context.Context, path string, exclusive bool) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	how := unix.LOCK_SH
	if exclusive {
		how = unix.LOCK_EX
	}
	fd := int(f.Fd())
	release := func() {
		_ = unix.Flock(fd, unix.LOCK_UN)
		f.Close()
	}
	err = unix.Flock(fd, how|unix.LOCK_NB)
	if err == nil {
		return release, nil
	}
	if !errors.Is(err, unix.EWOULDBLOCK) && err != unix.EINTR {
		f.Close()
		return nil, err
	}
	if ctx.Done() == nil {
		if err := flock(ctx, fd, how); err != nil {
			f.Close()
			return nil, err
		}
		return release, nil
	}
	select {
	case l.slots <- struct{}{}:
	default:
		if err := flock(ctx, fd, how); err != nil {
			f.Close()
			return nil, err
		}
		return release, nil
	}
	var (
		mu        sync.Mutex
		abandoned bool
		got       = make(chan error, 1)
	)
	go func() {
		defer func() { <-l.slots }()
		err := flock(context.Background(), fd, how) // blocks in the kernel
		mu.Lock()
		defer mu.Unlock()
		if abandoned {
			if err == nil {
				release()
			} else {
				f.Close()
			}
			return
		}
		got <- err
	}()
	select {
	case err := <-got:
		if err != nil {
			f.Close()
			return nil, err
		}
		return release, nil
	case <-ctx.Done():
	}
	mu.Lock()
	defer mu.Unlock()
	select {
	case err := <-got:
		if err != nil {
			f.Close()
			return nil, err
		}
		return release, nil
	default:
		abandoned = true
		return nil, ctx.Err()
	}
}
