//go:build unix

package main

import (
	"os"
	"syscall"
)

// detached makes the daemon its own session, so that the host's signals
// to the hook's process group do not reach it.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// stopSignals are the signals a host sends a hook it gives up on.
var stopSignals = []os.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP}
