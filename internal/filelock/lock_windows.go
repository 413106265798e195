//go:build windows

package filelock

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"golang.org/x/sys/windows"
)

// Shared reports whether readers can hold the lock together and a
// holder may keep the locked files open. On Windows neither: every lock
// is exclusive, and the files a lock guards are closed between uses
// because Windows refuses to rename a file another process holds open.
const Shared = false

// Lock takes an exclusive byte-range lock (LockFileEx) on the file at
// path, creating it if needed, and returns the function that releases
// it. The lock belongs to this call's own handle, so two calls exclude
// each other even within one process, and Windows releases it when the
// handle is closed, which it does for a process that exits or is
// terminated: a crashed holder leaves no lock behind. The file itself
// is never removed. A symbolic link (a reparse point) at path is opened
// as itself, never followed. Without flock(2)'s shared mode here,
// exclusive is ignored and every lock is exclusive.
//
// With a context that can never be canceled it blocks in the kernel;
// otherwise it polls, backing off up to 10ms, and gives up with
// ctx.Err() when ctx is done.
func Lock(ctx context.Context, path string, exclusive bool) (func(), error) {
	_ = exclusive
	name, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, fmt.Errorf("filelock: %s: %w", path, err)
	}
	h, err := windows.CreateFile(name,
		windows.GENERIC_READ|windows.GENERIC_WRITE,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, // not inherited by the processes hooks start
		windows.OPEN_ALWAYS,
		windows.FILE_ATTRIBUTE_NORMAL|windows.FILE_FLAG_OPEN_REPARSE_POINT,
		0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	if err := lockFileEx(ctx, h); err != nil {
		windows.CloseHandle(h)
		return nil, err
	}
	return func() {
		// Closing the handle releases the lock; the explicit unlock
		// releases it at once rather than when Windows gets to it.
		_ = windows.UnlockFileEx(h, 0, lockBytes, lockBytes, new(windows.Overlapped))
		windows.CloseHandle(h)
	}, nil
}

// lockBytes is the length (low and high words) of the locked range: the
// whole of any file, from offset 0. Byte-range locks may extend past the
// end of the file.
const lockBytes = ^uint32(0)

// lockFileEx takes the exclusive lock on h as Lock describes.
func lockFileEx(ctx context.Context, h windows.Handle) error {
	if ctx.Done() == nil {
		return windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK, 0, lockBytes, lockBytes, new(windows.Overlapped))
	}
	return poll(ctx, func() error {
		return windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY,
			0, lockBytes, lockBytes, new(windows.Overlapped))
	}, func(err error) bool {
		return errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING)
	})
}

// Locker takes locks like Lock: a waiter polls.
type Locker struct{}

// NewLocker returns a Locker; the bound is for the flock(2) implementation.
func NewLocker(int) *Locker { return &Locker{} }

// Lock takes the lock at path; see Lock.
func (l *Locker) Lock(ctx context.Context, path string, exclusive bool) (func(), error) {
	return Lock(ctx, path, exclusive)
}
