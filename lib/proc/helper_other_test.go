//go:build !unix

package proc_test

import "syscall"

func escape(string) *syscall.SysProcAttr { return nil }
