package transcript_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/ostest"
	"github.com/hookctl/hookctl/internal/safefile"
	"github.com/hookctl/hookctl/lib/transcript"
)

// TestReadFileRefusesFIFO: a transcript_path naming a FIFO held ReadFile
// and LastAssistantText forever in open(2).
func TestReadFileRefusesFIFO(t *testing.T) {
	p := ostest.Mkfifo(t, filepath.Join(t.TempDir(), "t.jsonl"))
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := transcript.ReadFile(context.Background(), p, transcript.Options{}); !errors.Is(err, safefile.ErrNotRegular) {
			t.Errorf("ReadFile = %v", err)
		}
		if _, err := transcript.LastAssistantText(context.Background(), p); !errors.Is(err, safefile.ErrNotRegular) {
			t.Errorf("LastAssistantText = %v", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("blocked on a FIFO")
	}
}

// TestReadStopsWhenTheContextEnds: parsing looks at the context between
// lines, so a huge transcript cannot hold a hook past its deadline.
func TestReadStopsWhenTheContextEnds(t *testing.T) {
	line := `{"type":"user","message":{"role":"user","content":"x"}}` + "\n"
	data := strings.Repeat(line, 10000)
	p := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := transcript.Read(ctx, strings.NewReader(data), transcript.Options{MaxBytes: -1}); !errors.Is(err, context.Canceled) {
		t.Errorf("Read = %v", err)
	}
	if _, err := transcript.ReadFile(ctx, p, transcript.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadFile = %v", err)
	}
	if _, err := transcript.LastAssistantText(ctx, p); !errors.Is(err, context.Canceled) {
		t.Errorf("LastAssistantText = %v", err)
	}
}
