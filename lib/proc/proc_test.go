package proc_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/ostest"
	"github.com/hookctl/hookctl/lib/proc"
)

func TestRunCapturesOutputAndExitCode(t *testing.T) {
	res, err := proc.Run(context.Background(), proc.Spec{Argv: []string{"sh", "-c", `read x; echo "out:$x"; echo err >&2; exit 3`}, Stdin: []byte("hello\n")})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 3 || string(res.Stdout) != "out:hello\n" || string(res.Stderr) != "err\n" || res.TimedOut {
		t.Fatalf("%+v", res)
	}
}

func TestStartErrors(t *testing.T) {
	for _, argv := range [][]string{{"/no/such/program"}, {"no-such-program-hookctl"}, {}} {
		_, err := proc.Run(context.Background(), proc.Spec{Argv: argv})
		var se *proc.StartError
		if !errors.As(err, &se) {
			t.Errorf("%v: %v", argv, err)
		}
	}
	dir := t.TempDir()
	f := filepath.Join(dir, "not-exec")
	if err := os.WriteFile(f, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var se *proc.StartError
	if _, err := proc.Run(context.Background(), proc.Spec{Argv: []string{f}}); !errors.As(err, &se) {
		t.Errorf("not executable: %v", err)
	}
}

func TestOutputIsBounded(t *testing.T) {
	res, err := proc.Run(context.Background(), proc.Spec{Argv: []string{"sh", "-c", "head -c 100000 /dev/zero"}, MaxOutput: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Stdout) != 1000 || !res.Truncated || res.ExitCode != 0 {
		t.Fatalf("len=%d truncated=%v code=%d", len(res.Stdout), res.Truncated, res.ExitCode)
	}
}

// TestTimeoutKillsTheWholeGroup: a program that forks a long-lived child
// is killed with the child when the context ends.
func TestTimeoutKillsTheWholeGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := proc.Run(ctx, proc.Spec{Argv: []string{"sh", "-c", `sleep 60 & echo $! > ` + pidFile + `; sleep 60`}})
	if !errors.Is(err, context.DeadlineExceeded) || !res.TimedOut || res.ExitCode != -1 {
		t.Fatalf("res=%+v err=%v", res, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %s", d)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	for _, c := range strings.TrimSpace(string(b)) {
		pid = pid*10 + int(c-'0')
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		if !ostest.Alive(pid) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("child %d survived the timeout", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestEnviron(t *testing.T) {
	t.Setenv("HOOKCTL_PROC_TEST", "old")
	env := proc.Environ(map[string]string{"HOOKCTL_PROC_TEST": "new", "X_NEW": "1"})
	n := 0
	for _, kv := range env {
		if strings.HasPrefix(kv, "HOOKCTL_PROC_TEST=") {
			n++
			if kv != "HOOKCTL_PROC_TEST=new" {
				t.Fatal(kv)
			}
		}
	}
	if n != 1 {
		t.Fatalf("%d copies", n)
	}
	res, err := proc.Run(context.Background(), proc.Spec{Argv: []string{"sh", "-c", "echo $X_NEW"}, Env: env})
	if err != nil || strings.TrimSpace(string(res.Stdout)) != "1" {
		t.Fatal(res, err)
	}
}

func ExampleRun() {
	res, err := proc.Run(context.Background(), proc.Spec{Argv: []string{"echo", "hello"}})
	if err != nil {
		panic(err)
	}
	print(string(res.Stdout))
}

// A program that printed its answer and exited keeps it, even when a
// child it left behind holds stdout open past the deadline: the exit
// decides, promptly, and the child is killed with the group.
func TestDetachedChildDoesNotHoldTheResult(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs sh")
	}
	for _, timeout := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 10 * time.Second} {
		t.Run(timeout.String(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			start := time.Now()
			res, err := proc.Run(ctx, proc.Spec{Argv: []string{"sh", "-c", `echo answer; echo why >&2; (sleep 30 &); exit 3`}})
			if err != nil {
				t.Fatalf("Run: %v (timed out: %v)", err, res.TimedOut)
			}
			if res.ExitCode != 3 || strings.TrimSpace(string(res.Stdout)) != "answer" || strings.TrimSpace(string(res.Stderr)) != "why" {
				t.Fatalf("got exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.Stderr)
			}
			if d := time.Since(start); d > timeout/2+proc.OutputGrace {
				t.Errorf("took %v: the detached child held the result", d)
			}
		})
	}
}

// A deadline given in the Spec ends a program that has not exited.
func TestSpecDeadlineEndsTheRun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("needs sh")
	}
	start := time.Now()
	res, err := proc.Run(context.Background(), proc.Spec{Argv: []string{"sh", "-c", "echo partial; sleep 30"}, Deadline: time.Now().Add(300 * time.Millisecond)})
	if !errors.Is(err, context.DeadlineExceeded) || !res.TimedOut {
		t.Fatalf("err %v, timed out %v; want the deadline", err, res.TimedOut)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// BenchmarkRun is one short program run: start, wait, and the search for
// processes it left behind.
func BenchmarkRun(b *testing.B) {
	for b.Loop() {
		if _, err := proc.Run(context.Background(), proc.Spec{Argv: []string{"true"}}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGivenEnvironment: a run given an environment (a request's) starts
// the program with that environment, not the process's, and its depth in
// hookctl's hooks counts from the deeper of the two, so that a caller
// nested in hooks keeps its depth through a process answering for it.
func TestGivenEnvironment(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("needs sh")
	}
	t.Setenv("HOOKCTL_PROC_ONLY_PROCESS", "process")
	t.Setenv(proc.DepthEnv, "")
	env := proc.EnvironFrom([]string{"PATH=" + os.Getenv("PATH"), proc.DepthEnv + "=4"}, map[string]string{"HOOKCTL_PROC_REQUEST": "request"})
	res, err := proc.Run(context.Background(), proc.Spec{Argv: []string{"sh", "-c", `echo "$HOOKCTL_PROC_REQUEST/$HOOKCTL_PROC_ONLY_PROCESS/$` + proc.DepthEnv + `"`}, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(res.Stdout)); got != "request//5" {
		t.Fatalf("the program saw %q, want request//5", got)
	}
	// A process deeper than the environment it was given keeps its own.
	t.Setenv(proc.DepthEnv, "7")
	res, err = proc.Run(context.Background(), proc.Spec{Argv: []string{"sh", "-c", `echo "$` + proc.DepthEnv + `"`}, Env: env})
	if err != nil || strings.TrimSpace(string(res.Stdout)) != "8" {
		t.Fatalf("depth %q, %v; want 8", res.Stdout, err)
	}
	if got := proc.Lookup([]string{"A=1", "B=2", "A=3"})("A"); got != "3" {
		t.Fatalf("Lookup = %q", got)
	}
}
