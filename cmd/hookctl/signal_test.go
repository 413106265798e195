package main

import "testing"

// TestStoppedCode: a one-shot hook call stopped by a signal (a Windows
// console's Ctrl+C reaches hookctl.exe too) exits with the host's block,
// never 0 (allow) nor 1 (a non-blocking error); serve and the daemon
// keep an error's code.
func TestStoppedCode(t *testing.T) {
	for _, sub := range []string{"claude", "hook", "fire"} {
		for _, code := range []int{0, 1, 2, 3} {
			if got := stoppedCode(sub, code); got != exitBlocked {
				t.Errorf("stoppedCode(%s, %d) = %d, want %d", sub, code, got, exitBlocked)
			}
		}
	}
	for _, sub := range []string{"serve", "daemon"} {
		if got := stoppedCode(sub, 0); got != exitBlocked {
			t.Errorf("stoppedCode(%s, 0) = %d", sub, got)
		}
		if got := stoppedCode(sub, 1); got != 1 {
			t.Errorf("stoppedCode(%s, 1) = %d", sub, got)
		}
	}
}
