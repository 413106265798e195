package jsonl_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/filelock"
	"github.com/hookctl/hookctl/internal/ostest"
	"github.com/hookctl/hookctl/internal/safefile"
	"github.com/hookctl/hookctl/lib/jsonl"
)

// TestAppendRefusesFIFO: opening a FIFO for writing blocks until a reader
// comes; a log path naming one is refused at once.
func TestAppendRefusesFIFO(t *testing.T) {
	p := ostest.Mkfifo(t, filepath.Join(t.TempDir(), "log.jsonl"))
	done := make(chan error, 1)
	go func() { done <- jsonl.Append(context.Background(), p, map[string]any{"a": 1}, jsonl.Options{}) }()
	select {
	case err := <-done:
		if !errors.Is(err, safefile.ErrNotRegular) {
			t.Fatalf("Append = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("blocked on a FIFO")
	}
}

// TestAppendLockWaitEndsWithTheContext: a lock held by a stuck process
// held every append forever (the wait ignored any deadline).
func TestAppendLockWaitEndsWithTheContext(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log.jsonl")
	unlock, err := filelock.Lock(context.Background(), p+".lock", true)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = jsonl.Append(ctx, p, map[string]any{"a": 1}, jsonl.Options{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Append = %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
}
