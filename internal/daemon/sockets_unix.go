//go:build unix

package daemon

import "path/filepath"

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
	socks, _ := filepath.Glob(filepath.Join(dir, "*.sock"))
	n := 0
	for _, s := range socks {
		if reachable(s) {
			n++
		}
	}
	return n
}
