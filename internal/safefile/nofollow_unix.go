//go:build unix

package safefile

import (
	"os"
	"syscall"
)

// nofollow makes open(2) fail on a symbolic link at the end of the path.
const nofollow = syscall.O_NOFOLLOW

// reparseIrregular: only Windows reports reparse points as irregular
// files; elsewhere an irregular file is refused as not regular.
const reparseIrregular = false

// sameAsPath has nothing to check: O_NOFOLLOW made the open itself refuse
// a link.
func sameAsPath(*os.File, string) error { return nil }
