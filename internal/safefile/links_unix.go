//go:build unix

package safefile

import (
	"io/fs"
	"syscall"
)

// links returns the hard link count of fi.
func links(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
