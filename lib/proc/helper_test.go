package proc_test

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// spawnEnv makes the test binary a hook's child that starts a long sleep
// which escapes the hook's process group: "setsid" (a new session) or
// "setpgid" (a group of its own). It writes the sleep's pid to
// $PROC_TEST_PIDFILE, then exits when $PROC_TEST_EXIT is set (the sleep
// is left an orphan) or waits for it.
const spawnEnv = "PROC_TEST_SPAWN"

func TestMain(m *testing.M) {
	if how := os.Getenv(spawnEnv); how != "" {
		os.Exit(spawn(how))
	}
	os.Exit(m.Run())
}

func spawn(how string) int {
	cmd := exec.Command("sleep", "300")
	cmd.SysProcAttr = escape(how)
	if err := cmd.Start(); err != nil {
		return 1
	}
	tmp := os.Getenv("PROC_TEST_PIDFILE") + ".tmp"
	if os.WriteFile(tmp, []byte(strconv.Itoa(cmd.Process.Pid)), 0o644) != nil || os.Rename(tmp, os.Getenv("PROC_TEST_PIDFILE")) != nil {
		return 1
	}
	if os.Getenv("PROC_TEST_EXIT") != "" {
		return 0
	}
	cmd.Wait()
	time.Sleep(time.Hour)
	return 0
}
