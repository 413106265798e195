//go:build unix

package main

import "syscall"

// detached makes the daemon its own session, so that the host's signals
// to the hook's process group do not reach it.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
