package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
)

// tie ties a process the client starts to the client's own lifetime:
// on Windows a job object the client holds, with kill on close, so that
// a host ending the client (TerminateProcess, which runs no handler)
// ends the process and what it started (leash_windows.go); none
// elsewhere, where a stop signal is passed on instead (newTie returns
// nil). Tests use a fake.
type tie interface {
	// prepare sets up cmd before it starts (Windows: created suspended,
	// so that it runs nothing before it is in the job).
	prepare(cmd *exec.Cmd)
	// add puts the started, not yet running, process into the tie.
	add(p *os.Process) error
	// resume lets the process run.
	resume(p *os.Process) error
	// kill ends every process in the tie at once.
	kill() error
	// release drops the tie once the process has been waited for (what
	// it left behind is killed).
	release()
}

// leash starts the hookctl the client runs itself (runFull) tied to the
// client, and stops it when the call is given up.
type leash struct {
	tie tie // nil: no tie on this system
	say func(format string, a ...any)
	// claim, when set, is called before the hook call's answer is
	// written: false when another (the deadline's block) answers.
	claim func() bool

	mu      sync.Mutex
	tied    bool      // the process is in the tie
	stopped bool      // stop was called
	cmd     *exec.Cmd // the process started, until it is waited for
}

// errGivenUp: the call was given up before the process was let run.
var errGivenUp = errors.New("the call was given up before it ran")

// start starts cmd. A tie that refuses the process (a job object that
// cannot be made or joined) leaves it running untied, as it ran before
// ties existed: it still answers the call, and a stop still ends it
// (passStop, then exec's kill after WaitDelay); only a host's
// TerminateProcess of the client no longer reaches it. A process that
// cannot be let run, or whose call was given up before it was, is
// killed (it ran nothing) and is an error; the caller answers the block.
func (l *leash) start(cmd *exec.Cmd) error {
	if l.tie == nil {
		err := cmd.Start()
		if err == nil {
			l.mu.Lock()
			l.cmd = cmd
			l.mu.Unlock()
		}
		return err
	}
	l.tie.prepare(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	err := l.tie.add(cmd.Process)
	l.mu.Lock()
	l.tied = err == nil
	stopped := l.stopped
	l.mu.Unlock()
	if err != nil {
		l.say("%s runs untied to this process: %v", cmd.Path, err)
	}
	if !stopped {
		err = l.tie.resume(cmd.Process)
		if err == nil {
			l.mu.Lock()
			l.cmd = cmd
			l.mu.Unlock()
			return nil
		}
		err = fmt.Errorf("starting %s: %w", cmd.Path, err)
	} else {
		// Stopped between the start and the tie (cmd.Cancel ran as the
		// process started): a stop passed on then could not reach it.
		err = errGivenUp
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	l.done()
	return err
}

// stop ends the call cmd runs, given up (cmd.Cancel): a tied process is
// killed with everything it started, at once (on Windows no stop can be
// passed on to a process: os.Interrupt cannot be sent); runFull then
// answers the host's block itself, since the killed hookctl did not
// (TerminateJobObject's exit status 1 is neither its answer nor the
// block). Untied, the stop is passed on (passStop).
func (l *leash) stop(cmd *exec.Cmd) error {
	l.mu.Lock()
	l.stopped = true
	tied := l.tied
	l.mu.Unlock()
	if tied {
		return l.tie.kill()
	}
	return passStop(cmd.Process)
}

// done drops the tie once cmd has been waited for.
func (l *leash) done() {
	l.mu.Lock()
	l.cmd = nil
	l.mu.Unlock()
	if l.tie != nil {
		l.tie.release()
	}
}

// abandon stops the process started, if it still runs, as a stop does,
// without waiting for it: the client answers the block itself and exits
// (the host's timeout has come). hookctl, stopped, kills its hooks.
func (l *leash) abandon() {
	l.mu.Lock()
	cmd := l.cmd
	l.mu.Unlock()
	if cmd != nil {
		_ = l.stop(cmd)
	}
}
