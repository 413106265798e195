//go:build !windows

package main

import "os"

// passStop passes a stop on to hookctl run by the client: the first stop
// signal, after which hookctl kills its hooks and answers the host's
// block.
func passStop(p *os.Process) error { return p.Signal(stopSignals[0]) }
