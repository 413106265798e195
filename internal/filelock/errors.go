package filelock

import (
	"errors"
	"fmt"
	"runtime"
)

// ErrNoLocks is the error Lock returns where the system offers no file
// lock that its holder's death releases (flock(2) or LockFileEx). A lock
// file created exclusively cannot stand in for one: a holder that dies
// leaves it behind, and removing a stale one races with the waiter that
// just took it, letting two holders in.
var ErrNoLocks = fmt.Errorf("filelock: no file locks on %s/%s: %w", runtime.GOOS, runtime.GOARCH, errors.ErrUnsupported)
