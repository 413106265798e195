package proc

import (
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The process-wide facts the orphan sweep needs. They are the process's
// own (a subreaper is one per process, and so are its children), which
// is why they are package state rather than a value a caller holds.
var (
	// subreaper is set once BecomeSubreaper succeeded.
	subreaper atomic.Bool
	// runsMu guards runs, and is held across a program's start, so that
	// a sweep never takes a program just started for an orphan.
	runsMu sync.Mutex
	// runs maps the pid of each running program to its start time.
	runs = map[int]uint64{}
)

// BecomeSubreaper makes the process the reaper of its orphaned
// descendants (PR_SET_CHILD_SUBREAPER): a hook's process that double
// forks or starts a session, and drops TokenEnv, is re-parented to this
// process instead of init, and Run kills it with the rest of its run.
// Call it once, early, in a process that starts no children but through
// Run: every child of the process that is not a running program of Run
// is taken for an orphan of a run.
func BecomeSubreaper() error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return err
	}
	subreaper.Store(true)
	return nil
}

// startRun starts cmd's program with runsMu held and records it.
func startRun(start func() error, pid func() int) error {
	if !subreaper.Load() {
		return start()
	}
	runsMu.Lock()
	defer runsMu.Unlock()
	if err := start(); err != nil {
		return err
	}
	p := pid()
	st, _ := readStat(p)
	runs[p] = st.start
	return nil
}

// endRun kills the orphans of finished runs and forgets the program pid.
// An orphan (a child of this process that is not a running program) is
// killed when it started before every other running program did: it then
// belongs to this run or to one that has ended. One started later waits
// for the last of the runs it may belong to.
func endRun(pid int) {
	if !subreaper.Load() {
		return
	}
	runsMu.Lock()
	defer runsMu.Unlock()
	sweepOrphans(pid)
	delete(runs, pid)
}

// sweepOrphans stops, kills and reaps the orphans that may be killed, in
// rounds: an orphan's own children are re-parented to this process when it
// dies. Called with runsMu held.
func sweepOrphans(self int) {
	limit := ^uint64(0)
	for pid, since := range runs {
		if pid != self && since < limit {
			limit = since
		}
	}
	me := os.Getpid()
	var buf [512]byte
	for round := 0; round < 50; round++ {
		d, err := os.Open("/proc")
		if err != nil {
			return
		}
		names, _ := d.Readdirnames(-1)
		d.Close()
		var found []int
		for _, n := range names {
			pid := atoi([]byte(n))
			if pid <= 1 || pid == me {
				continue
			}
			if _, running := runs[pid]; running {
				continue
			}
			st, ok := readStatInto(pid, buf[:])
			if !ok || st.ppid != me {
				continue
			}
			if st.zombie {
				reap(pid)
				continue
			}
			if st.start >= limit {
				continue
			}
			_ = syscall.Kill(pid, syscall.SIGSTOP)
			found = append(found, pid)
		}
		if len(found) == 0 {
			return
		}
		for _, pid := range found {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		deadline := time.Now().Add(2 * time.Second)
		for _, pid := range found {
			for !reap(pid) && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
		}
	}
}

// reap collects pid's exit status if it has one (it is this process's
// child); it reports whether pid is gone.
func reap(pid int) bool {
	var ws syscall.WaitStatus
	got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
	return got == pid || err != nil
}
