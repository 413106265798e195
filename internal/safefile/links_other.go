//go:build !unix

package safefile

import "io/fs"

// links returns 1: Windows does not report the hard link count in a
// FileInfo, so OpenFileOwn has only the checks of OpenFile there.
func links(fs.FileInfo) uint64 { return 1 }
