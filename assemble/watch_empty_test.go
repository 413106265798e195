package assemble_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookctl/hookctl/assemble"
)

// TestReloadNeverSwapsInAHalfWrittenFile: a reload that reads the file
// between an editor's truncate and write sees no hooks; it is refused
// (ErrUnstable) and the last good configuration keeps serving. A
// configuration emptied on purpose, which holds still, is swapped in.
func TestReloadNeverSwapsInAHalfWrittenFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.hcl")
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const v1 = "hook \"guard-v1\" {\n  event    = \"PreToolUse\"\n  decision = \"deny\"\n  reason   = \"v1\"\n}\n"
	const v2 = "hook \"guard-v2\" {\n  event    = \"PreToolUse\"\n  decision = \"deny\"\n  reason   = \"v2\"\n}\n"
	write(v1)
	eng, err := assemble.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	w, err := assemble.Watch(eng, path, assemble.WithInterval(time.Hour), assemble.WithSettle(300*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	reason := func() string {
		t.Helper()
		return fire(t, eng, "PreToolUse", map[string]any{"tool_name": "Bash"}).Reason
	}

	// Truncated now, written 50 ms later: the reload sees an empty file.
	write("")
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(50 * time.Millisecond)
		write(v2)
	}()
	if err := w.Reload(); !errors.Is(err, assemble.ErrUnstable) {
		t.Fatalf("reload of a half-written file: %v", err)
	}
	<-done
	if got := reason(); got != "v1" {
		t.Fatalf("after the refused reload the deny is %q, want v1 still", got)
	}
	if err := w.Reload(); err != nil || reason() != "v2" {
		t.Fatalf("the complete file: %v, reason %q", err, reason())
	}

	// Emptied on purpose and left so: swapped in after the settle time.
	write("# no hooks for now\n")
	if err := w.Reload(); err != nil {
		t.Fatal(err)
	}
	if got := reason(); got != "" {
		t.Fatalf("a configuration emptied on purpose still denies: %q", got)
	}
}
