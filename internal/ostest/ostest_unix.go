//go:build unix

package ostest

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// Mkfifo makes a FIFO at p that no process writes to or reads from, and
// returns p. It skips the test where FIFOs cannot be made.
func Mkfifo(t testing.TB, p string) string {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip(err)
	}
	return p
}

// Alive reports whether pid runs. A zombie nobody reaped yet counts as
// gone (where /proc or, on macOS, kern.proc shows it).
func Alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	if runtime.GOOS != "linux" {
		return !zombie(pid)
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !os.IsNotExist(err)
	}
	if i := strings.LastIndexByte(string(b), ')'); i >= 0 && i+2 < len(b) {
		return b[i+2] != 'Z'
	}
	return true
}
