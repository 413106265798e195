//go:build unix

package proc

import (
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// drain copies to w what r, a pipe, holds now, without waiting for more,
// and at most limit bytes.
func drain(r *os.File, w io.Writer, limit int) {
	if r.SetReadDeadline(time.Time{}) != nil {
		return
	}
	rc, err := r.SyscallConn()
	if err != nil {
		return
	}
	buf := make([]byte, 32<<10)
	_ = rc.Read(func(fd uintptr) bool {
		if syscall.SetNonblock(int(fd), true) != nil {
			return true
		}
		for total := 0; total < limit; {
			n, err := syscall.Read(int(fd), buf)
			if n <= 0 || err != nil {
				break // EAGAIN (empty), EOF or an error
			}
			_, _ = w.Write(buf[:n])
			total += n
		}
		return true
	})
}

// pipeStopper stops the copies on the run's pipe ends with deadlines:
// os.Pipe's files are pollable here.
func pipeStopper(in, out, errR *os.File) stopper { return deadlines{in, out, errR} }
