//go:build linux || darwin

package proc

import (
	"bytes"
	"os/exec"
	"syscall"
	"time"
)

// tree finds and kills every process a run started, on Linux and macOS.
// A process group is not enough: a hook's descendant can start a session
// (setsid) or a group of its own, and its parent can exit and leave it to
// init (launchd on macOS, which has no child subreaper). So the kill
// stops the group, then walks the process table until no new process
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
// --scope, a container) on Linux, and has no equivalent for an
// unprivileged process on macOS.
type tree struct {
	leader int
	token  string
	since  uint64 // the program's start time, in the table's unit
	sys    procTable
}

// procTable is what the walk reads of the system and does to it: /proc
// on Linux, the kern.proc sysctls on macOS, a fake in tests.
type procTable interface {
	// started is pid's start time, comparable with stat.start.
	started(pid int) (uint64, bool)
	// list returns the processes, other than this one and pid 1, that
	// started no earlier than since.
	list(since uint64) []stat
	// hasToken reports whether pid's environment holds TokenEnv with
	// token among its comma-separated values.
	hasToken(pid int, token string) bool
	// gone reports whether pid has exited (a zombie, or no more).
	gone(pid int) bool
	// signal sends sig to pid (a negative pid: to its process group).
	signal(pid int, sig syscall.Signal) error
}

// stat is what the walk knows of a process.
type stat struct {
	pid, ppid, pgrp, session int
	zombie                   bool
	start                    uint64
}

func newTree(pid int, token string) *tree { return newTreeOn(systemTable(), pid, token) }

func newTreeOn(sys procTable, pid int, token string) *tree {
	t := &tree{leader: pid, token: token, sys: sys}
	if start, ok := sys.started(pid); ok {
		t.since = start
	}
	return t
}

// kill stops and kills every process of the run, and returns once they
// are gone (or after a bound, for one that will not die).
func (t *tree) kill(*exec.Cmd) {
	_ = t.sys.signal(-t.leader, syscall.SIGSTOP)
	ours := map[int]bool{t.leader: true}
	var stopped []int
	for round := 0; round < 100; round++ {
		found := 0
		procs := t.sys.list(t.since)
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
						tok = t.sys.hasToken(p.pid, t.token)
						tokenOf[p.pid] = tok
					}
					is = tok
				}
				if is {
					ours[p.pid], changed = true, true
					// One that cannot be signalled (another user's, a
					// setuid program) is not waited for.
					if !p.zombie && t.sys.signal(p.pid, syscall.SIGSTOP) == nil {
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
	_ = t.sys.signal(-t.leader, syscall.SIGKILL)
	for _, pid := range stopped {
		_ = t.sys.signal(pid, syscall.SIGKILL)
	}
	// SIGKILL is delivered, not yet acted on: wait until each is a
	// zombie or gone, so that nothing of the run is still running once
	// Run returns (a one-shot hookctl exits right after).
	deadline := time.Now().Add(2 * time.Second)
	for _, pid := range stopped {
		for time.Now().Before(deadline) {
			if t.sys.gone(pid) {
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// envHasToken reports whether env, an environment as the kernel keeps it
// ("KEY=value" entries each ended by a NUL), holds TokenEnv with token
// among its comma-separated values. The first TokenEnv entry counts, as
// getenv reads it.
func envHasToken(env []byte, token string) bool {
	if len(env) == 0 {
		return false
	}
	prefix := "\x00" + TokenEnv + "="
	i := bytes.Index(append([]byte{0}, env...), []byte(prefix))
	if i < 0 {
		return false
	}
	v := env[i+len(prefix)-1:]
	if j := bytes.IndexByte(v, 0); j >= 0 {
		v = v[:j]
	}
	for tok := range bytes.SplitSeq(v, []byte(",")) {
		if string(tok) == token {
			return true
		}
	}
	return false
}

// signal is kill(2).
func signal(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }
