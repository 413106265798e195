//go:build !unix && !windows

package daemon

import (
	"context"
	"path/filepath"
	"runtime"
)

// callerChecked says whether the daemon's transport, with its caller
// checked, is available: not here (Supported).
const callerChecked = false

// Call is not available without a transport whose caller is checked:
// the client runs hookctl itself.
func Call(string, *Request) (*Response, error) {
	return nil, &UnsupportedError{GOOS: runtime.GOOS}
}

func socketPath(dir, key string) string { return filepath.Join(dir, key+".sock") }

func osDir() (string, bool, error) { return "", false, nil }

func live(string) int { return 0 }

// CallContext is not available without such a transport either.
func CallContext(context.Context, string, *Request) (*Response, error) {
	return Call("", nil)
}
