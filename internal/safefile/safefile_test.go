package safefile_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/ostest"
	"github.com/hookctl/hookctl/internal/safefile"
)

// fifo makes a FIFO no process writes to: opening it for reading without
// O_NONBLOCK, or reading it, blocks forever.
func fifo(t *testing.T) string {
	t.Helper()
	return ostest.Mkfifo(t, filepath.Join(t.TempDir(), "fifo"))
}

// within fails the test unless f returns within d.
func within(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still blocked after %v", d)
	}
}

func TestRefusesFIFOWithoutBlocking(t *testing.T) {
	p := fifo(t)
	within(t, 5*time.Second, func() {
		_, err := safefile.Open(p)
		if !errors.Is(err, safefile.ErrNotRegular) {
			t.Errorf("Open(fifo) = %v, want ErrNotRegular", err)
		}
		_, err = safefile.ReadFile(context.Background(), p, 10)
		if !errors.Is(err, safefile.ErrNotRegular) {
			t.Errorf("ReadFile(fifo) = %v, want ErrNotRegular", err)
		}
		_, err = safefile.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if !errors.Is(err, safefile.ErrNotRegular) {
			t.Errorf("OpenFile(fifo) = %v, want ErrNotRegular", err)
		}
		_, err = safefile.OpenDir(p)
		if !errors.Is(err, safefile.ErrNotRegular) {
			t.Errorf("OpenDir(fifo) = %v, want ErrNotRegular", err)
		}
	})
}

func TestRefusesDevicesAndPseudoFiles(t *testing.T) {
	for _, p := range []string{"/dev/zero", "/dev/null", "/proc/self/status", "/proc/self/fd/0", "/sys/kernel/mm/transparent_hugepage/enabled"} {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		if _, err := safefile.ReadFile(context.Background(), p, 1<<20); !errors.Is(err, safefile.ErrNotRegular) {
			t.Errorf("ReadFile(%s) = %v, want ErrNotRegular", p, err)
		}
	}
}

func TestReadFileBoundsSize(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := safefile.ReadFile(context.Background(), p, 1000)
	if err != nil || len(b) != 1000 {
		t.Fatalf("read %d bytes, %v", len(b), err)
	}
	b, err = safefile.ReadFile(context.Background(), p, 10<<20)
	if err != nil || len(b) != 1<<20 {
		t.Fatalf("read %d bytes, %v", len(b), err)
	}
	if _, err := safefile.ReadFile(context.Background(), filepath.Dir(p), 10); !errors.Is(err, safefile.ErrNotRegular) {
		t.Fatalf("ReadFile(dir) = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := safefile.ReadFile(ctx, p, 10); !errors.Is(err, context.Canceled) {
		t.Fatalf("ReadFile with an ended context = %v", err)
	}
}

func TestBoundedGivesUpAtTheDeadline(t *testing.T) {
	stuck := make(chan struct{})
	released := make(chan int, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	within(t, 5*time.Second, func() {
		_, err := safefile.Bounded(ctx, func(context.Context) (int, error) {
			<-stuck // an operation stuck in the kernel
			return 7, nil
		}, func(v int) { released <- v })
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Bounded = %v, want DeadlineExceeded", err)
		}
	})
	close(stuck)
	select {
	case v := <-released:
		if v != 7 {
			t.Fatalf("released %d", v)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the late result was not released")
	}
}

// TestOpenFileRefusesFinalSymlink: a file to be written whose path is a
// symbolic link (to a regular file, to a missing one, to /dev/stdout) is
// refused with a *SymlinkError naming it, and the link's target is neither
// created, truncated nor appended to. Links in the directories above are
// followed.
func TestOpenFileRefusesFinalSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := func(name, to string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(to, p); err != nil {
			t.Skip(err)
		}
		return p
	}
	toFile := link("to-file", target)
	missing := filepath.Join(dir, "missing")
	dangling := link("dangling", missing)
	stdout := link("stdout", "/dev/stdout")
	for _, p := range []string{toFile, dangling, stdout} {
		for _, flag := range []int{os.O_WRONLY | os.O_APPEND | os.O_CREATE, os.O_WRONLY | os.O_CREATE | os.O_TRUNC} {
			f, err := safefile.OpenFile(p, flag, 0o600)
			var se *safefile.SymlinkError
			if !errors.As(err, &se) || !errors.Is(err, safefile.ErrSymlink) || se.Path != p {
				if f != nil {
					f.Close()
				}
				t.Fatalf("OpenFile(%s, %#x) = %v, want a *SymlinkError naming it", p, flag, err)
			}
			if !strings.Contains(err.Error(), p+" is a symbolic link: refused") {
				t.Errorf("error %q does not say what was refused", err)
			}
		}
		if err := safefile.WriteFile(p, []byte("x"), 0o600); !errors.Is(err, safefile.ErrSymlink) {
			t.Errorf("WriteFile(%s) = %v, want ErrSymlink", p, err)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("the link's target was written: %q", b)
	}
	if _, err := os.Lstat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dangling link's target was created: %v", err)
	}

	// A directory link above the file is followed: only the last name
	// is checked.
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	viaDir := filepath.Join(link("dirlink", sub), "log")
	if err := safefile.WriteFile(viaDir, []byte("ok"), 0o600); err != nil {
		t.Fatalf("WriteFile through a directory link: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(sub, "log")); string(b) != "ok" {
		t.Errorf("through a directory link: %q", b)
	}
}

// TestOpenFileOwnRefusesHardLinks: OpenFileOwn and WriteFileOwn refuse a
// file with another hard link (an audit log or a report linked, after
// trust, to a file elsewhere) and leave it untouched; OpenFile does not
// look at the link count.
func TestOpenFileOwnRefusesHardLinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the link count is not read on Windows")
	}
	dir := t.TempDir()
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "report.xml")
	if err := os.Link(other, name); err != nil {
		t.Fatal(err)
	}
	if err := safefile.WriteFileOwn(name, []byte("x"), 0o600); !errors.Is(err, safefile.ErrHardLink) || !strings.Contains(err.Error(), name) {
		t.Errorf("WriteFileOwn on a hard link = %v, want ErrHardLink naming it", err)
	}
	if _, err := safefile.OpenFileOwn(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600); !errors.Is(err, safefile.ErrHardLink) {
		t.Errorf("OpenFileOwn on a hard link = %v, want ErrHardLink", err)
	}
	if b, _ := os.ReadFile(other); string(b) != "keep" {
		t.Errorf("the other name was written: %q", b)
	}
	fresh := filepath.Join(dir, "fresh")
	if err := safefile.WriteFileOwn(fresh, []byte("x"), 0o600); err != nil {
		t.Errorf("WriteFileOwn on a new file: %v", err)
	}
	if err := safefile.CheckDir(fresh); !errors.Is(err, safefile.ErrNotDir) {
		t.Errorf("CheckDir on a file = %v, want ErrNotDir", err)
	}
}

func TestReadRegularRefusesFIFO(t *testing.T) {
	p := ostest.Mkfifo(t, filepath.Join(t.TempDir(), "z.hcl"))
	// Without O_NONBLOCK this open waits for a writer forever.
	_, err := safefile.ReadRegular(p)
	var nr *safefile.NotRegularError
	if !errors.As(err, &nr) || nr.Kind != "a FIFO" {
		t.Fatalf("ReadRegular(FIFO) = %v, want a *NotRegularError for a FIFO", err)
	}
	if !strings.Contains(err.Error(), "z.hcl is a FIFO, not a regular file: refused") {
		t.Errorf("error = %q", err)
	}
}

func TestReadRegularReadsAFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "hooks.hcl")
	want := strings.Repeat("hook \"a\" {}\n", 10000)
	if err := os.WriteFile(p, []byte(want), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := safefile.ReadRegular(p)
	if err != nil || string(got) != want {
		t.Fatalf("ReadRegular = %d bytes, %v; want %d bytes", len(got), err, len(want))
	}
}
