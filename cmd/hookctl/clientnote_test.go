package main

import (
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/daemon"
)

// TestClientNoteNoDaemon: where the daemon is not supported (Windows),
// doctor says in capitals that every hookctl-client call runs hookctl
// itself, never that a daemon answers.
func TestClientNoteNoDaemon(t *testing.T) {
	n := clientNote(&daemon.UnsupportedError{GOOS: "windows"})
	if !strings.HasPrefix(n, "NO DAEMON: ") || !strings.Contains(n, "windows") || strings.Contains(n, "forwards each call") {
		t.Fatalf("windows note: %q", n)
	}
	if n := clientNote(nil); !strings.Contains(n, "forwards each call to a per-user daemon") {
		t.Fatalf("unix note: %q", n)
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
