package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/ostest"
)

// TestExitWithACheckStuck: exit ends Serve even while a check is stuck
// (in the kernel, deaf to its context), so the editor's lsp process
// exits.
func TestExitWithACheckStuck(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	// Released after Serve has returned, for the goroutine leak check.
	t.Cleanup(func() { close(release) })
	check := func(context.Context, CheckRequest) []hcl.Diagnostic {
		close(started)
		<-release // ignores its context, as an open(2) of a FIFO does
		return nil
	}
	uri := pathURI(filepath.Join(t.TempDir(), "hooks.hcl"))
	c := startServer(t, New(WithChecker(check)))
	c.initialize()
	c.open(uri, "\n")
	<-started
	c.shutdown() // fails unless Serve returns
}

// TestFIFOInTheDirectory: a FIFO named *.hcl beside the open buffer is
// refused without blocking; the buffer's own error and the refusal are
// published, and later edits are checked.
func TestFIFOInTheDirectory(t *testing.T) {
	dir := t.TempDir()
	ostest.Mkfifo(t, filepath.Join(dir, "z.hcl"))
	file := filepath.Join(dir, "hooks.hcl")
	if err := os.WriteFile(file, []byte("hook \"a\" {\n  event = \"Stop\"\n  decision = \"block\"\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	uri := pathURI(file)
	c := startServer(t, New())
	c.initialize()
	c.open(uri, "hook \"a\" {\n  event = \"Stpo\"\n  decision = \"block\"\n}\n")
	p := c.diagnostics(uri)
	var msgs []string
	for _, d := range p.Diagnostics {
		msgs = append(msgs, d.Message)
	}
	all := strings.Join(msgs, "\n")
	if !strings.Contains(all, "Stpo") || !strings.Contains(all, "z.hcl is a FIFO, not a regular file: refused") {
		t.Errorf("diagnostics of the buffer: %q, want the unknown event and the refused FIFO", msgs)
	}
	c.shutdown()
}
