//go:build windows

package ostest

import (
	"testing"

	"golang.org/x/sys/windows"
)

// Mkfifo skips the test: Windows has no FIFOs in the file system.
func Mkfifo(t testing.TB, p string) string {
	t.Helper()
	t.Skip("no FIFOs on windows")
	return p
}

// Alive reports whether pid runs: its process can be opened and has no
// exit code yet.
func Alive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	if windows.GetExitCodeProcess(h, &code) != nil {
		return false
	}
	const stillActive = 259
	return code == stillActive
}
