package ostest

import "golang.org/x/sys/unix"

// zombie reports whether pid is a zombie (p_stat SZOMB in kern.proc.pid).
func zombie(pid int) bool {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	return err == nil && int(kp.Proc.P_pid) == pid && kp.Proc.P_stat == 5
}
