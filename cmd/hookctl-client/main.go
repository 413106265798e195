// Command hookctl-client is a host's hook command that costs a small
// process: it takes the same arguments as hookctl's host subcommands
// (hookctl-client claude --config X, hookctl-client hook --host crush) and
// forwards the call to a per-user daemon (hookctl daemon) that keeps the
// engine loaded, starting it on first use. It links none of the engine: if
// the daemon cannot be reached or started it runs the full hookctl binary
// itself, and if that cannot run either it answers the host's block (exit
// 2, or Copilot CLI's deny reply: blocks_gen.go, made from protocol/hosts),
// never an allow.
//
// On Windows the daemon listens on a named pipe that only the user can
// open, reads each caller's token and serves only its own user at its own
// integrity level; the client checks that the pipe is its user's before
// it sends anything (internal/daemon, daemonserver).
//
// The full binary is $HOOKCTL_BIN, else hookctl beside this program, else
// hookctl on $PATH. HOOKCTL_CLIENT_DEBUG=1 says on stderr which way each
// call went; HOOKCTL_DAEMON_IDLE sets how long a daemon waits for calls
// before it exits (default 10m).
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hookctl/hookctl/internal/daemon"
	"github.com/hookctl/hookctl/internal/hosttime"
)

func main() {
	// A host that gives up on its hook stops the client (stopSignals):
	// the call is given up too (the daemon, or hookctl run here, kills
	// its hooks) and the block it answers is still written, never an
	// exit by the signal with nothing said. The client exits with
	// os.Exit as soon as it has answered: nothing is torn down first.
	ctx, cancel := context.WithCancel(context.Background())
	os.Exit(run(ctx, watchStops(cancel), os.Args[1:]))
}

// watchStops arms the stop signals on a goroutine of its own and returns
// a channel closed once they are armed; a stop signal then cancels the
// call (cancel). The signal machinery (os/signal's goroutines and the
// thread it locks) starts while this goroutine reads the input and
// prepares the call; nothing that runs a hook starts before the channel
// is closed (armed).
func watchStops(cancel context.CancelFunc) <-chan struct{} {
	armed := make(chan struct{})
	go func() {
		stops := make(chan os.Signal, 1)
		signal.Notify(stops, stopSignals...)
		close(armed)
		<-stops
		cancel()
	}()
	return armed
}

// startWait bounds the wait for a daemon this process started.
const startWait = 3 * time.Second

// stopGrace bounds the wait for the block of a call given up on a stop
// signal; past it the client answers its own.
const stopGrace = 3 * time.Second

// depthEnv is proc.DepthEnv (this program links none of the engine): set
// for every program one of hookctl's hooks runs.
const depthEnv = "HOOKCTL_DEPTH"

func run(ctx context.Context, armed <-chan struct{}, args []string) int {
	start := time.Now()
	debug := os.Getenv("HOOKCTL_CLIENT_DEBUG") != ""
	say := func(format string, a ...any) {
		if debug {
			fmt.Fprintf(os.Stderr, "hookctl-client: "+format+"\n", a...)
		}
	}
	hook, ok := daemon.ParseArgs(args)
	host := hostOf(hook) // "" when !ok: the default host's block
	full, err := fullBinary()
	if err != nil {
		return block(host, fmt.Sprintf("hookctl-client: %v; no hook could run, so the action is blocked", err))
	}
	if !ok {
		// Not a hook call the daemon runs (another command, a flag the
		// parser does not know, --help): the full binary does it.
		<-armed
		return runFull(ctx, host, full, args, os.Stdin, false, &leash{tie: newTie(), say: say})
	}
	if d := os.Getenv(depthEnv); d != "" && d != "0" {
		// Called from one of hookctl's own hooks: hookctl refuses the
		// call in its host's format. No daemon is started for it.
		say("%s=%s: running %s itself, which refuses a call from its own hook", depthEnv, d, full)
		<-armed
		return runFull(ctx, host, full, args, os.Stdin, true, &leash{tie: newTie(), say: say})
	}
	// The whole call, from here, ends by the host's timeout: past it
	// this process answers the host's block itself. Whoever answers
	// first answers alone (the other waits for the exit).
	var answered atomic.Bool
	var stage atomic.Pointer[string]
	setStage := func(s string) { stage.Store(&s) }
	setStage("reading the hook input: the host has not closed it")
	dl := &deadline{start: start, host: host, exit: os.Exit,
		claim: func() bool { return answered.CompareAndSwap(false, true) },
		stage: func() string { return *stage.Load() }}
	ht, given := givenTimeout(hook, os.Getenv)
	hosts := timeoutsOf(host)
	if !given {
		ht = readTimeout(hosts)
	}
	dl.arm(ht)
	stdin, err := readInput(os.Stdin, daemon.MaxMessage-(1<<20))
	if err != nil {
		if !answered.CompareAndSwap(false, true) {
			select {}
		}
		return block(host, fmt.Sprintf("hookctl-client: reading the hook input: %v; the action is blocked", err))
	}
	if !given {
		dl.rearm(callTimeout(hosts, hook.Event, stdin))
	}
	say("the host's timeout: %s; answering by %s", dl.ht, hosttime.Backstop(dl.ht))
	// Once the call is given up, the daemon's block is waited for
	// stopGrace at most; past it this process answers its own.
	late := context.AfterFunc(ctx, func() {
		time.AfterFunc(stopGrace, func() {
			if answered.CompareAndSwap(false, true) {
				os.Exit(block(host, "hookctl-client: stopped, and the daemon did not answer in time; no hook could decide, so the action is blocked"))
			}
		})
	})
	resp, why := viaDaemon(ctx, armed, full, hook, stdin, say, setStage)
	late()
	if resp != nil {
		if !answered.CompareAndSwap(false, true) {
			select {} // the block is being written; the process exits
		}
		os.Stdout.Write(resp.Stdout)
		if len(resp.Stderr) > 0 {
			os.Stderr.Write(resp.Stderr)
		}
		return resp.Code
	}
	if ctx.Err() != nil {
		// Stopped, and the daemon's block did not come.
		if !answered.CompareAndSwap(false, true) {
			select {}
		}
		return block(host, fmt.Sprintf("hookctl-client: stopped (%s); no hook could decide, so the action is blocked", why))
	}
	say("running %s itself (%s)", full, why)
	setStage("running " + full + " itself: " + why)
	<-armed
	l := &leash{tie: newTie(), say: say, claim: dl.claim}
	abandon := l.abandon
	dl.abandon.Store(&abandon)
	return runFull(ctx, host, full, args, stdin.reader(), true, l)
}

// input is the hook input, as read: in parts, never joined or copied
// (a large Write payload is sent to the daemon as it was read).
type input [][]byte

// readInput reads r to its end, at most limit bytes, into parts that
// grow with the input (16 KiB, then the size read so far, at most 8 MiB).
// A hook input is most often a few kilobytes: a first part of 16 KiB is
// a small allocation, where one of 64 KiB was four times the fresh pages.
func readInput(r io.Reader, limit int) (input, error) {
	var in input
	total := 0
	for size := 16 << 10; total < limit; {
		buf := make([]byte, min(size, limit-total))
		n, err := io.ReadFull(r, buf)
		if n > 0 {
			in = append(in, buf[:n:n])
			total += n
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return in, nil
		}
		if err != nil {
			return nil, err
		}
		size = min(max(size, total), 8<<20)
	}
	return in, nil
}

// len is the input's length.
func (in input) len() int {
	n := 0
	for _, p := range in {
		n += len(p)
	}
	return n
}

// reader reads the input.
func (in input) reader() io.Reader {
	rs := make([]io.Reader, len(in))
	for i, p := range in {
		rs[i] = bytes.NewReader(p)
	}
	return io.MultiReader(rs...)
}

// viaDaemon sends the call to the daemon, starting it if needed. It
// returns nil and why when the daemon cannot answer.
//
// stage says what the call waits for, for the deadline's block.
func viaDaemon(ctx context.Context, armed <-chan struct{}, full string, hook daemon.Hook, stdin input, say func(string, ...any), stage func(string)) (*daemon.Response, string) {
	if err := daemon.Supported(); err != nil {
		return nil, err.Error() // Windows: hookctl doctor says so
	}
	id, err := daemon.Identity(full)
	if err != nil {
		return nil, err.Error()
	}
	dir, err := daemon.Dir()
	if err != nil {
		return nil, err.Error()
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err.Error()
	}
	if os.Getenv("TRACEPARENT") != "" {
		// A trace context changes with every call: a daemon per value
		// would be a daemon per call. hookctl itself traces the call.
		return nil, "TRACEPARENT is set (a trace context per call)"
	}
	environ := os.Environ()
	size := stdin.len() + len(cwd)
	for _, kv := range environ {
		size += 4 + len(kv)
	}
	if size > daemon.MaxMessage-(64<<10) {
		return nil, "the call is too large for the daemon"
	}
	attrs := daemon.ClientProcessAttrs()
	sock := daemon.Socket(dir, id, cwd, attrs, daemon.EnvKey(environ))
	req := &daemon.Request{Protocol: daemon.Protocol, Identity: id, Hook: hook, StdinParts: stdin, Cwd: cwd, Env: environ, Attrs: attrs}
	// A hook call may run for minutes (hook timeouts); the exchange ends
	// by the host's timeout for the hook (run's deadline answers the
	// block when a daemon does not: stopped, wedged, or a process that
	// holds its socket and never answers).
	<-armed
	stage("the daemon at " + sock + " did not answer: stopped, wedged, or not a daemon of hookctl's")
	resp, err := daemon.CallContext(ctx, sock, req)
	if err != nil && ctx.Err() != nil {
		return nil, err.Error() // stopped: no daemon is started now
	}
	if notOurs(err) {
		// Another user, or a process of this user that does not run as
		// this one (lower integrity, a sandbox), holds the name (Windows):
		// no daemon of ours can take it, so none is started and waited
		// for.
		return nil, err.Error()
	}
	if err != nil {
		if n := daemon.Live(dir); n >= daemon.MaxDaemons {
			// An environment that changes with every call would start a
			// daemon per call: past the bound, calls run hookctl itself.
			return nil, fmt.Sprintf("%d daemons already run for this user", n)
		}
		if ctx.Err() != nil {
			return nil, "stopped before a daemon was started"
		}
		say("no daemon at %s (%v): starting one", sock, err)
		stage("starting a daemon at " + sock + ", which did not answer")
		pid, brokeAway, err := startDaemon(full, sock, id)
		if err != nil {
			return nil, "starting the daemon: " + err.Error()
		}
		if !brokeAway {
			// Windows: the job this client runs in forbids breakaway; the
			// daemon lives as long as that job.
			say("started daemon pid %d inside this process's job (it does not allow breakaway)", pid)
		} else {
			say("started daemon pid %d", pid)
		}
		// The new daemon is waited for startWait in all (a failed call
		// can itself take a while: a busy pipe is waited for), then this
		// process runs hookctl itself: a host's timeout must not be
		// spent here.
		started := time.Now()
		for wait := 5 * time.Millisecond; ; wait *= 2 {
			if ctx.Err() != nil {
				// Stopped while the daemon started: the call is not
				// sent (the daemon is left to its idle exit).
				return nil, "stopped before the daemon took the call"
			}
			resp, err = daemon.CallContext(ctx, sock, req)
			if err == nil || notOurs(err) || ctx.Err() != nil || time.Since(started)+wait > startWait {
				break
			}
			time.Sleep(wait)
		}
		if err != nil {
			return nil, "the daemon did not answer: " + err.Error()
		}
	}
	if resp.Refused != "" {
		return nil, "the daemon refused: " + resp.Refused
	}
	say("answered by the daemon at %s", sock)
	return resp, ""
}

// notOurs reports whether a call failed because the daemon's name is held
// by what no daemon of ours can displace: another user's pipe, or one
// served by a process that does not run as this one (Windows).
func notOurs(err error) bool {
	return errors.Is(err, daemon.ErrNotMyPipe) || errors.Is(err, daemon.ErrNotMyDaemon)
}

// startDaemon starts hookctl daemon in its own session (Windows: its own
// process group, out of the client's job where the job allows it), with
// this process's working directory and environment, detached from its
// output. It returns the daemon's process id and whether it left the
// client's job (always, off Windows).
func startDaemon(full, sock, id string) (int, bool, error) {
	args := []string{"daemon", "--socket", sock, "--identity", id}
	if d := os.Getenv("HOOKCTL_DAEMON_IDLE"); d != "" {
		args = append(args, "--idle", d)
	}
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return 0, false, err
	}
	defer devnull.Close()
	p, brokeAway, err := startDetached(func(attr *syscall.SysProcAttr) (*os.Process, error) {
		cmd := exec.Command(full, args...)
		cmd.SysProcAttr = attr
		cmd.Stdin, cmd.Stdout, cmd.Stderr = devnull, devnull, devnull
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		return cmd.Process, nil
	})
	if err != nil {
		return 0, false, err
	}
	pid := p.Pid // Release sets it to -1
	return pid, brokeAway, p.Release()
}

// runFull runs the full hookctl binary with the call's arguments and
// input, and returns its exit status; one that cannot run blocks.
//
// For a hook call (hook) its reply is held until it exits: once the call
// is stopped, only hookctl's own answer (exit 0, or the host's block
// status) is passed on. Anything else (on Windows, a child ended by
// TerminateProcess when the stop's grace runs out exits 1, which hosts
// read as an error that blocks nothing) is replaced by this client's
// block, never written beside part of a reply.
//
// l starts it, tied to this process where the system allows (Windows: a
// job object, so that a host's TerminateProcess of the client ends
// hookctl and its hooks), and stops it when the call is given up.
func runFull(ctx context.Context, host, full string, args []string, stdin io.Reader, hook bool, l *leash) int {
	cmd := exec.CommandContext(ctx, full, args...)
	// A stop is passed on (hookctl kills its hooks and answers the
	// host's block, which reaches the host through this process), or
	// ends hookctl's job (Windows; this process then answers the block).
	cmd.Cancel = func() error { return l.stop(cmd) }
	cmd.WaitDelay = stopGrace
	var reply bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, os.Stdout, os.Stderr
	if hook {
		cmd.Stdout = &reply
	}
	err := l.start(cmd)
	if err == nil {
		err = cmd.Wait()
		l.done()
	}
	code, exited := -1, false
	var ee *exec.ExitError
	switch {
	case err == nil:
		code, exited = 0, true
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		code, exited = ee.ExitCode(), true
	case ctx.Err() != nil && cmd.ProcessState != nil && cmd.ProcessState.ExitCode() >= 0:
		// Stopped: hookctl answered (its block) and exited.
		code, exited = cmd.ProcessState.ExitCode(), true
	}
	if hook && l.claim != nil && !l.claim() {
		select {} // the deadline's block is being written; the process exits
	}
	if hook && ctx.Err() != nil && !(exited && (code == 0 || code == blockCode(host))) {
		why := "it was ended"
		if exited {
			why = fmt.Sprintf("it exited with status %d", code)
		}
		return block(host, fmt.Sprintf("hookctl-client: stopped, and %s did not answer (%s); no hook could decide, so the action is blocked", full, why))
	}
	os.Stdout.Write(reply.Bytes())
	if exited {
		return code
	}
	return block(host, fmt.Sprintf("hookctl-client: running %s: %v; no hook could run, so the action is blocked", full, err))
}

// fullBinary finds the hookctl binary.
func fullBinary() (string, error) {
	if p := os.Getenv("HOOKCTL_BIN"); p != "" {
		return filepath.Abs(p)
	}
	if self, err := os.Executable(); err == nil {
		name := "hookctl"
		if runtime.GOOS == "windows" {
			name += ".exe"
		}
		p := filepath.Join(filepath.Dir(self), name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	p, err := exec.LookPath("hookctl")
	if err != nil {
		return "", errors.New("the hookctl binary was not found (beside hookctl-client, $HOOKCTL_BIN or $PATH)")
	}
	return filepath.Abs(p)
}
