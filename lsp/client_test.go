package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// client is a scripted LSP client speaking JSON-RPC to a server over
// pipes, as an editor does.
type client struct {
	t     *testing.T
	w     io.Writer
	mu    sync.Mutex
	next  int
	resp  map[int]chan rpcResponse
	diags chan PublishDiagnosticsParams
	// nullID receives the error replies whose id is null (a message
	// whose id could not be read).
	nullID chan rpcResponse
	done   chan error
}

type rpcResponse struct {
	ID     *int            `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// startServer runs srv on pipes and returns a client of it; Serve's
// result arrives on c.done.
func startServer(t *testing.T, srv *Server) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, w: inW, resp: map[int]chan rpcResponse{}, diags: make(chan PublishDiagnosticsParams, 100), nullID: make(chan rpcResponse, 100), done: make(chan error, 1)}
	go func() {
		err := srv.Serve(context.Background(), inR, outW)
		outW.Close()
		c.done <- err
	}()
	go c.read(bufio.NewReader(outR))
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return c
}

func readMessage(r *bufio.Reader) ([]byte, error) {
	n := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
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
	_, err := io.ReadFull(r, body)
	return body, err
}

func (c *client) read(r *bufio.Reader) {
	for {
		body, err := readMessage(r)
		if err != nil {
			return
		}
		var m rpcResponse
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Errorf("server sent invalid JSON: %s", body)
			return
		}
		switch {
		case m.Method == "textDocument/publishDiagnostics":
			var p PublishDiagnosticsParams
			_ = json.Unmarshal(m.Params, &p)
			c.diags <- p
		case m.ID == nil && m.Method == "" && m.Error != nil:
			c.nullID <- m
		case m.ID != nil:
			c.mu.Lock()
			ch := c.resp[*m.ID]
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		}
	}
}

func (c *client) send(v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.raw(b)
}

func (c *client) raw(b []byte) {
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(b), b); err != nil {
		c.t.Fatal(err)
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// start sends a request and returns the channel of its response.
func (c *client) start(method string, params any) (int, chan rpcResponse) {
	c.t.Helper()
	c.mu.Lock()
	c.next++
	id := c.next
	ch := make(chan rpcResponse, 1)
	c.resp[id] = ch
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return id, ch
}

// call sends a request and waits for its response. The minute is a
// guard against a hang, not a measure.
func (c *client) call(method string, params any) rpcResponse {
	c.t.Helper()
	_, ch := c.start(method, params)
	return c.wait(ch)
}

func (c *client) wait(ch chan rpcResponse) rpcResponse {
	c.t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(time.Minute):
		c.t.Fatal("no response")
		return rpcResponse{}
	}
}

// diagnostics waits for the next diagnostics published for uri.
func (c *client) diagnostics(uri string) PublishDiagnosticsParams {
	c.t.Helper()
	for {
		select {
		case p := <-c.diags:
			if p.URI == uri {
				return p
			}
		case <-time.After(time.Minute):
			c.t.Fatalf("no diagnostics for %s", uri)
		}
	}
}

func (c *client) initialize() {
	c.t.Helper()
	r := c.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}})
	if r.Error != nil {
		c.t.Fatalf("initialize: %+v", r.Error)
	}
	c.notify("initialized", map[string]any{})
}

func (c *client) open(uri, text string) {
	c.notify("textDocument/didOpen", map[string]any{"textDocument": TextDocumentItem{URI: uri, LanguageID: "hcl", Version: 1, Text: text}})
}

func (c *client) change(uri string, version int, text string) {
	c.notify("textDocument/didChange", DidChangeTextDocumentParams{
		TextDocument:   VersionedTextDocumentIdentifier{URI: uri, Version: version},
		ContentChanges: []TextDocumentContentChangeEvent{{Text: text}},
	})
}

// at returns the position of the n-th (0-based) occurrence of mark in
// text, plus shift UTF-16 units.
func at(t *testing.T, text, mark string, shift int) Position {
	t.Helper()
	i := strings.Index(text, mark)
	if i < 0 {
		t.Fatalf("%q not in the text", mark)
	}
	return positionOf([]byte(text), i+shift)
}

func pos(uri string, p Position) TextDocumentPositionParams {
	return TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{URI: uri}, Position: p}
}

func (c *client) shutdown() {
	c.t.Helper()
	if r := c.call("shutdown", nil); r.Error != nil {
		c.t.Fatalf("shutdown: %+v", r.Error)
	}
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		if err != nil {
			c.t.Fatalf("Serve after shutdown and exit: %v", err)
		}
	case <-time.After(time.Minute):
		c.t.Fatal("the server did not exit")
	}
}
