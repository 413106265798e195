//go:build linux

package safefile

import (
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// openNoLinks opens name read-only without blocking, failing if any of
// its components is a symbolic link (openat2(2), RESOLVE_NO_SYMLINKS,
// which also refuses /proc's magic links; ENOSYS before Linux 5.6). Only
// a regular file or a directory on an ordinary file system is kept. The
// descriptor is read with plain system calls: an *os.File would ask for
// its flags and try to add it to the poller, two calls more on every
// daemon call for a file that never blocks.
func openNoLinks(name string) (io.ReadCloser, fs.FileInfo, error) {
	fd, err := unix.Openat2(unix.AT_FDCWD, name, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_CLOEXEC | nonblock,
		Resolve: unix.RESOLVE_NO_SYMLINKS,
	})
	if err != nil {
		return nil, nil, &os.PathError{Op: "openat2", Path: name, Err: err}
	}
	f := &rawFile{fd: fd, name: name}
	var st syscall.Stat_t
	if err := ignoringEINTR(func() error { return syscall.Fstat(fd, &st) }); err != nil {
		f.Close()
		return nil, nil, err
	}
	fi := &rawInfo{name: name, st: st}
	if !fi.Mode().IsRegular() && !fi.IsDir() {
		f.Close()
		return nil, nil, &NotRegularError{Path: name, Kind: kindOf(fi.Mode())}
	}
	if fsName := pseudoFSOfStat(fd, &st); fsName != "" {
		f.Close()
		return nil, nil, &NotRegularError{Path: name, Kind: "a file of the " + fsName + " pseudo file system"}
	}
	return f, fi, nil
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != syscall.EINTR {
			return err
		}
	}
}

// rawFile is a descriptor read with read(2).
type rawFile struct {
	fd   int
	name string
}

func (f *rawFile) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	for {
		n, err := syscall.Read(f.fd, b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &os.PathError{Op: "read", Path: f.name, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f *rawFile) Close() error { return syscall.Close(f.fd) }

// rawInfo is the fs.FileInfo of an fstat(2); Sys is its *syscall.Stat_t.
type rawInfo struct {
	name string
	st   syscall.Stat_t
}

func (i *rawInfo) Name() string       { return i.name }
func (i *rawInfo) Size() int64        { return i.st.Size }
func (i *rawInfo) ModTime() time.Time { return time.Unix(i.st.Mtim.Unix()) }
func (i *rawInfo) IsDir() bool        { return i.st.Mode&syscall.S_IFMT == syscall.S_IFDIR }
func (i *rawInfo) Sys() any           { return &i.st }

func (i *rawInfo) Mode() fs.FileMode {
	m := fs.FileMode(i.st.Mode & 0o777)
	switch i.st.Mode & syscall.S_IFMT {
	case syscall.S_IFDIR:
		m |= fs.ModeDir
	case syscall.S_IFREG:
	case syscall.S_IFLNK:
		m |= fs.ModeSymlink
	case syscall.S_IFIFO:
		m |= fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		m |= fs.ModeSocket
	case syscall.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	default:
		m |= fs.ModeDevice
	}
	return m
}
