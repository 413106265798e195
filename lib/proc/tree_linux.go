package proc

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

// tree finds and kills every process a run started, on Linux. A process
// group is not enough: a hook's descendant can start a session (setsid)
// or a group of its own, and its parent can exit and leave it to init.
// So the kill stops the group, then walks /proc until no new process
// turns up, stopping each process of the run it finds (a stopped process
// cannot fork, and a stopped parent keeps its children's parent link),
// and then kills them all. A process is the run's when it started no
// earlier than the run's program and
//
//   - its parent, process group or session is a process of the run (the
//     program is the first), or
//   - its environment holds the run's token (TokenEnv), inherited from the
//     program across sessions, groups, orphaning and nested runs.
//
// A process that clears its environment and also leaves the session and
// the tree of the run before the kill (two forks and a setsid in
// between) escapes the walk: hard containment needs a cgroup (systemd-run
// --scope, a container).
type tree struct {
	leader int
	prefix []byte // "\x00" + TokenEnv + "="
	token  string
	since  uint64 // the program's start time, in clock ticks after boot
}

func newTree(pid int, token string) *tree {
	t := &tree{leader: pid, prefix: []byte("\x00" + TokenEnv + "="), token: token}
	if st, ok := readStat(pid); ok {
		t.since = st.start
	}
	return t
}

// stat is what the walk reads of /proc/PID/stat.
type stat struct {
	pid, ppid, pgrp, session int
	zombie                   bool
	start                    uint64
}

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
func (t *tree) hasToken(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil || len(b) == 0 {
		return false
	}
	i := bytes.Index(append([]byte{0}, b...), t.prefix)
	if i < 0 {
		return false
	}
	v := b[i+len(t.prefix)-1:]
	if j := bytes.IndexByte(v, 0); j >= 0 {
		v = v[:j]
	}
	for tok := range bytes.SplitSeq(v, []byte(",")) {
		if string(tok) == t.token {
			return true
		}
	}
	return false
}

// scan lists the processes that started no earlier than the run.
func (t *tree) scan() []stat {
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
		if st, ok := readStatInto(pid, buf[:]); ok && st.start >= t.since {
			out = append(out, st)
		}
	}
	return out
}

// kill stops and kills every process of the run, and returns once they
// are gone (or after a bound, for one that will not die).
func (t *tree) kill(cmd *exec.Cmd) {
	_ = syscall.Kill(-t.leader, syscall.SIGSTOP)
	ours := map[int]bool{t.leader: true}
	var stopped []int
	for round := 0; round < 100; round++ {
		found := 0
		procs := t.scan()
		tokenOf := map[int]bool{}
		for changed := true; changed; {
			changed = false
			for _, p := range procs {
				if ours[p.pid] {
					continue
				}
				is := ours[p.ppid] || ours[p.pgrp] || ours[p.session]
				if !is && !p.zombie {
					tok, seen := tokenOf[p.pid]
					if !seen {
						tok = t.hasToken(p.pid)
						tokenOf[p.pid] = tok
					}
					is = tok
				}
				if is {
					ours[p.pid], changed = true, true
					// One that cannot be signalled (another user's, a
					// setuid program) is not waited for.
					if !p.zombie && syscall.Kill(p.pid, syscall.SIGSTOP) == nil {
						stopped = append(stopped, p.pid)
						found++
					}
				}
			}
		}
		if found == 0 {
			break
		}
	}
	_ = syscall.Kill(-t.leader, syscall.SIGKILL)
	for _, pid := range stopped {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	// SIGKILL is delivered, not yet acted on: wait until each is a
	// zombie or gone, so that nothing of the run is still running once
	// Run returns (a one-shot hookctl exits right after).
	deadline := time.Now().Add(2 * time.Second)
	for _, pid := range stopped {
		for time.Now().Before(deadline) {
			if st, ok := readStat(pid); !ok || st.zombie {
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
}
