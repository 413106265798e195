//go:build !unix

package daemon

import "errors"

// Call is not available without unix sockets: the client runs hookctl
// itself.
func Call(string, *Request) (*Response, error) {
	return nil, errors.New("unix sockets are not available")
}

func reachable(string) bool { return false }
