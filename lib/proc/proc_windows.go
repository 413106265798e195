//go:build windows

package proc

import (
	"io"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"
)

// setProcessGroup starts the program suspended, in a console process
// group of its own (a Ctrl+C meant for hookctl's console is not its):
// contain puts it into the run's job object before it runs a single
// instruction, so that nothing it starts is outside the job.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED | syscall.CREATE_NEW_PROCESS_GROUP}
}

// killGroup kills the program's own process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// drain does nothing: Windows pipes cannot be read without waiting; what
// the copying goroutines read before they stopped is the output.
func drain(*os.File, io.Writer, int) {}
