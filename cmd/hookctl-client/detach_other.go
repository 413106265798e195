//go:build !unix

package main

import "os"

// stopSignals are the signals a host sends a hook it gives up on.
var stopSignals = []os.Signal{os.Interrupt}
