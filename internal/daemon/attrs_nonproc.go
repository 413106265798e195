//go:build unix && !(aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package daemon

var moreLimits []struct {
	name string
	res  int
}
