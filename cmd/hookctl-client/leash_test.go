package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeTie records what runFull asks of the tie; kill kills the process
// it was given, as terminating the job does on Windows.
type fakeTie struct {
	mu             sync.Mutex
	calls          []string
	addErr, resErr error
	onAdd          func() // called by add, when set
	p              *os.Process
}

func (f *fakeTie) record(call string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, call)
}

func (f *fakeTie) prepare(*exec.Cmd) { f.record("prepare") }
func (f *fakeTie) add(p *os.Process) error {
	f.record("add")
	f.p = p
	if f.onAdd != nil {
		f.onAdd()
	}
	return f.addErr
}
func (f *fakeTie) resume(*os.Process) error { f.record("resume"); return f.resErr }
func (f *fakeTie) kill() error              { f.record("kill"); return f.p.Kill() }
func (f *fakeTie) release()                 { f.record("release") }

func (f *fakeTie) got() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// stoppable is a stand-in hookctl that says it started, then waits, and
// answers a passed-on stop (SIGTERM) with exit 0, which a stopped client
// relays as hookctl's own answer.
func stoppable(t *testing.T) (argv []string, started string) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("needs sh")
	}
	started = filepath.Join(t.TempDir(), "started")
	return []string{"sh", "-c", `trap 'exit 0' TERM; touch "$0"; while :; do sleep 0.05; done`, started}, started
}

// runStopped runs argv through runFull with tie, gives the call up once
// the stand-in has started, and returns runFull's exit status.
func runStopped(t *testing.T, tie tie, argv []string, started string) int {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	code := make(chan int, 1)
	go func() {
		code <- runFull(ctx, "claude", argv[0], argv[1:], strings.NewReader(""), true, &leash{tie: tie, say: t.Logf})
	}()
	for {
		if _, err := os.Stat(started); err == nil {
			break
		}
		select {
		case c := <-code:
			t.Fatalf("runFull returned %d before the stand-in started", c)
		case <-time.After(5 * time.Millisecond):
		}
	}
	cancel()
	select {
	case c := <-code:
		return c
	case <-time.After(30 * time.Second):
		t.Fatal("runFull did not return after the stop")
		return 0
	}
}

// TestRunFullTiedStopKills: the hookctl the client runs itself is put
// into the tie (Windows: the client's job object) before it is let run,
// and a call given up kills the tie's processes rather than passing a
// stop on (which Windows cannot send); the client then answers the
// host's block itself.
func TestRunFullTiedStopKills(t *testing.T) {
	argv, started := stoppable(t)
	tie := &fakeTie{}
	if code := runStopped(t, tie, argv, started); code != blockCode("claude") {
		t.Errorf("exit %d; want the host's block, %d", code, blockCode("claude"))
	}
	if want := []string{"prepare", "add", "resume", "kill", "release"}; !slices.Equal(tie.got(), want) {
		t.Errorf("tie calls %v; want %v", tie.got(), want)
	}
}

// TestRunFullUntiedWhenTheTieRefuses: a process the tie cannot take (no
// job object could be made or joined) still runs and answers, and a stop
// is then passed on as where there is no tie.
func TestRunFullUntiedWhenTheTieRefuses(t *testing.T) {
	argv, started := stoppable(t)
	tie := &fakeTie{addErr: errors.New("access denied")}
	if code := runStopped(t, tie, argv, started); code != 0 {
		t.Errorf("exit %d; want the stand-in's answer to the passed-on stop, 0", code)
	}
	if want := []string{"prepare", "add", "resume", "release"}; !slices.Equal(tie.got(), want) {
		t.Errorf("tie calls %v; want %v", tie.got(), want)
	}
	tie = &fakeTie{addErr: errors.New("access denied")}
	if code := runFull(context.Background(), "claude", "sh", []string{"-c", "exit 3"}, strings.NewReader(""), true, &leash{tie: tie, say: t.Logf}); code != 3 {
		t.Errorf("exit %d; want hookctl's own, 3", code)
	}
}

// TestRunFullNotResumedBlocks: a process that cannot be let run is
// killed and the call answered with the host's block.
func TestRunFullNotResumedBlocks(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("needs sh")
	}
	tie := &fakeTie{resErr: errors.New("no thread")}
	if code := runFull(context.Background(), "claude", "sh", []string{"-c", "exit 0"}, strings.NewReader(""), true, &leash{tie: tie, say: t.Logf}); code != blockCode("claude") {
		t.Errorf("exit %d; want the host's block", code)
	}
	if want := []string{"prepare", "add", "resume", "release"}; !slices.Equal(tie.got(), want) {
		t.Errorf("tie calls %v; want %v", tie.got(), want)
	}
}

// TestRunFullGivenUpBeforeItRuns: a call given up between the start of
// hookctl (suspended, on Windows) and its tie is never let run: a stop
// passed on then might not reach it. The client answers the block.
func TestRunFullGivenUpBeforeItRuns(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("needs sh")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l := &leash{say: t.Logf}
	tie := &fakeTie{onAdd: func() {
		cancel()
		for {
			l.mu.Lock()
			stopped := l.stopped
			l.mu.Unlock()
			if stopped {
				return
			}
			time.Sleep(time.Millisecond)
		}
	}}
	l.tie = tie
	if code := runFull(ctx, "claude", "sh", []string{"-c", "exec sleep 5"}, strings.NewReader(""), true, l); code != blockCode("claude") {
		t.Errorf("exit %d; want the host's block", code)
	}
	if want := []string{"prepare", "add", "release"}; !slices.Equal(tie.got(), want) {
		t.Errorf("tie calls %v; want %v (never resumed)", tie.got(), want)
	}
}
