//go:build windows

package main

import (
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"

	"github.com/hookctl/hookctl/lib/proc/winjob"
)

// newTie returns a job object tie: the hookctl.exe the client runs
// itself is created suspended, put into a job the client holds with
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, then resumed. When the client ends
// (a host's TerminateProcess included) the system closes its handles,
// the job with them, and hookctl.exe and everything it started are
// killed: hookctl.exe's hooks too, whose own jobs are nested in this one
// (Windows 8 and later), instead of running on for an event the host
// gave up on.
func newTie() tie { return &jobTie{} }

type jobTie struct{ job *winjob.Job }

// prepare creates the process suspended. It stays in the console's
// process group (no CREATE_NEW_PROCESS_GROUP): the console's Ctrl+C
// reaches it as it reaches the client.
func (j *jobTie) prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED
}

func (j *jobTie) add(p *os.Process) error {
	job, err := winjob.New()
	if err != nil {
		return err
	}
	if err := job.Add(p.Pid); err != nil {
		_ = job.Close()
		return err
	}
	j.job = job
	return nil
}

func (j *jobTie) resume(p *os.Process) error { return winjob.Resume(p.Pid) }

// kill terminates the job's processes with exit status 1, the status
// TerminateProcess gives os.Process.Kill's victims.
func (j *jobTie) kill() error {
	if j.job == nil {
		return nil
	}
	return j.job.Terminate(1)
}

func (j *jobTie) release() {
	if j.job != nil {
		_ = j.job.Close()
	}
}
