package main

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/daemon"
)

// TestClientNoteNoDaemon: the daemon runs on this platform (Windows
// included, over a named pipe: internal/daemon.TestSupported), so doctor
// says that hookctl-client forwards each call to it; where it would not
// run, doctor says in capitals that every call runs hookctl itself,
// never that a daemon answers.
func TestClientNoteNoDaemon(t *testing.T) {
	if n := clientNote(daemon.Supported()); !strings.Contains(n, "forwards each call to a per-user daemon") || strings.Contains(n, "NO DAEMON") {
		t.Fatalf("here: %q", n)
	}
	n := clientNote(&daemon.UnsupportedError{GOOS: "plan9"})
	if !strings.HasPrefix(n, "NO DAEMON: ") || !strings.Contains(n, "plan9") || strings.Contains(n, "forwards each call") {
		t.Fatalf("plan9 note: %q", n)
	}
}

// TestProgBaseWindows: a Windows command names hookctl.exe (or
// hookctl-client.exe); doctor still knows it for hookctl's.
func TestProgBaseWindows(t *testing.T) {
	for prog, want := range map[string]string{"hookctl.exe": "hookctl", "hookctl-client.EXE": "hookctl-client", "/usr/bin/hookctl": "hookctl", "hookctl.sh": "hookctl.sh"} {
		if got := progBase(prog); got != want {
			t.Errorf("progBase(%q) = %q, want %q", prog, got, want)
		}
	}
	if !isHookctlProgram("hookctl-client.exe") {
		t.Error("hookctl-client.exe is not hookctl's")
	}
}
