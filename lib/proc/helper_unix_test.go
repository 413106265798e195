//go:build unix

package proc_test

import "syscall"

func escape(how string) *syscall.SysProcAttr {
	if how == "setsid" {
		return &syscall.SysProcAttr{Setsid: true}
	}
	return &syscall.SysProcAttr{Setpgid: true}
}
