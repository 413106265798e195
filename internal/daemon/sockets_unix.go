//go:build unix

package daemon

import (
	"os"
	"path/filepath"
	"strings"
)

// callerChecked says whether the daemon's transport, with its caller
// checked, is available: yes, unix sockets (Supported).
const callerChecked = true

// socketPath is the socket whose key is key in the directory dir.
func socketPath(dir, key string) string { return filepath.Join(dir, key+".sock") }

// osDir is Dir's answer where it is not a directory: none here.
func osDir() (string, bool, error) { return "", false, nil }

// live counts the daemons that answer on the sockets in dir (sockets a
// daemon left behind when it was killed are not counted).
func live(dir string) int {
	// Listed, not globbed: dir is a name ($TMPDIR may hold [ or *).
	entries, _ := os.ReadDir(dir)
	n := 0
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sock") && reachable(filepath.Join(dir, e.Name())) {
			n++
		}
	}
	return n
}
