//go:build windows

package proc_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"github.com/hookctl/hookctl/internal/ostest"
	"github.com/hookctl/hookctl/lib/proc"
)

// jobEnv makes TestJobHelperProcess a hook ("spawn", "breakaway": start
// a sleeping copy of the test binary, write its pid to $PROC_TEST_PIDFILE
// and exit, or wait when $PROC_TEST_WAIT is set; "leak": leakHelper) or
// the sleeper ("sleep").
const jobEnv = "PROC_TEST_JOB"

func TestJobHelperProcess(t *testing.T) {
	how := os.Getenv(jobEnv)
	switch how {
	case "":
		return
	case "sleep":
		time.Sleep(time.Hour)
		os.Exit(0)
	case "leak":
		leakHelper()
	}
	self, _ := os.Executable()
	cmd := exec.Command(self, "-test.run=^TestJobHelperProcess$")
	cmd.Env = append(os.Environ(), jobEnv+"=sleep")
	if how == "breakaway" {
		// A child that asks to leave the job: the job does not allow it.
		cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_BREAKAWAY_FROM_JOB}
	}
	out := "refused"
	if err := cmd.Start(); err == nil {
		out = strconv.Itoa(cmd.Process.Pid)
	}
	pidFile := os.Getenv("PROC_TEST_PIDFILE")
	if os.WriteFile(pidFile+".tmp", []byte(out), 0o644) != nil || os.Rename(pidFile+".tmp", pidFile) != nil {
		os.Exit(1)
	}
	if os.Getenv("PROC_TEST_WAIT") != "" {
		time.Sleep(time.Hour)
	}
	os.Exit(0)
}

// TestJobEndsTheTree: what a hook starts on Windows (an orphan left
// behind, a child still running at the timeout, one that asked to break
// away from the job) is dead when Run returns.
func TestJobEndsTheTree(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, how := range []string{"spawn", "breakaway"} {
		for _, timeout := range []bool{false, true} {
			t.Run(how+"/timeout="+strconv.FormatBool(timeout), func(t *testing.T) {
				pidFile := filepath.Join(t.TempDir(), "pid")
				extra := map[string]string{jobEnv: how, "PROC_TEST_PIDFILE": pidFile}
				ctx := context.Background()
				if timeout {
					extra["PROC_TEST_WAIT"] = "1"
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, 5*time.Second)
					defer cancel()
				}
				res, err := proc.Run(ctx, proc.Spec{Argv: []string{self, "-test.run=^TestJobHelperProcess$"}, Env: proc.Environ(extra)})
				if timeout != res.TimedOut {
					t.Fatalf("timed out %v: %+v %v", res.TimedOut, res, err)
				}
				b, err := os.ReadFile(pidFile)
				if err != nil {
					t.Fatalf("no pid: %v %+v", err, res)
				}
				if string(b) == "refused" {
					return // the job kept its child in
				}
				pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
				if pid <= 0 {
					t.Fatalf("pid %q", b)
				}
				if ostest.Alive(pid) {
					if p, err := os.FindProcess(pid); err == nil {
						_ = p.Kill()
					}
					t.Fatalf("pid %d (%s) outlived the run", pid, how)
				}
			})
		}
	}
}

// leakHelper writes its pid and the handle values of its stdin, stdout
// and stderr to $PROC_TEST_PIDFILE, waits for $PROC_TEST_PIDFILE.go, then
// prints "answer" and exits 3.
func leakHelper() {
	var line []string
	line = append(line, strconv.Itoa(os.Getpid()))
	for _, std := range []uint32{windows.STD_INPUT_HANDLE, windows.STD_OUTPUT_HANDLE, windows.STD_ERROR_HANDLE} {
		h, err := windows.GetStdHandle(std)
		if err != nil {
			os.Exit(1)
		}
		line = append(line, strconv.FormatUint(uint64(h), 10))
	}
	pidFile := os.Getenv("PROC_TEST_PIDFILE")
	if os.WriteFile(pidFile+".tmp", []byte(strings.Join(line, " ")), 0o644) != nil || os.Rename(pidFile+".tmp", pidFile) != nil {
		os.Exit(1)
	}
	for {
		if _, err := os.Stat(pidFile + ".go"); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	os.Stdout.WriteString("answer\n")
	os.Exit(3)
}

// TestPipeHeldOutsideTheJob: a process outside the run's job (here this
// test, which duplicates the hook's stdin, stdout and stderr handles
// into itself, as a hook can into explorer.exe) holds the pipes when the
// hook exits: they never reach EOF, os.Pipe's files take no deadline on
// Windows, and the stdin write never finishes; Run still returns the
// hook's exit status and output (the pending reads and write cancelled).
func TestPipeHeldOutsideTheJob(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	type result struct {
		res proc.Result
		err error
	}
	ran := make(chan result, 1)
	go func() {
		// More input than the pipe holds: the write waits for a reader.
		res, err := proc.Run(context.Background(), proc.Spec{
			Argv:  []string{self, "-test.run=^TestJobHelperProcess$"},
			Env:   proc.Environ(map[string]string{jobEnv: "leak", "PROC_TEST_PIDFILE": pidFile}),
			Stdin: make([]byte, 1<<20),
		})
		ran <- result{res, err}
	}()
	var fields []string
	for len(fields) != 4 {
		select {
		case r := <-ran:
			t.Fatalf("the hook ended before its pipes were taken: %+v %v", r.res, r.err)
		case <-time.After(10 * time.Millisecond):
		}
		if b, err := os.ReadFile(pidFile); err == nil {
			fields = strings.Fields(string(b))
		}
	}
	pid, _ := strconv.Atoi(fields[0])
	hp, err := windows.OpenProcess(windows.PROCESS_DUP_HANDLE, false, uint32(pid))
	if err != nil {
		t.Fatal(err)
	}
	defer windows.CloseHandle(hp)
	for _, f := range fields[1:] {
		v, _ := strconv.ParseUint(f, 10, 64)
		var h windows.Handle
		if err := windows.DuplicateHandle(hp, windows.Handle(v), windows.CurrentProcess(), &h, 0, false, windows.DUPLICATE_SAME_ACCESS); err != nil {
			t.Fatal(err)
		}
		defer windows.CloseHandle(h)
	}
	if err := os.WriteFile(pidFile+".go", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-ran:
		if r.err != nil || r.res.ExitCode != 3 || strings.TrimSpace(string(r.res.Stdout)) != "answer" {
			t.Fatalf("got %+v %v; want exit 3 and the answer", r.res, r.err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run waits for pipes held by a process outside the job")
	}
}
