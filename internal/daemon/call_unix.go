//go:build unix

package daemon

import (
	"os"
	"syscall"
)

// Call sends req to the daemon at socket and returns its response. It
// dials with system calls rather than package net, whose initialisation
// would cost every client process more than the call itself.
func Call(socket string, req *Request) (*Response, error) {
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
	return ReadResponse(f)
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
