//go:build !unix && !windows

package main

import (
	"os"
	"syscall"
)

// startDetached starts the daemon as any process.
func startDetached(start func(*syscall.SysProcAttr) (*os.Process, error)) (p *os.Process, brokeAway bool, err error) {
	p, err = start(nil)
	return p, true, err
}
