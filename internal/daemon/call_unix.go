//go:build unix

package daemon

import (
	"context"
	"os"
	"syscall"
)

// Call sends req to the daemon at socket and returns its response. It
// dials with system calls rather than package net, whose initialisation
// would cost every client process more than the call itself.
func Call(socket string, req *Request) (*Response, error) {
	return CallContext(context.Background(), socket, req)
}

// CallContext is Call whose caller can give up: when ctx ends (the host
// stopped the client), the connection's writing side is shut down, which
// the daemon reads as the call being given up (ServeCall cancels its
// hooks, as a stop signal does hookctl's), and the response the daemon
// still sends (its block) is read and returned.
func CallContext(ctx context.Context, socket string, req *Request) (*Response, error) {
	fd, err := unixSocket()
	if err != nil {
		return nil, err
	}
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: socket}); err != nil {
		syscall.Close(fd)
		return nil, &os.PathError{Op: "connect", Path: socket, Err: err}
	}
	f := os.NewFile(uintptr(fd), socket)
	defer f.Close()
	if err := WriteRequest(f, req); err != nil {
		return nil, err
	}
	if ctx.Done() != nil {
		stop := context.AfterFunc(ctx, func() {
			// Through the file, which keeps the descriptor open (and
			// not reused) while it is shut down.
			if rc, err := f.SyscallConn(); err == nil {
				rc.Control(func(fd uintptr) { syscall.Shutdown(int(fd), syscall.SHUT_WR) })
			}
		})
		defer stop()
	}
	return readReply(f)
}

// reachable reports whether a daemon accepts connections on socket.
func reachable(socket string) bool {
	fd, err := unixSocket()
	if err != nil {
		return false
	}
	defer syscall.Close(fd)
	return syscall.Connect(fd, &syscall.SockaddrUnix{Name: socket}) == nil
}
