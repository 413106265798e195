//go:build windows

package proc

import (
	"errors"
	"fmt"
	"os/exec"
	"unsafe"

	"golang.org/x/sys/windows"
)

// tree is the run's job object: every process the program starts is in
// it (a job's processes cannot leave it unless the job allows breakaway,
// which this one does not), and killing the run terminates the job.
type tree struct {
	job windows.Handle
}

func newTree(int, string) *tree { return &tree{} }

// kill terminates every process of the job and closes it (the job also
// kills what is left when its last handle closes), then the program's own
// process, should contain have failed before the job held it.
func (t *tree) kill(cmd *exec.Cmd) {
	if t.job != 0 {
		_ = windows.TerminateJobObject(t.job, 1)
		_ = windows.CloseHandle(t.job)
		t.job = 0
	}
	killGroup(cmd)
}

// contain puts the program, started suspended (setProcessGroup), into a
// new job object that kills its processes when closed, then lets it run.
// An error leaves the program suspended and outside any job of the run:
// the caller kills it.
func contain(cmd *exec.Cmd, t *tree) error {
	job, err := newJob()
	if err != nil {
		return err
	}
	pid := uint32(cmd.Process.Pid)
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err != nil {
		_ = windows.CloseHandle(job)
		return fmt.Errorf("opening the hook's process: %w", err)
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(job, h); err != nil {
		_ = windows.CloseHandle(job)
		return fmt.Errorf("putting the hook's process into a job object: %w", err)
	}
	t.job = job
	return resume(pid)
}

// newJob creates an unnamed job object whose processes are killed when
// its last handle is closed.
func newJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("creating a job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(job)
		return 0, fmt.Errorf("setting the job object to kill on close: %w", err)
	}
	return job, nil
}

// resume resumes the threads of process pid (a process created suspended
// has one, whose handle os/exec does not keep).
func resume(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("listing threads: %w", err)
	}
	defer windows.CloseHandle(snap)
	var te windows.ThreadEntry32
	te.Size = uint32(unsafe.Sizeof(te))
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return fmt.Errorf("opening the hook's thread: %w", err)
		}
		_, err = windows.ResumeThread(th)
		_ = windows.CloseHandle(th)
		if err != nil {
			return fmt.Errorf("resuming the hook's thread: %w", err)
		}
		resumed++
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return fmt.Errorf("listing threads: %w", err)
	}
	if resumed == 0 {
		return errors.New("the hook's process has no thread to resume")
	}
	return nil
}
