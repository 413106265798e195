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
// and exit, or wait when $PROC_TEST_WAIT is set) or the sleeper ("sleep").
const jobEnv = "PROC_TEST_JOB"

func TestJobHelperProcess(t *testing.T) {
	how := os.Getenv(jobEnv)
	switch how {
	case "":
		return
	case "sleep":
		time.Sleep(time.Hour)
		os.Exit(0)
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
