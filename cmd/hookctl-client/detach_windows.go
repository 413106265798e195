//go:build windows

package main

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/windows"
)

// The flags detach_flags.go spells out are Windows' own: each index is
// a uint32 constant that overflows (below zero) or is out of range
// (above) unless the two are equal, which fails the build.
var (
	_ = [1]struct{}{}[detachedProcess-windows.DETACHED_PROCESS]
	_ = [1]struct{}{}[createNewProcessGroup-windows.CREATE_NEW_PROCESS_GROUP]
	_ = [1]struct{}{}[createBreakawayFromJob-windows.CREATE_BREAKAWAY_FROM_JOB]
)

// startDetached starts the daemon without a console, in its own process
// group, and out of the client's job where that job allows it
// (startBreakaway): CreateProcess fails with ERROR_ACCESS_DENIED when the
// job does not allow breakaway, and the daemon is then started inside
// it. brokeAway reports whether it left the job (or there was none).
func startDetached(start func(*syscall.SysProcAttr) (*os.Process, error)) (p *os.Process, brokeAway bool, err error) {
	return startBreakaway(func(flags uint32) (*os.Process, error) {
		return start(&syscall.SysProcAttr{CreationFlags: flags, HideWindow: true})
	}, func(err error) bool {
		// os.StartProcess wraps CreateProcess's error in a
		// *os.PathError ("fork/exec").
		return errors.Is(err, windows.ERROR_ACCESS_DENIED)
	})
}
