//go:build linux

package proc_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/lib/proc"
)

// TestPipeHeldOutsideTheRun: a process that is not the run's (here this
// test, through /proc/PID/fd, as a handle duplicated into another
// process is on Windows) holds the hook's stdin, stdout and stderr pipes
// when the hook exits: they never reach EOF and the stdin write never
// finishes, yet Run returns the hook's exit status and output.
func TestPipeHeldOutsideTheRun(t *testing.T) {
	dir := t.TempDir()
	pidFile, goFile := filepath.Join(dir, "pid"), filepath.Join(dir, "go")
	script := `echo $$ > "$D/pid.tmp" && mv "$D/pid.tmp" "$D/pid"; while [ ! -e "$D/go" ]; do sleep 0.01; done; echo answer; exit 3`
	type result struct {
		res proc.Result
		err error
	}
	ran := make(chan result, 1)
	go func() {
		// More input than a pipe holds: the write waits for a reader.
		res, err := proc.Run(context.Background(), proc.Spec{Argv: []string{"sh", "-c", script}, Stdin: bytes.Repeat([]byte("x"), 1<<20), Env: proc.Environ(map[string]string{"D": dir})})
		ran <- result{res, err}
	}()
	var pid int
	for pid == 0 {
		select {
		case r := <-ran:
			t.Fatalf("the hook ended before its pipes were taken: %+v %v", r.res, r.err)
		case <-time.After(5 * time.Millisecond):
		}
		if b, err := os.ReadFile(pidFile); err == nil {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
	}
	for fd, flag := range []int{os.O_RDONLY, os.O_WRONLY, os.O_WRONLY} {
		f, err := os.OpenFile("/proc/"+strconv.Itoa(pid)+"/fd/"+strconv.Itoa(fd), flag, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
	}
	if err := os.WriteFile(goFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-ran:
		if r.err != nil || r.res.ExitCode != 3 || strings.TrimSpace(string(r.res.Stdout)) != "answer" {
			t.Fatalf("got %+v %v; want exit 3 and the answer", r.res, r.err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run waits for pipes held by a process outside the run")
	}
}
