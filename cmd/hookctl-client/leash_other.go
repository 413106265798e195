//go:build !windows

package main

// newTie returns nil: off Windows nothing ties the hookctl the client
// runs itself to the client; a stop signal is passed on to it
// (passStop), and a client killed by SIGKILL leaves it to finish.
func newTie() tie { return nil }
