package safefile_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
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
