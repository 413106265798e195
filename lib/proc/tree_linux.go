package proc

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

// linuxProcs is the process table of /proc.
type linuxProcs struct{}

func systemTable() procTable { return linuxProcs{} }

func (linuxProcs) started(pid int) (uint64, bool) {
	st, ok := readStat(pid)
	return st.start, ok
}

func (linuxProcs) signal(pid int, sig syscall.Signal) error { return signal(pid, sig) }

func (linuxProcs) gone(pid int) bool {
	st, ok := readStat(pid)
	return !ok || st.zombie
}

// readStat reads /proc/PID/stat.
func readStat(pid int) (stat, bool) {
	var buf [512]byte
	return readStatInto(pid, buf[:])
}

// readStatInto reads /proc/PID/stat with buf, without allocating: the
// walk reads it for every process on the machine.
func readStatInto(pid int, buf []byte) (stat, bool) {
	var path [32]byte
	p := append(strconv.AppendInt(append(path[:0], "/proc/"...), int64(pid), 10), "/stat"...)
	fd, err := syscall.Open(unsafeString(p), syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return stat{}, false
	}
	n, err := syscall.Read(fd, buf)
	syscall.Close(fd)
	if err != nil || n <= 0 {
		return stat{}, false
	}
	b := buf[:n]
	// PID (COMM) STATE PPID PGRP SESSION ...; COMM may hold spaces and
	// parentheses, so the fields start after the last ')'. The start
	// time is the 20th field after it.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return stat{}, false
	}
	b = b[i+2:]
	st := stat{pid: pid, zombie: b[0] == 'Z' || b[0] == 'X'}
	for field := 0; field <= 19; field++ {
		j := bytes.IndexByte(b, ' ')
		if j < 0 {
			if field < 19 {
				return stat{}, false
			}
			j = len(b)
		}
		v := b[:j]
		switch field {
		case 1:
			st.ppid = atoi(v)
		case 2:
			st.pgrp = atoi(v)
		case 3:
			st.session = atoi(v)
		case 19:
			st.start = uint64(atoi(bytes.TrimSpace(v)))
		}
		if j < len(b) {
			b = b[j+1:]
		}
	}
	return st, true
}

// atoi reads a decimal number without allocating (0 when it is none).
func atoi(b []byte) int {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// unsafeString is b's bytes as a string, for a path only read by the
// system call it is given to.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// hasToken reports whether pid's environment holds the run's token.
func (linuxProcs) hasToken(pid int, token string) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	return envHasToken(b, token)
}

// list lists the processes that started no earlier than since.
func (linuxProcs) list(since uint64) []stat {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	self := os.Getpid()
	var out []stat
	var buf [512]byte
	for _, n := range names {
		pid := atoi([]byte(n))
		if pid <= 1 || pid == self {
			continue
		}
		if st, ok := readStatInto(pid, buf[:]); ok && st.start >= since {
			out = append(out, st)
		}
	}
	return out
}
