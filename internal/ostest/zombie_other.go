//go:build unix && !darwin

package ostest

// zombie reports whether pid is a zombie where Alive has no /proc to
// read: it cannot tell.
func zombie(int) bool { return false }
