package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// TestUnanswerableIDs: a batch, an id that is an object, an array or a
// fraction, and a body that is not JSON each get an error reply with a
// null id (JSON-RPC 2.0), and the server goes on.
func TestUnanswerableIDs(t *testing.T) {
	c := startServer(t, New(WithChecker(nilChecker)))
	c.initialize()
	for _, tc := range []struct {
		body string
		code int
	}{
		{`[{"jsonrpc":"2.0","id":99,"method":"textDocument/hover"}]`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"textDocument/hover"}`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":[1],"method":"textDocument/hover"}`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":1.5,"method":"textDocument/hover"}`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":`, codeParseError},
	} {
		c.raw([]byte(tc.body))
		select {
		case r := <-c.nullID:
			if r.Error.Code != tc.code {
				t.Errorf("%s: error %+v, want code %d", tc.body, r.Error, tc.code)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%s: no error reply with a null id", tc.body)
		}
	}
	if r := c.call("textDocument/hover", pos("file:///nowhere/x.hcl", Position{})); r.Error != nil {
		t.Errorf("hover after them: %+v", r)
	}
	c.shutdown()
}

// TestUncleanAndUntitledURIs: diagnostics go to the URI the editor
// opened the buffer by, even when it is not the clean one; an untitled
// buffer gets a note that it is checked once saved.
func TestUncleanAndUntitledURIs(t *testing.T) {
	dir := t.TempDir()
	check := func(_ context.Context, req CheckRequest) []hcl.Diagnostic {
		return []hcl.Diagnostic{{File: filepath.Join(req.Dir, "hooks.hcl"), Line: 1, Column: 1, EndLine: 1, EndColumn: 2, Severity: hcl.SeverityError, Summary: "seen"}}
	}
	c := startServer(t, New(WithChecker(check)))
	c.initialize()
	for _, uri := range []string{
		"file://" + filepath.ToSlash(dir) + "/nonexistent/../hooks.hcl",
		"file://" + filepath.ToSlash(dir) + "/%2e%2e/" + filepath.Base(dir) + "/hooks.hcl",
	} {
		c.open(uri, "\n")
		if p := c.diagnostics(uri); len(p.Diagnostics) != 1 || p.Diagnostics[0].Message != "seen" {
			t.Errorf("%s: %+v", uri, p.Diagnostics)
		}
		c.notify("textDocument/didClose", map[string]any{"textDocument": TextDocumentIdentifier{URI: uri}})
	}
	c.open("untitled:Untitled-1", "hook \"a\" {\n")
	if p := c.diagnostics("untitled:Untitled-1"); len(p.Diagnostics) != 1 || p.Diagnostics[0].Severity != SeverityInformation || !strings.Contains(p.Diagnostics[0].Message, "once it is saved") {
		t.Errorf("untitled: %+v", p.Diagnostics)
	}
	c.shutdown()
}
