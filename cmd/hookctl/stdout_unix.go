//go:build unix

package main

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// reserveStdout gives the reply writer the process's standard output to
// itself, when a.stdout is it: descriptor 1 is duplicated (close-on-exec)
// for a.stdout, then pointed at standard error. Whatever else writes to
// descriptor 1 (a library that prints, a file opened by a path that
// resolves to /dev/stdout or /proc/self/fd/1, a child process that
// inherits it) lands on stderr, never before or after the reply, which
// the host must parse alone. release points descriptor 1 back at the
// reply's and closes the duplicate. It is no wall against a command
// hook: running as the user, it can open the duplicate too, through
// /proc/<hookctl's pid>/fd/ (see SECURITY.md).
func (a *app) reserveStdout() (release func(), err error) {
	f, ok := a.stdout.(*os.File)
	if !ok || f != os.Stdout {
		return func() {}, nil
	}
	fd, err := unix.FcntlInt(1, unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return nil, fmt.Errorf("reserving stdout for the reply: %w", err)
	}
	if err := unix.Dup2(2, 1); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("reserving stdout for the reply: %w", err)
	}
	reply := os.NewFile(uintptr(fd), "/dev/stdout")
	prev := a.stdout
	a.stdout = reply
	return func() {
		a.stdout = prev
		_ = unix.Dup2(fd, 1)
		reply.Close()
	}, nil
}
