//go:build !unix && !windows

package proc

import (
	"io"
	"os"
	"os/exec"
)

func setProcessGroup(*exec.Cmd) {}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// drain does nothing where pipes cannot be read without waiting: what the
// copying goroutines read before they stopped is the output.
func drain(*os.File, io.Writer, int) {}

// pipeStopper stops the copies on the run's pipe ends with deadlines,
// where the system's pipes support them.
func pipeStopper(in, out, errR *os.File) stopper { return deadlines{in, out, errR} }
