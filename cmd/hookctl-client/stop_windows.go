//go:build windows

package main

import "os"

// passStop does nothing on Windows: a process cannot be sent os.Interrupt
// there, and the console's Ctrl+C or Ctrl+Break that stopped the client
// reached hookctl.exe too (the same console process group), which
// answers the host's block. Past stopGrace it is killed, and the client
// answers the block itself (runFull).
func passStop(*os.Process) error { return nil }
