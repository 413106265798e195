//go:build linux

package safefile

import (
	"os"
	"syscall"
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
