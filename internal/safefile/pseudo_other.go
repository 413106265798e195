//go:build !linux

package safefile

import "os"

// pseudoFS reports no pseudo file system where there is no way to tell;
// the type checks still refuse devices, FIFOs and sockets.
func pseudoFS(*os.File) string { return "" }
