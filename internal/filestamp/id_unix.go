//go:build unix

package filestamp

import (
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// ID is a file's device, inode and change time: a file replaced (a new
// inode) or written in place (a new change time, which no program can
// set back, whatever the modification time says) gets another.
type ID struct {
	Dev, Ino        uint64
	CtimeSec, Ctime int64
}

// idOf reads the ID from the stat the file info holds (one system call
// per stamp), else stats the file again.
func idOf(path string, fi os.FileInfo) ID {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		if sec, nsec, ok := ctimeOf(st); ok {
			return ID{Dev: uint64(st.Dev), Ino: uint64(st.Ino), CtimeSec: sec, Ctime: nsec}
		}
	}
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return ID{}
	}
	return ID{Dev: uint64(st.Dev), Ino: uint64(st.Ino), CtimeSec: int64(st.Ctim.Sec), Ctime: int64(st.Ctim.Nsec)}
}

// changed is the change time.
func (id ID) changed() (time.Time, bool) { return time.Unix(id.CtimeSec, id.Ctime), true }
