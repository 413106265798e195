//go:build unix

package daemon

import (
	"bytes"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// limits are the resource limits a call's hooks inherit and that
// ProcessAttrs reports, by name. RLIMIT_NOFILE's soft limit is the one
// the Go runtime raised to the hard limit at start (it restores the
// original for the programs it starts, and no Go program can read it):
// only the hard limit tells callers apart.
var limits = append([]struct {
	name string
	res  int
}{
	{"as", unix.RLIMIT_AS}, {"core", unix.RLIMIT_CORE}, {"cpu", unix.RLIMIT_CPU},
	{"data", unix.RLIMIT_DATA}, {"fsize", unix.RLIMIT_FSIZE},
	{"nofile", unix.RLIMIT_NOFILE}, {"stack", unix.RLIMIT_STACK},
}, moreLimits...)

// ProcessAttrs is what a process passes to the programs it starts besides
// its environment and working directory: its umask and resource limits,
// as text ("umask=022 as=-1:-1 ..."; -1 is unlimited). A daemon serves
// only calls whose ProcessAttrs are its own, so that a call's hooks run
// with the caller's umask and limits, as under hookctl claude.
func ProcessAttrs() string { return processAttrs(umask()) }

// ClientProcessAttrs is ProcessAttrs for a process that makes no file
// while it runs (hookctl-client): it reads the umask by setting it and
// setting it back, a system call, where ProcessAttrs reads
// /proc/self/status (a tenth of a millisecond; the kernel writes the
// whole file). The umask is set to 0777 meanwhile, so that a file made
// in that instant would be made with no permissions, never more.
func ClientProcessAttrs() string {
	m := unix.Umask(0o777)
	unix.Umask(m)
	return processAttrs(m)
}

func processAttrs(mask int) string {
	b := append([]byte("umask="), strconv.FormatUint(uint64(mask), 8)...)
	for _, l := range limits {
		var r unix.Rlimit
		b = append(b, ' ')
		b = append(b, l.name...)
		b = append(b, '=')
		if err := unix.Getrlimit(l.res, &r); err != nil {
			b = append(b, '?')
			continue
		}
		b = appendLimit(b, uint64(r.Cur))
		b = append(b, ':')
		b = appendLimit(b, uint64(r.Max))
	}
	return string(b)
}

func appendLimit(b []byte, v uint64) []byte {
	if v == uint64(unix.RLIM_INFINITY) {
		return append(b, "-1"...)
	}
	return strconv.AppendUint(b, v, 10)
}

// umask is the process's file mode creation mask: read from
// /proc/self/status where it is there (Linux 4.7 on), else set and set
// back, which a process does before it starts threads that create files.
func umask() int {
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		if i := bytes.Index(b, []byte("\nUmask:")); i >= 0 {
			v := b[i+len("\nUmask:"):]
			if j := bytes.IndexByte(v, '\n'); j >= 0 {
				v = v[:j]
			}
			if m, err := strconv.ParseUint(string(bytes.TrimSpace(v)), 8, 32); err == nil {
				return int(m)
			}
		}
	}
	m := unix.Umask(0o22)
	unix.Umask(m)
	return m
}
