//go:build unix && !linux && !darwin

package proc

import (
	"os/exec"
	"syscall"
)

// killGroup kills the process group led by cmd's process: where there is
// no /proc to walk, the group is what a run can end.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
