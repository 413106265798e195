//go:build windows

package winjob_test

import (
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"

	"github.com/hookctl/hookctl/lib/proc/winjob"
)

// A program started suspended, put into a job this process holds, then
// resumed: it and everything it starts end when this process ends, or
// when the job is terminated.
func Example() {
	job, err := winjob.New()
	if err != nil {
		panic(err)
	}
	defer job.Close()
	cmd := exec.Command("cmd.exe", "/c", "exit 0")
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED}
	if err := cmd.Start(); err != nil {
		panic(err)
	}
	if err := job.Add(cmd.Process.Pid); err != nil {
		panic(err)
	}
	if err := winjob.Resume(cmd.Process.Pid); err != nil {
		panic(err)
	}
	_ = cmd.Wait()
}
