//go:build windows

package winjob

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Job is a job object whose processes are killed when it is closed (its
// last handle, this one, is closed: by Close, or by the system when the
// process holding it ends). Breakaway is not allowed: a process in it
// that asks to start a child outside it (CREATE_BREAKAWAY_FROM_JOB) is
// refused. Its methods are safe for concurrent use.
type Job struct {
	mu sync.Mutex
	h  windows.Handle // 0 once closed
}

// New creates an unnamed job object that kills its processes when
// closed.
func New() (*Job, error) {
	h, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, fmt.Errorf("creating a job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(h, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(h)
		return nil, fmt.Errorf("setting the job object to kill on close: %w", err)
	}
	return &Job{h: h}, nil
}

// Add puts process pid into the job. The process should have been
// created suspended (CREATE_SUSPENDED) and not yet resumed (Resume):
// what it started before would be outside the job. The caller must hold
// the process (an os.Process not yet waited for) so that pid names it.
func (j *Job) Add(pid int) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.h == 0 {
		return errors.New("the job object is closed")
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return fmt.Errorf("opening the process: %w", err)
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(j.h, h); err != nil {
		return fmt.Errorf("putting the process into a job object: %w", err)
	}
	return nil
}

// Terminate ends every process in the job (nested jobs' included), each
// with exit status code. The job stays open.
func (j *Job) Terminate(code uint32) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.h == 0 {
		return nil // closed: its processes were killed
	}
	return windows.TerminateJobObject(j.h, code)
}

// Close closes the job, which kills what is still in it. Closing it
// again does nothing.
func (j *Job) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.h == 0 {
		return nil
	}
	err := windows.CloseHandle(j.h)
	j.h = 0
	return err
}

// Resume resumes the threads of process pid, created suspended (it has
// one thread, whose handle os/exec does not keep: syscall.StartProcess
// closes pi.Thread).
func Resume(pid int) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("listing threads: %w", err)
	}
	defer windows.CloseHandle(snap)
	var te windows.ThreadEntry32
	te.Size = uint32(unsafe.Sizeof(te))
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != uint32(pid) {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return fmt.Errorf("opening the process's thread: %w", err)
		}
		_, err = windows.ResumeThread(th)
		_ = windows.CloseHandle(th)
		if err != nil {
			return fmt.Errorf("resuming the process's thread: %w", err)
		}
		resumed++
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return fmt.Errorf("listing threads: %w", err)
	}
	if resumed == 0 {
		return errors.New("the process has no thread to resume")
	}
	return nil
}
