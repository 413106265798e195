//go:build linux

package safefile

import (
	"os"

	"golang.org/x/sys/unix"
)

// openNoLinks opens name read-only without blocking, failing if any of
// its components is a symbolic link (openat2(2), RESOLVE_NO_SYMLINKS,
// which also refuses /proc's magic links). ENOSYS on kernels before 5.6.
func openNoLinks(name string) (*os.File, error) {
	fd, err := unix.Openat2(unix.AT_FDCWD, name, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_CLOEXEC | nonblock,
		Resolve: unix.RESOLVE_NO_SYMLINKS,
	})
	if err != nil {
		return nil, &os.PathError{Op: "openat2", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}
