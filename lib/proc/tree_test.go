//go:build linux || darwin

package proc_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/ostest"
	"github.com/hookctl/hookctl/lib/proc"
)

// TestNothingOutlivesTheRun: a descendant that left the hook's process
// group (a new session, a group of its own), whether its parent still
// runs or left it an orphan, is dead when Run returns, on a timeout and
// after the hook's own exit alike.
func TestNothingOutlivesTheRun(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, how := range []string{"setsid", "setpgid"} {
		for _, orphan := range []bool{false, true} {
			for _, timeout := range []bool{true, false} {
				name := how
				if orphan {
					name += "/orphan"
				}
				if timeout {
					name += "/timeout"
				} else {
					name += "/exit"
				}
				t.Run(name, func(t *testing.T) {
					pidFile := filepath.Join(t.TempDir(), "pid")
					script := `"$SELF" & while [ ! -e "$PROC_TEST_PIDFILE" ]; do sleep 0.01; done; `
					if timeout {
						script += "sleep 300"
					} else {
						script += "exit 0"
					}
					extra := map[string]string{"SELF": self, spawnEnv: how, "PROC_TEST_PIDFILE": pidFile}
					if orphan {
						extra["PROC_TEST_EXIT"] = "1"
					}
					ctx := context.Background()
					if timeout {
						var cancel context.CancelFunc
						ctx, cancel = context.WithTimeout(ctx, 2*time.Second)
						defer cancel()
					}
					res, err := proc.Run(ctx, proc.Spec{Argv: []string{"sh", "-c", script}, Env: proc.Environ(extra)})
					if timeout != res.TimedOut {
						t.Fatalf("timed out %v: %+v %v", res.TimedOut, res, err)
					}
					b, err := os.ReadFile(pidFile)
					if err != nil {
						t.Fatalf("no pid: %v %+v", err, res)
					}
					pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
					if pid <= 0 {
						t.Fatalf("pid %q", b)
					}
					if ostest.Alive(pid) {
						syscall.Kill(pid, syscall.SIGKILL)
						t.Fatalf("pid %d (%s) outlived the run", pid, how)
					}
				})
			}
		}
	}
}
