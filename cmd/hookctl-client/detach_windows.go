//go:build windows

package main

import (
	"syscall"

	"golang.org/x/sys/windows"
)

// detached starts the daemon without a console (no window, and not
// attached to the host's) in its own process group, so that the Ctrl+C
// or Ctrl+Break the host's console sends its hook does not reach it.
func detached() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{
		CreationFlags: windows.DETACHED_PROCESS | windows.CREATE_NEW_PROCESS_GROUP,
		HideWindow:    true,
	}
}
