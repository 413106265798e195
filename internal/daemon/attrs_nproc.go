//go:build aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd

package daemon

import "golang.org/x/sys/unix"

var moreLimits = []struct {
	name string
	res  int
}{{"nproc", unix.RLIMIT_NPROC}}
