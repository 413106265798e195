//go:build unix && !linux

package daemon

import "syscall"

// unixSocket opens a stream unix socket that is closed on exec. Darwin and
// the BSDs have no SOCK_CLOEXEC in package syscall, so the flag is set
// under the fork lock, as package net does there: no child started in
// between inherits the descriptor.
func unixSocket() (int, error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return -1, err
	}
	syscall.CloseOnExec(fd)
	return fd, nil
}
