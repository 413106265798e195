//go:build !unix

package main

import (
	"os"
	"syscall"
)

func detached() *syscall.SysProcAttr { return nil }

// stopSignals are the signals a host sends a hook it gives up on.
var stopSignals = []os.Signal{os.Interrupt}
