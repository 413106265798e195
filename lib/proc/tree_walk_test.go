//go:build linux || darwin

package proc

import (
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// fakeTable is a process table in memory: the walk of a run's processes
// (tree.kill) is tested on it as the macOS and Linux tables feed it.
type fakeTable struct {
	procs map[int]*stat
	env   map[int]string // pid: its environment, NUL-separated
	// forkOnStop: when a pid is stopped, the child it forked just
	// before appears.
	forkOnStop map[int]stat
	// refuse: pids a signal cannot reach (another user's).
	refuse  map[int]bool
	signals []string
}

func (f *fakeTable) started(pid int) (uint64, bool) {
	p, ok := f.procs[pid]
	if !ok {
		return 0, false
	}
	return p.start, true
}

func (f *fakeTable) list(since uint64) []stat {
	var out []stat
	for _, p := range f.procs {
		if p.pid > 1 && p.start >= since {
			out = append(out, *p)
		}
	}
	slices.SortFunc(out, func(a, b stat) int { return a.pid - b.pid })
	return out
}

func (f *fakeTable) hasToken(pid int, token string) bool {
	return envHasToken([]byte(f.env[pid]), token)
}

func (f *fakeTable) gone(pid int) bool {
	p, ok := f.procs[pid]
	return !ok || p.zombie
}

func (f *fakeTable) signal(pid int, sig syscall.Signal) error {
	name := map[syscall.Signal]string{syscall.SIGSTOP: "STOP", syscall.SIGKILL: "KILL"}[sig]
	f.signals = append(f.signals, name+" "+strconv.Itoa(pid))
	if f.refuse[pid] {
		return syscall.EPERM
	}
	var hit []*stat
	for _, p := range f.procs {
		if p.pid == pid || (pid < 0 && p.pgrp == -pid) {
			hit = append(hit, p)
		}
	}
	if len(hit) == 0 {
		return syscall.ESRCH
	}
	for _, p := range hit {
		switch sig {
		case syscall.SIGKILL:
			p.zombie = true
		case syscall.SIGSTOP:
			if c, ok := f.forkOnStop[p.pid]; ok {
				delete(f.forkOnStop, p.pid)
				f.procs[c.pid] = &c
			}
		}
	}
	return nil
}

// TestTreeFindsEscapedDescendants: from a process table alone (no
// subreaper, as on macOS), the kill finds every descendant of the run
// that left its process group: by parent, by session, by the run's token
// after it was orphaned to launchd, and a child forked while the walk
// ran; it leaves alone what started before the run, what only looks like
// the token, and what is unrelated; it waits for none it cannot signal.
func TestTreeFindsEscapedDescendants(t *testing.T) {
	const token = "tok123"
	ps := []stat{
		{pid: 50, ppid: 7, pgrp: 50, session: 10, start: 900},    // started before the run, with the token
		{pid: 100, ppid: 7, pgrp: 100, session: 10, start: 1000}, // the program, its own group
		{pid: 101, ppid: 100, pgrp: 100, session: 10, start: 1001},
		{pid: 102, ppid: 101, pgrp: 102, session: 102, start: 1002}, // setsid
		{pid: 103, ppid: 1, pgrp: 103, session: 102, start: 1003},   // orphaned, same session
		{pid: 104, ppid: 1, pgrp: 104, session: 104, start: 1004},   // orphaned, new session, token
		{pid: 105, ppid: 1, pgrp: 105, session: 105, start: 1005},   // unrelated
		{pid: 106, ppid: 104, pgrp: 104, session: 104, start: 1006}, // child of a token holder
		{pid: 107, ppid: 1, pgrp: 107, session: 107, start: 1007},   // nested run's token list
		{pid: 108, ppid: 1, pgrp: 108, session: 108, start: 1008},   // a token that only starts alike
		{pid: 110, ppid: 100, pgrp: 110, session: 10, zombie: true, start: 1010},
		{pid: 111, ppid: 102, pgrp: 111, session: 102, start: 1011}, // another user's (setuid)
		{pid: 112, ppid: 1, pgrp: 112, session: 112, start: 1012},   // token in an argument only
	}
	f := &fakeTable{procs: map[int]*stat{}, refuse: map[int]bool{111: true}}
	for i := range ps {
		f.procs[ps[i].pid] = &ps[i]
	}
	f.env = map[int]string{
		50:  "HOOKCTL_RUN=" + token + "\x00",
		104: "PATH=/bin\x00HOOKCTL_RUN=" + token + "\x00",
		105: "PATH=/bin\x00",
		107: "HOOKCTL_RUN=outer," + token + "\x00HOME=/h\x00",
		108: "HOOKCTL_RUN=" + token + "x\x00",
		112: string(procargs2(t, []string{"sleep", "HOOKCTL_RUN=" + token}, []string{"PATH=/bin"})),
	}
	f.env[112] = string(procargsEnv([]byte(f.env[112])))
	f.forkOnStop = map[int]stat{103: {pid: 109, ppid: 103, pgrp: 109, session: 109, start: 1009}}

	tr := newTreeOn(f, 100, token)
	if tr.since != 1000 {
		t.Fatalf("since = %d", tr.since)
	}
	tr.kill(nil)

	killed := map[int]bool{}
	for _, s := range f.signals {
		if v, ok := strings.CutPrefix(s, "KILL "); ok {
			pid, _ := strconv.Atoi(v)
			killed[pid] = true
		}
	}
	if f.signals[0] != "STOP -100" {
		t.Errorf("first signal %q, want the group stopped", f.signals[0])
	}
	for _, pid := range []int{101, 102, 103, 104, 106, 107, 109} {
		if !killed[pid] || !f.procs[pid].zombie {
			t.Errorf("pid %d of the run survived: %v", pid, f.signals)
		}
	}
	for _, pid := range []int{50, 105, 108, 112} {
		if killed[pid] || f.procs[pid].zombie {
			t.Errorf("pid %d, not of the run, was killed: %v", pid, f.signals)
		}
	}
	if killed[111] {
		t.Errorf("a process that refused the stop was waited for and killed one by one: %v", f.signals)
	}
	if !killed[-100] {
		t.Errorf("the group was not killed: %v", f.signals)
	}
}

// procargs2 is a kern.procargs2 buffer as macOS gives it.
func procargs2(t *testing.T, argv, env []string) []byte {
	t.Helper()
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(argv)))
	b = append(b, "/bin/"+argv[0]...)
	b = append(b, 0, 0, 0, 0) // the path's NUL and padding
	for _, a := range argv {
		b = append(append(b, a...), 0)
	}
	for _, e := range env {
		b = append(append(b, e...), 0)
	}
	return append(b, 0, 0, 0, 0, 0, 0, 0, 0)
}

// TestProcargsEnv: the environment of a kern.procargs2 buffer, after the
// arguments (a token given as an argument is not the environment's), and
// nothing from a buffer that is cut short.
func TestProcargsEnv(t *testing.T) {
	b := procargs2(t, []string{"sh", "-c", "HOOKCTL_RUN=tok"}, []string{"PATH=/bin", "HOOKCTL_RUN=a,tok"})
	env := procargsEnv(b)
	if !envHasToken(env, "tok") || !envHasToken(env, "a") || envHasToken(env, "to") {
		t.Fatalf("env %q", env)
	}
	if e := procargsEnv(procargs2(t, []string{"x", "HOOKCTL_RUN=tok"}, []string{"PATH=/bin"})); envHasToken(e, "tok") {
		t.Fatalf("an argument read as the environment: %q", e)
	}
	for n := range len(b) - 30 {
		if e := procargsEnv(b[:n]); envHasToken(e, "tok") {
			t.Fatalf("a buffer cut at %d holds the token", n)
		}
	}
	huge := binary.LittleEndian.AppendUint32(nil, 1<<31)
	if e := procargsEnv(append(huge, "/bin/x\x00a\x00HOOKCTL_RUN=tok\x00"...)); e != nil {
		t.Fatalf("an argument count past the buffer: %q", e)
	}
	if procargsEnv(nil) != nil || procargsEnv([]byte{1, 0}) != nil {
		t.Fatal("a short buffer")
	}
}

// TestStartMicros: macOS start times compare in microseconds.
func TestStartMicros(t *testing.T) {
	if startMicros(2, 5) != 2_000_005 || startMicros(1, 999_999) >= startMicros(2, 0) || startMicros(-1, 0) != 0 {
		t.Fatal("start times")
	}
}
