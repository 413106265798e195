//go:build !unix && !windows

package daemon

// ProcessAttrs is empty where programs inherit no umask or resource
// limits a caller sets.
func ProcessAttrs() string { return "" }

// ClientProcessAttrs is ProcessAttrs.
func ClientProcessAttrs() string { return "" }
