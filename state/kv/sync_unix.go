//go:build unix && !solaris && !aix

package kv

import "os"

// syncDir flushes a directory entry change (the rename of a new state
// file) to disk. It is best effort: some file systems refuse to sync a
// directory, and the rename itself is already atomic.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	d.Close()
}
