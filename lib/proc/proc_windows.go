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

// pipeStopper stops the copies on the run's pipe ends by cancelling
// their pending reads and writes. os.Pipe's files are synchronous
// anonymous pipes, made with pollable=false (GOROOT/src/os/file_windows.go,
// Pipe: newFile(..., kindPipe, false)), so that internal/poll's FD is
// blocking and SetReadDeadline returns ErrNoDeadline
// (internal/poll/fd_poll_runtime.go, setDeadline: not pollable): a copy
// would wait for EOF for as long as any process holds the pipe's other
// end. A blocking read is a ReadFile with no OVERLAPPED on the copy's
// thread (fd_windows.go, execIO and FD.overlapped); CancelIoEx with no
// OVERLAPPED cancels every operation the process has pending on the
// handle, synchronous ones of other threads included, and the ReadFile
// or WriteFile returns ERROR_OPERATION_ABORTED. Go's own FD.Close does
// exactly this for pipes (fd_windows.go, Close: "if fd.kind == kindPipe
// { syscall.CancelIoEx(fd.Sysfd, nil) }"), tested on Windows by
// os.TestClosedPipeRaceRead/Write. Close itself is not used: it waits
// for the pending operation to end, and one that started just after its
// CancelIoEx would not. The cancel goes through RawConn.Control, which
// holds the file open: a file already closed (stdin, once written) is
// skipped, never a handle number that may have been reused.
func pipeStopper(in, out, errR *os.File) stopper {
	var c cancelIO
	for _, f := range []*os.File{in, out, errR} {
		if rc, err := f.SyscallConn(); err == nil {
			c = append(c, rc)
		}
	}
	return c
}

// cancelIO cancels the I/O pending on each file (CancelIoEx).
type cancelIO []syscall.RawConn

func (c cancelIO) stop() {
	for _, rc := range c {
		_ = rc.Control(func(h uintptr) {
			// ERROR_NOT_FOUND: nothing pending.
			_ = windows.CancelIoEx(windows.Handle(h), nil)
		})
	}
}
