package ostest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/hookctl/hookctl/internal/ostest"
)

func TestAliveSeesThisProcessAndNotAnEndedOne(t *testing.T) {
	if !ostest.Alive(os.Getpid()) {
		t.Fatal("this process is not alive")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if ostest.Alive(cmd.Process.Pid) {
		t.Fatalf("ended process %d is alive", cmd.Process.Pid)
	}
}

func TestMkfifoMakesAPipe(t *testing.T) {
	p := ostest.Mkfifo(t, filepath.Join(t.TempDir(), "f"))
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("mode %v", fi.Mode())
	}
}
