//go:build linux

package safefile

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// Magic numbers of Linux pseudo file systems (statfs(2)), whose files
// claim a size that says nothing of what reading them returns, or block.
var pseudoFSNames = map[int64]string{
	0x9fa0:     "proc",
	0x62656572: "sysfs",
	0x64626720: "debugfs",
	0x74726163: "tracefs",
	0x73636673: "securityfs",
	0x27e0eb:   "cgroup",
	0x63677270: "cgroup2",
	0xcafe4a11: "bpf",
	0x62656570: "configfs",
	0xde5e81e4: "efivarfs",
	0x6165676c: "pstore",
	0x65735543: "fusectl",
	0x42494e4d: "binfmt_misc",
}

// pseudoFS names the pseudo file system f is on, "" for an ordinary one.
func pseudoFS(f *os.File) string {
	// Through SyscallConn, not Fd: Fd puts a file opened without
	// blocking back into blocking mode, two fcntl calls for nothing.
	rc, err := f.SyscallConn()
	if err != nil {
		return ""
	}
	name := ""
	if err := rc.Control(func(fd uintptr) { name = pseudoFSOf(int(fd)) }); err != nil {
		return ""
	}
	return name
}

// pseudoFSOf is pseudoFS of the descriptor fd.
func pseudoFSOf(fd int) string {
	var st syscall.Statfs_t
	if err := syscall.Fstatfs(fd, &st); err != nil {
		return ""
	}
	return pseudoFSNames[int64(st.Type)]
}

// pseudoFSOfStat is pseudoFSOf of the descriptor fd, whose fstat(2) is
// st. Every pseudo file system of pseudoFSNames is one the kernel mounts
// with no block device ("nodev" in /proc/filesystems), whose files carry
// an anonymous device number (major 0). A file on a block device (major
// other than 0) is on none of them: its statfs(2) is not asked, one
// system call less on every daemon call.
func pseudoFSOfStat(fd int, st *syscall.Stat_t) string {
	if onBlockDevice(st) {
		return ""
	}
	return pseudoFSOf(fd)
}

// onBlockDevice reports whether st is of a file on a block device.
func onBlockDevice(st *syscall.Stat_t) bool {
	return unix.Major(uint64(st.Dev)) != 0
}
