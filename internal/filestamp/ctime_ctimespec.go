//go:build darwin || freebsd || netbsd

package filestamp

import "syscall"

// ctimeOf is the change time of a stat.
func ctimeOf(st *syscall.Stat_t) (sec, nsec int64, ok bool) {
	sec, nsec = st.Ctimespec.Unix()
	return sec, nsec, true
}
