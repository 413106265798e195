//go:build (!unix && !windows) || aix

package filelock

import (
	"context"
	"fmt"
)

// Shared reports whether readers can hold the lock together and a
// holder may keep the locked files open.
const Shared = false

// Lock refuses with ErrNoLocks: the file stores that need it fail with an
// error that says why, rather than lose updates.
func Lock(ctx context.Context, path string, exclusive bool) (func(), error) {
	return nil, fmt.Errorf("%w (%s)", ErrNoLocks, path)
}

// Locker takes locks like Lock.
type Locker struct{}

// NewLocker returns a Locker.
func NewLocker(int) *Locker { return &Locker{} }

// Lock takes the lock at path; see Lock.
func (l *Locker) Lock(ctx context.Context, path string, exclusive bool) (func(), error) {
	return Lock(ctx, path, exclusive)
}
