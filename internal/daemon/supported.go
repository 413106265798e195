package daemon

import (
	"fmt"
	"runtime"
)

// UnsupportedError is the daemon on a platform where its callers cannot be
// checked: hookctl daemon refuses to serve, and hookctl-client runs the
// full hookctl binary for every call (which costs the engine's start each
// time, and checks everything hookctl claude does).
type UnsupportedError struct {
	GOOS string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("the hookctl daemon is not supported on %s (nothing checks who calls its socket there): hookctl-client runs hookctl itself for every call", e.GOOS)
}

// Supported reports whether the daemon can run here: nil where its
// transport checks who calls (a unix socket's peer credentials on Unix, a
// named pipe's caller token on Windows), an *UnsupportedError elsewhere.
func Supported() error { return supported(runtime.GOOS, callerChecked) }

func supported(goos string, checked bool) error {
	if !checked {
		return &UnsupportedError{GOOS: goos}
	}
	return nil
}
