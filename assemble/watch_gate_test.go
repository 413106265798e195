package assemble_test

import (
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookctl/hookctl/assemble"
)

// TestWatchGate: a gate refuses the first load before the file is parsed,
// refuses a reload while the last good configuration keeps serving, and a
// change of a file added with WatchFiles retries the load.
func TestWatchGate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.hcl")
	stamp := filepath.Join(dir, "stamp")
	write := newFileWriter(t).write
	hook := func(reason string) string {
		return "hook \"gate\" {\n  event    = \"PreToolUse\"\n  decision = \"deny\"\n  reason   = \"" + reason + "\"\n}\n"
	}
	errRefused := errors.New("refused")
	var refuse atomic.Bool
	var gated atomic.Int32
	gate := assemble.WithGate(func(p string) error {
		gated.Add(1)
		if p != path {
			t.Errorf("gate got %q", p)
		}
		if refuse.Load() {
			return errRefused
		}
		return nil
	})
	write(stamp, "1")

	// The first load is refused, even for a file that does not parse.
	write(path, "not hcl {")
	refuse.Store(true)
	if _, err := assemble.Watch(newEngine(t), path, gate); !errors.Is(err, errRefused) {
		t.Fatalf("first load: %v", err)
	}

	write(path, hook("v1"))
	refuse.Store(false)
	e := newEngine(t)
	var failures atomic.Int32
	reloaded := make(chan struct{}, 1) // a reload was tried since the last look
	w, err := assemble.Watch(e, path, gate, assemble.WithInterval(10*time.Millisecond),
		assemble.WatchFiles(func() []string { return []string{stamp} }),
		assemble.OnReload(func(_ *assemble.Config, err error) {
			if err != nil {
				if !errors.Is(err, errRefused) {
					t.Errorf("reload: %v", err)
				}
				failures.Add(1)
			}
			select {
			case reloaded <- struct{}{}:
			default:
			}
		}))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		w.Close()
		w.Config().Close()
	}()
	reason := func() string { return fire(t, e, "PreToolUse", nil).Reason }
	waitFor := func(cond func() bool) {
		t.Helper()
		for !cond() {
			select {
			case <-reloaded:
			case <-time.After(time.Minute): // a guard against a hang, not a measure
				t.Fatal("the watcher never reloaded")
			}
		}
	}
	if reason() != "v1" {
		t.Fatal(reason())
	}

	refuse.Store(true)
	write(path, hook("v2"))
	waitFor(func() bool { return failures.Load() > 0 })
	if reason() != "v1" {
		t.Fatalf("a refused configuration replaced the good one: %q", reason())
	}

	// The configuration does not change again; the file the gate reads
	// does, and the load is tried again.
	refuse.Store(false)
	write(stamp, "22")
	waitFor(func() bool { return reason() == "v2" })
}
