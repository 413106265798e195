package proc

import (
	"errors"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// szomb is SZOMB of <sys/proc.h>: p_stat of a zombie.
const szomb = 5

// darwinProcs is the process table of the kern.proc sysctls: every
// process's parent, group and start time from kern.proc.all, its session
// from getsid(2), its environment from kern.procargs2.
type darwinProcs struct{}

func systemTable() procTable { return darwinProcs{} }

// statOf is what the walk needs of a kinfo_proc (session apart).
func statOf(kp *unix.KinfoProc) stat {
	return stat{
		pid:     int(kp.Proc.P_pid),
		ppid:    int(kp.Eproc.Ppid),
		pgrp:    int(kp.Eproc.Pgid),
		session: -1,
		zombie:  kp.Proc.P_stat == szomb,
		start:   startMicros(int64(kp.Proc.P_starttime.Sec), int64(kp.Proc.P_starttime.Usec)),
	}
}

func (darwinProcs) started(pid int) (uint64, bool) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || int(kp.Proc.P_pid) != pid {
		return 0, false
	}
	return statOf(kp).start, true
}

func (darwinProcs) list(since uint64) []stat {
	kps, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var out []stat
	for i := range kps {
		st := statOf(&kps[i])
		if st.pid <= 1 || st.pid == self || st.start < since {
			continue
		}
		if sid, err := unix.Getsid(st.pid); err == nil {
			st.session = sid
		}
		out = append(out, st)
	}
	return out
}

// hasToken reads pid's environment from kern.procargs2, which the kernel
// gives for this user's processes only. EIO is a process in the middle of
// a fork, exec or exit: it is asked again, a few times.
func (darwinProcs) hasToken(pid int, token string) bool {
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	for try := 0; try < 3 && errors.Is(err, unix.EIO); try++ {
		time.Sleep(time.Millisecond)
		b, err = unix.SysctlRaw("kern.procargs2", pid)
	}
	if err != nil {
		return false
	}
	return envHasToken(procargsEnv(b), token)
}

func (darwinProcs) gone(pid int) bool {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	return err != nil || int(kp.Proc.P_pid) != pid || kp.Proc.P_stat == szomb
}

func (darwinProcs) signal(pid int, sig syscall.Signal) error { return signal(pid, sig) }
