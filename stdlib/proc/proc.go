package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Defaults.
const (
	DefaultMaxOutput = 1 << 20 // per stream
	// waitDelay bounds how long Run waits for output pipes after the
	// process group was killed.
	waitDelay = 2 * time.Second
)

// Spec describes one run.
type Spec struct {
	// Argv is the program and its arguments; Argv[0] is looked up in PATH
	// when it has no slash.
	Argv []string
	// Dir is the working directory ("" = the current one).
	Dir string
	// Env is the whole environment ("KEY=value"); nil inherits the
	// process's.
	Env []string
	// Stdin is written to the program's standard input.
	Stdin []byte
	// MaxOutput bounds what is kept of stdout and of stderr, each
	// (DefaultMaxOutput when 0); the rest is read and dropped.
	MaxOutput int
}

// Result is what a run produced.
type Result struct {
	// ExitCode is the exit status, or -1 when the program did not exit
	// normally (killed, could not start).
	ExitCode int
	Stdout   []byte
	Stderr   []byte
	// Truncated reports that output went past MaxOutput.
	Truncated bool
	// TimedOut reports that the context ended the run (deadline or
	// cancellation) and the process group was killed.
	TimedOut bool
	Duration time.Duration
}

// StartError means the program could not be started at all (not found,
// not executable): it never ran, so it decided nothing.
type StartError struct {
	Argv0 string
	Err   error
}

func (e *StartError) Error() string { return fmt.Sprintf("cannot run %s: %v", e.Argv0, e.Err) }

// Unwrap returns the cause.
func (e *StartError) Unwrap() error { return e.Err }

// Run runs the program and waits for it, its output or ctx. The error is
// a *StartError when the program could not start, ctx's error when ctx
// ended the run (Result.TimedOut is then true), and nil otherwise — a
// non-zero exit status is not an error, it is in Result.ExitCode.
func Run(ctx context.Context, s Spec) (Result, error) {
	if len(s.Argv) == 0 || s.Argv[0] == "" {
		return Result{ExitCode: -1}, &StartError{Argv0: "", Err: errors.New("empty command")}
	}
	max := s.MaxOutput
	if max <= 0 {
		max = DefaultMaxOutput
	}
	cmd := exec.Command(s.Argv[0], s.Argv[1:]...)
	cmd.Dir = s.Dir
	cmd.Env = s.Env
	if s.Stdin != nil {
		cmd.Stdin = bytes.NewReader(s.Stdin)
	}
	stdout := &capped{max: max}
	stderr := &capped{max: max}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	setProcessGroup(cmd)
	cmd.WaitDelay = waitDelay

	start := time.Now()
	if err := cmd.Start(); err != nil {
		return Result{ExitCode: -1, Duration: time.Since(start)}, &StartError{Argv0: s.Argv[0], Err: err}
	}
	done := make(chan struct{})
	var killed bool
	var mu sync.Mutex
	go func() {
		select {
		case <-ctx.Done():
			mu.Lock()
			killed = true
			mu.Unlock()
			killGroup(cmd)
		case <-done:
		}
	}()
	err := cmd.Wait()
	close(done)
	// The group may hold children that outlived the leader: stop them.
	killGroup(cmd)
	res := Result{
		ExitCode:  cmd.ProcessState.ExitCode(),
		Stdout:    stdout.buf.Bytes(),
		Stderr:    stderr.buf.Bytes(),
		Truncated: stdout.dropped || stderr.dropped,
		Duration:  time.Since(start),
	}
	mu.Lock()
	res.TimedOut = killed
	mu.Unlock()
	if res.TimedOut {
		res.ExitCode = -1
		return res, ctx.Err()
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) && !errors.Is(err, exec.ErrWaitDelay) {
		return res, err
	}
	return res, nil
}

// capped keeps the first max bytes written and counts the rest.
type capped struct {
	max     int
	buf     bytes.Buffer
	dropped bool
}

func (c *capped) Write(p []byte) (int, error) {
	room := c.max - c.buf.Len()
	if room >= len(p) {
		return c.buf.Write(p)
	}
	if room > 0 {
		c.buf.Write(p[:room])
	}
	c.dropped = true
	return len(p), nil
}

var _ io.Writer = (*capped)(nil)

// Environ returns the process environment with extra variables set
// (replacing earlier values of the same name).
func Environ(extra map[string]string) []string {
	env := os.Environ()
	if len(extra) == 0 {
		return env
	}
	out := make([]string, 0, len(env)+len(extra))
	for _, kv := range env {
		name := kv
		if i := indexByte(kv, '='); i >= 0 {
			name = kv[:i]
		}
		if _, override := extra[name]; !override {
			out = append(out, kv)
		}
	}
	for k, v := range extra {
		out = append(out, k+"="+v)
	}
	return out
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}
