//go:build linux || openbsd

package filestamp

import "syscall"

// ctimeOf is the change time of a stat.
func ctimeOf(st *syscall.Stat_t) (sec, nsec int64, ok bool) {
	sec, nsec = st.Ctim.Unix()
	return sec, nsec, true
}
