//go:build !windows

package daemonserver

import (
	"context"
	"net"
)

// listenPipe is Listen's Windows named pipe; there is none here (ok is
// false).
func listenPipe(context.Context, string) (ln net.Listener, ok bool, err error) {
	return nil, false, nil
}
