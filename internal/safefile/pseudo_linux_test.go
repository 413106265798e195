//go:build linux

package safefile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestPseudoFSOfStatAgrees: skipping statfs(2) for a file on a block
// device never hides a pseudo file system. For files on every kind of
// file system this machine has (the block device of the test's
// directory, tmpfs, procfs, sysfs, cgroup, devpts...), the verdict with
// the shortcut is the verdict of statfs(2) itself; and the shortcut is
// taken for the test's own directory when that is on a block device.
func TestPseudoFSOfStatAgrees(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "hooks.hcl")
	if err := os.WriteFile(file, []byte("hook {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := []string{file, dir, "/", "/proc/cpuinfo", "/proc/self/status", "/sys/kernel/mm",
		"/sys/fs/cgroup", "/dev/shm", "/dev/pts", "/run", "/etc/hostname", "/proc/sys/kernel/hostname"}
	pseudo, skipped := 0, 0
	for _, p := range paths {
		fd, err := syscall.Open(p, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err != nil {
			continue
		}
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil {
			syscall.Close(fd)
			t.Fatal(err)
		}
		full, short := pseudoFSOf(fd), pseudoFSOfStat(fd, &st)
		syscall.Close(fd)
		if full != short {
			t.Errorf("%s: statfs says %q, the shortcut %q", p, full, short)
		}
		if full != "" {
			pseudo++
		}
		if onBlockDevice(&st) {
			skipped++
		}
	}
	if pseudo == 0 {
		t.Error("no pseudo file system among the paths: the test proves nothing")
	}
	var st syscall.Stat_t
	if err := syscall.Stat(dir, &st); err != nil {
		t.Fatal(err)
	}
	if onBlockDevice(&st) && skipped == 0 {
		t.Error("the test's directory is on a block device, yet statfs was asked for it")
	}
}
