//go:build !unix

package daemonserver

func rawCallSetup(string) {}
