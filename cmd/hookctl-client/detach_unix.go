//go:build unix

package main

import (
	"os"
	"syscall"
)

// startDetached starts the daemon in its own session, so that the host's
// signals to the hook's process group do not reach it. brokeAway is
// always true: there is no job to leave.
func startDetached(start func(*syscall.SysProcAttr) (*os.Process, error)) (p *os.Process, brokeAway bool, err error) {
	p, err = start(&syscall.SysProcAttr{Setsid: true})
	return p, true, err
}

// stopSignals are the signals a host sends a hook it gives up on.
var stopSignals = []os.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP}
