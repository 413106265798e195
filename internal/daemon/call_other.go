//go:build !unix

package daemon

import (
	"context"
	"errors"
)

// Call is not available without unix sockets: the client runs hookctl
// itself.
func Call(string, *Request) (*Response, error) {
	return nil, errors.New("unix sockets are not available")
}

func reachable(string) bool { return false }

// CallContext is not available without unix sockets either.
func CallContext(context.Context, string, *Request) (*Response, error) {
	return Call("", nil)
}
