//go:build unix

package daemon

// unixSockets says whether the daemon's unix sockets, with their caller
// checked, are available: yes (Supported).
const unixSockets = true
