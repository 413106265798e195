//go:build !unix

package daemon

import (
	"context"
	"runtime"
)

// unixSockets says whether the daemon's unix sockets, with their caller
// checked, are available: not here (Supported).
const unixSockets = false

// Call is not available without unix sockets whose caller is checked:
// the client runs hookctl itself.
func Call(string, *Request) (*Response, error) {
	return nil, &UnsupportedError{GOOS: runtime.GOOS}
}

func reachable(string) bool { return false }

// CallContext is not available without unix sockets either.
func CallContext(context.Context, string, *Request) (*Response, error) {
	return Call("", nil)
}
