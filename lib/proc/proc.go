package proc

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Defaults.
const (
	DefaultMaxOutput = 1 << 20 // per stream
	// OutputGrace is how long a program's output is still read after its
	// own process exited: output its children write late is kept if it
	// comes by then. A child that holds the pipes longer (a detached
	// background job) does not delay the answer.
	OutputGrace = 250 * time.Millisecond
	// drainSlack is what is read, without waiting, from an output pipe
	// past the cap when reading stops: a full pipe buffer.
	drainSlack = 1 << 16
)

// Spec describes one run.
type Spec struct {
	// Argv is the program and its arguments; Argv[0] is looked up in PATH
	// when it has no slash.
	Argv []string
	// Dir is the working directory ("" = the current one).
	Dir string
	// Env is the whole environment ("KEY=value"); nil inherits the
	// process's. Run adds DepthEnv and TokenEnv to it.
	Env []string
	// Stdin is written to the program's standard input.
	Stdin []byte
	// Deadline, when not zero, ends the run like ctx's deadline does; a
	// program that exited before it keeps its exit status and output.
	Deadline time.Time
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
	// TimedOut reports that the deadline or the context ended the run
	// before the program exited, and the processes of the run were killed.
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

// Run runs the program and waits for it, bounded by ctx and by
// Spec.Deadline. The program's own process decides: once it has exited,
// its exit status and what it printed are the result, read until its
// output pipes close or OutputGrace passes, whichever comes first; a child
// it left behind holding the pipes (a background job, nohup, setsid) does
// not delay the answer: the processes of the run are killed and what was
// printed is kept. When the deadline or ctx ends the run first, the
// processes of the run are killed, Result.TimedOut is true and the error is
// context.DeadlineExceeded (the deadline) or ctx's error. A program that
// could not start is a *StartError; a non-zero exit status is not an
// error, it is in Result.ExitCode.
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
	token := newToken()
	cmd.Env = childEnv(s.Env, token)
	setProcessGroup(cmd)

	// The pipes are ours rather than exec's: exec's Wait waits for its
	// copying goroutines, that is for every process holding a pipe, and
	// its WaitDelay cannot tell the program's exit from its timeout.
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
	start := time.Now()
	inR, inW, err := pipe()
	if err != nil {
		return Result{ExitCode: -1}, err
	}
	outR, outW, err := pipe()
	if err != nil {
		return Result{ExitCode: -1}, err
	}
	errR, errW, err := pipe()
	if err != nil {
		return Result{ExitCode: -1}, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := startRun(cmd.Start, func() int { return cmd.Process.Pid }); err != nil {
		return Result{ExitCode: -1, Duration: time.Since(start)}, &StartError{Argv0: s.Argv[0], Err: err}
	}
	procs := newTree(cmd.Process.Pid, token)
	if err := contain(cmd, procs); err != nil {
		// Windows: the program could not be put into the run's job
		// object; it is killed before it ran, rather than run with
		// nothing to end its children.
		procs.kill(cmd)
		_ = cmd.Wait()
		return Result{ExitCode: -1, Duration: time.Since(start)}, &StartError{Argv0: s.Argv[0], Err: err}
	}
	// The child has its copies; the parent keeps only its own ends, so
	// that EOF comes when the last process holding a pipe is gone.
	_ = inR.Close()
	_ = outW.Close()
	_ = errW.Close()

	stdout, stderr := &capped{max: max}, &capped{max: max}
	copying := &copies{st: pipeStopper(inW, outR, errR)}
	outDone, errDone := make(chan struct{}), make(chan struct{})
	copying.write(inW, s.Stdin)
	copying.read(outR, stdout, outDone)
	copying.read(errR, stderr, errDone)

	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	var timer <-chan time.Time
	if !s.Deadline.IsZero() {
		t := time.NewTimer(time.Until(s.Deadline))
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
			procs.kill(cmd)
			<-exited
		}
	}
	if runErr == nil {
		// The program exited: read its output until the pipes close, for
		// a short grace at most.
		grace := time.NewTimer(OutputGrace)
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
	// Processes of the run left behind are stopped: they outlived the
	// program (after a timeout, this finds what was started since).
	procs.kill(cmd)
	// Under a subreaper, what the run left and that left its tree came
	// back to this process: it is killed too.
	endRun(cmd.Process.Pid)
	// Stop the copying goroutines (a pipe still held by a process out of
	// the group or job never reaches EOF), then take what is already in
	// the pipes without waiting: nothing printed before the exit is lost.
	copying.stop()
	res := Result{ExitCode: -1, Duration: time.Since(start)}
	if runErr != nil {
		res.TimedOut = true
		res.Stdout, res.Stderr = stdout.buf.Bytes(), stderr.buf.Bytes()
		return res, runErr
	}
	drain(outR, stdout, max+drainSlack)
	drain(errR, stderr, max+drainSlack)
	res.ExitCode = cmd.ProcessState.ExitCode()
	res.Stdout, res.Stderr = stdout.buf.Bytes(), stderr.buf.Bytes()
	res.Truncated = stdout.dropped || stderr.dropped
	res.Duration = time.Since(start)
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

// DepthEnv is the environment variable that tells a program how deep in
// hookctl's hooks it runs: every program Run starts gets one more than
// the process's own (1 under a hookctl that no hook started). hookctl's
// hook commands (claude, hook, fire) refuse to run when it is set, so a
// hook that calls hookctl cannot make it call itself without end.
const DepthEnv = "HOOKCTL_DEPTH"

// TokenEnv is the environment variable that marks every process of one
// run: a token new for each run, after those of the runs it is nested in
// (comma-separated), and how the processes a run left behind are found
// on Linux and macOS (see tree).
const TokenEnv = "HOOKCTL_RUN"

// Depth is the process's own depth in hookctl's hooks: DepthEnv read
// from getenv (0 when unset; 1 when it is not a number, which only a hook
// could have set).
func Depth(getenv func(string) string) int {
	v := getenv(DepthEnv)
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// childEnv is env (the process's when nil) with DepthEnv one more than
// the deeper of the process's own depth and env's (a request's
// environment, given for a caller deeper in hooks than the process
// answering it: a daemon's caller), and TokenEnv set to token.
func childEnv(env []string, token string) []string {
	depth := Depth(os.Getenv)
	if env == nil {
		env = os.Environ()
	} else {
		depth = max(depth, Depth(Lookup(env)))
	}
	out := make([]string, 0, len(env)+2)
	tokens := token
	for _, kv := range env {
		switch {
		case strings.HasPrefix(kv, DepthEnv+"="):
		case strings.HasPrefix(kv, TokenEnv+"="):
			// The runs this one is nested in keep their tokens: their
			// walks find what this run leaves behind too.
			if prev := kv[len(TokenEnv)+1:]; prev != "" && len(prev) < 4096 {
				tokens = prev + "," + token
			}
		default:
			out = append(out, kv)
		}
	}
	return append(out, DepthEnv+"="+strconv.Itoa(depth+1), TokenEnv+"="+tokens)
}

// newToken is a run's TokenEnv value: random, so that no other run and no
// unrelated process holds it.
func newToken() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Lookup returns a getenv over an environment list ("KEY=value"; the
// last value of a name wins, as in exec).
func Lookup(env []string) func(string) string {
	return func(name string) string {
		v := ""
		for _, kv := range env {
			if len(kv) > len(name) && kv[len(name)] == '=' && kv[:len(name)] == name {
				v = kv[len(name)+1:]
			}
		}
		return v
	}
}

// Environ returns the process environment with extra variables set
// (replacing earlier values of the same name).
func Environ(extra map[string]string) []string { return EnvironFrom(os.Environ(), extra) }

// EnvironFrom returns env (a request's environment, say) with extra
// variables set (replacing earlier values of the same name).
func EnvironFrom(env []string, extra map[string]string) []string {
	if len(extra) == 0 {
		return slices.Clone(env)
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
