//go:build linux

package daemon

import "syscall"

// unixSocket opens a stream unix socket that is closed on exec, atomically.
func unixSocket() (int, error) {
	return syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
}
