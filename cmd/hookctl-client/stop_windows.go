//go:build windows

package main

import "os"

// passStop does nothing on Windows: a process cannot be sent os.Interrupt
// there. It is used only for a hookctl.exe that runs untied (its job
// object could not be made or joined: leash.start); a tied one is ended
// with its job at once (leash.stop). The console's Ctrl+C or Ctrl+Break
// that stopped the client reached the untied hookctl.exe too (the same
// console process group), which answers the host's block. Past stopGrace
// it is killed, and the client answers the block itself (runFull).
func passStop(*os.Process) error { return nil }
