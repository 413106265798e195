package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestLSPProcess: a real `hookctl lsp` process over stdio initializes,
// publishes a diagnostic with its code for a buffer with an error, and
// exits with status 0 after shutdown and exit. The minute is a guard
// against a hang, not a measure.
func TestLSPProcess(t *testing.T) {
	bin, err := exec.LookPath("hookctl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "lsp")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOOKCTL_CONFIG=", "HOOKCTL_STATE_DIR="+filepath.Join(dir, "state"))
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(outPipe)
	send := func(v any) {
		b, _ := json.Marshal(v)
		if _, err := fmt.Fprintf(in, "Content-Length: %d\r\n\r\n%s", len(b), b); err != nil {
			t.Fatal(err)
		}
	}
	type message struct {
		ID     *int            `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Params json.RawMessage `json:"params"`
		Error  json.RawMessage `json:"error"`
	}
	recv := func() message {
		n := -1
		for {
			line, err := out.ReadString('\n')
			if err != nil {
				t.Fatalf("reading: %v (stderr: %s)", err, stderr.String())
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				n, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(out, body); err != nil {
			t.Fatal(err)
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
		return m
	}

	send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}})
	if m := recv(); m.ID == nil || *m.ID != 1 || !strings.Contains(string(m.Result), `"completionProvider"`) {
		t.Fatalf("initialize: %+v", m)
	}
	send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, "hooks.hcl"))}).String()
	send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "hcl", "version": 1, "text": "hook \"a\" {\n  event = \"Stp\"\n  decision = \"block\"\n}\n"}}})
	m := recv()
	if m.Method != "textDocument/publishDiagnostics" || !strings.Contains(string(m.Params), `"code":"HK1301"`) || !strings.Contains(string(m.Params), `"start":{"line":1,"character":10}`) {
		t.Fatalf("diagnostics: %s %s", m.Method, m.Params)
	}
	send(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
	if m := recv(); m.ID == nil || *m.ID != 2 || m.Error != nil {
		t.Fatalf("shutdown: %+v", m)
	}
	send(map[string]any{"jsonrpc": "2.0", "method": "exit"})
	if err := cmd.Wait(); err != nil {
		t.Fatalf("hookctl lsp: %v (stderr: %s)", err, stderr.String())
	}
}
