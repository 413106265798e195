//go:build !unix

package safefile

import (
	"fmt"
	"os"
)

// nofollow is 0 where open has no O_NOFOLLOW (Windows): OpenFile refuses
// links by Lstat before the open and by sameAsPath after it.
const nofollow = 0

// reparseIrregular: Windows reports a reparse point that is not a
// symbolic link (a junction, an app execution alias, ...) as an
// irregular file, which OpenFile refuses as a link.
const reparseIrregular = true

// sameAsPath fails unless f is the file name names without following a
// link: a link swapped in between OpenFile's Lstat and its open is
// refused, after the fact.
func sameAsPath(f *os.File, name string) error {
	lfi, err := os.Lstat(name)
	if err != nil {
		return err
	}
	if k := linkKind(lfi.Mode()); k != "" {
		return &SymlinkError{Path: name, Kind: k}
	}
	ffi, err := f.Stat()
	if err != nil {
		return err
	}
	if !os.SameFile(lfi, ffi) {
		return fmt.Errorf("%s changed while it was opened: refused", name)
	}
	return nil
}
