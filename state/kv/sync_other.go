//go:build !unix || solaris || aix

package kv

// syncDir is a no-op where directories cannot be synced portably.
func syncDir(string) {}
