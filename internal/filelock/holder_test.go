package filelock

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// holdEnv names the lock a re-executed test binary takes and holds
// until it is killed.
const holdEnv = "FILELOCK_TEST_HOLD"

func TestMain(m *testing.M) {
	if path := os.Getenv(holdEnv); path != "" {
		if _, err := Lock(context.Background(), path, true); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		fmt.Println("held")
		io.Copy(io.Discard, os.Stdin) // until killed
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestLockFreedWhenHolderDies: a lock held by another process keeps this
// one out, and once that process is killed (SIGKILL; TerminateProcess on
// Windows) the lock is free at once. A lock file created exclusively
// failed this: the dead holder's file stayed, a fresh one, and every
// waiter was kept out until it was old enough to be judged stale (30 s).
func TestLockFreedWhenHolderDies(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), holdEnv+"="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if line != "held\n" {
		t.Fatalf("holder: %q, %v", line, err)
	}

	gone, cancel := context.WithCancel(t.Context())
	cancel()
	if u, err := Lock(gone, path, true); err == nil {
		u()
		t.Fatal("a lock another process holds was taken")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	// Windows releases a dead process's locks on its own schedule, soon
	// but not necessarily before Wait returns: a waiter gets it then.
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	unlock, err := Lock(ctx, path, true)
	if err != nil {
		t.Fatalf("the lock of a killed holder: %v", err)
	}
	unlock()
}
