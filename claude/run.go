package claude

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// outputGrace is how long a command hook's output is still read after the
// hook's own process exited: output its children write late is kept if it
// comes by then. A child that holds the pipes longer (a detached
// background job) does not delay the answer: the process group is killed
// and what was printed is used.
const outputGrace = 250 * time.Millisecond

// drainMax bounds what is read, without waiting, from an output pipe when
// reading stops: enough for the cap and a full pipe buffer.
const drainMax = MaxHookOutput + 1<<16

// runResult is what one run of a command hook produced.
type runResult struct {
	// code is the hook process's exit status (-1: killed by a signal).
	code           int
	stdout, stderr []byte
}

// errStart is a program that could not be started.
type startError struct{ err error }

func (e *startError) Error() string { return e.err.Error() }
func (e *startError) Unwrap() error { return e.err }

// runCommand runs argv in its own process group with stdin written to it.
// The hook's own process decides: when it exits before deadline (none when
// zero) and before ctx ends, its exit status and what it printed are the
// result, read until its output pipes close or outputGrace passes,
// whichever comes first; children still holding the pipes are killed with
// the group, and reading stops. When the deadline passes first the group
// is killed and the error is context.DeadlineExceeded; when ctx ends
// first, ctx's error.
func runCommand(ctx context.Context, deadline time.Time, argv []string, dir string, env []string, stdin []byte) (runResult, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	setProcessGroup(cmd)

	// The pipes are ours rather than exec's: exec's Wait waits for its
	// copying goroutines, that is for every process holding a pipe, and
	// its WaitDelay cannot tell the hook's exit from its timeout.
	var files []*os.File // closed on return
	defer func() {
		for _, f := range files {
			_ = f.Close()
		}
	}()
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	inR, inW, err := pipe()
	if err != nil {
		return runResult{}, err
	}
	outR, outW, err := pipe()
	if err != nil {
		return runResult{}, err
	}
	errR, errW, err := pipe()
	if err != nil {
		return runResult{}, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := cmd.Start(); err != nil {
		return runResult{}, &startError{err: err}
	}
	// The child has its copies; the parent keeps only its own ends, so
	// that EOF comes when the last process holding the pipe is gone.
	_ = inR.Close()
	_ = outW.Close()
	_ = errW.Close()

	stdout, stderr := &capped{max: MaxHookOutput}, &capped{max: MaxHookOutput}
	var wg sync.WaitGroup
	outDone, errDone := make(chan struct{}), make(chan struct{})
	wg.Add(3)
	go func() {
		defer wg.Done()
		_, _ = inW.Write(stdin) // an error: the hook did not read it all
		_ = inW.Close()
	}()
	read := func(r *os.File, w *capped, done chan struct{}) {
		defer wg.Done()
		defer close(done)
		_, _ = io.Copy(w, r)
	}
	go read(outR, stdout, outDone)
	go read(errR, stderr, errDone)

	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	var timer <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		timer = t.C
	}
	var runErr error
	select {
	case <-exited:
	case <-ctx.Done():
		runErr = ctx.Err()
	case <-timer:
		runErr = context.DeadlineExceeded
	}
	if runErr != nil {
		select {
		case <-exited:
			// It exited as time ran out: its exit stands.
			runErr = nil
		default:
			killGroup(cmd)
			<-exited
		}
	}
	if runErr == nil {
		// The hook exited: read its output until the pipes close, for a
		// short grace at most.
		grace := time.NewTimer(outputGrace)
		for outDone != nil || errDone != nil {
			select {
			case <-outDone:
				outDone = nil
			case <-errDone:
				errDone = nil
			case <-grace.C:
				outDone, errDone = nil, nil
			}
		}
		grace.Stop()
	}
	// Children left in the group are stopped: they outlived the hook.
	killGroup(cmd)
	// Stop the copying goroutines (a pipe still held by a process out of
	// the group never reaches EOF), then take what is already in the pipes
	// without waiting: nothing the hook printed before it exited is lost.
	now := time.Now()
	_ = inW.SetWriteDeadline(now)
	_ = outR.SetReadDeadline(now)
	_ = errR.SetReadDeadline(now)
	wg.Wait()
	if runErr != nil {
		return runResult{code: -1}, runErr
	}
	drain(outR, stdout)
	drain(errR, stderr)
	return runResult{code: cmd.ProcessState.ExitCode(), stdout: stdout.buf.Bytes(), stderr: stderr.buf.Bytes()}, nil
}

// capped keeps the first max bytes written and drops the rest.
type capped struct {
	max int
	buf bytes.Buffer
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
