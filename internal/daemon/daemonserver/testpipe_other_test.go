//go:build !windows

package daemonserver

import "testing"

func testPipe(t *testing.T) string {
	t.Fatal("named pipes are Windows'")
	return ""
}
