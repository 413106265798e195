package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/safefile"
)

// JSON-RPC and LSP error codes.
const (
	codeParseError           = -32700
	codeInvalidRequest       = -32600
	codeMethodNotFound       = -32601
	codeInvalidParams        = -32602
	codeServerNotInitialized = -32002
	codeRequestCancelled     = -32800
)

// ErrExitWithoutShutdown is Serve's error when the client sent exit
// without shutdown first (the process should exit with status 1).
var ErrExitWithoutShutdown = errors.New("lsp: exit without shutdown")

// Server is a language server for hookctl configurations and test files.
// Build it with New and run it on one connection with Serve.
type Server struct {
	opts options
	// win says whether file: URIs name Windows paths (hostWindows; a
	// test sets it to check Windows' rules on another system).
	win bool

	mu          sync.Mutex
	docs        map[string]*document // by docKey of the path
	checks      map[checkKey]*checkState
	inflight    map[jsonrpc2.ID]context.CancelFunc
	initialized bool
	shutdown    bool
	conn        *jsonrpc2.Conn
	exit        chan error
	// started, when set (by tests), is called by each request's
	// goroutine before it answers.
	started func()
	// waiting, when set (by tests), is called with the end-of-input
	// channel before Serve waits for the connection to end.
	waiting func(eof <-chan struct{})
	// reqs are the requests being answered, wg the background checks.
	reqs sync.WaitGroup
	wg   sync.WaitGroup
}

// document is an open buffer.
type document struct {
	uri, path string
	version   int
	text      []byte
}

// New returns a server; see the Option functions.
func New(opts ...Option) *Server {
	o := options{
		logger: slog.New(slog.DiscardHandler),
		schema: defaultSchema(),
	}
	for _, opt := range opts {
		opt(&o)
	}
	if o.check == nil {
		o.check = defaultChecker(o)
	}
	if o.events == nil {
		o.events = engine.BuiltinEvents
	}
	return &Server{
		opts:     o,
		docs:     map[string]*document{},
		win:      hostWindows,
		checks:   map[checkKey]*checkState{},
		inflight: map[jsonrpc2.ID]context.CancelFunc{},
		exit:     make(chan error, 1),
	}
}

// Serve speaks LSP on r and w until the client sends exit (nil after a
// shutdown, ErrExitWithoutShutdown otherwise), r ends, or ctx is done;
// it then cancels the configuration checks under way and returns without
// waiting for them.
// Requests are answered concurrently; a configuration check runs in the
// background and never holds up reading. A Server serves one connection.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	in := &holdReader{r: r, eof: make(chan struct{}), release: make(chan struct{})}
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(readWriteCloser{in, w}, codec{}), handler{s},
		jsonrpc2.SetLogger(slogLogger{s.opts.logger}))
	if s.waiting != nil {
		s.waiting(in.eof)
	}
	var err error
	select {
	case err = <-s.exit:
	case <-in.eof:
		err = s.exitBefore()
	case <-conn.DisconnectNotify():
		err = s.exitBefore()
	case <-ctx.Done():
		err = ctx.Err()
	}
	// The answers under way are sent before the connection closes.
	s.reqs.Wait()
	close(in.release)
	cancel()
	s.mu.Lock()
	for _, st := range s.checks {
		if st.cancel != nil {
			st.cancel()
		}
	}
	s.mu.Unlock()
	conn.Close()
	// The checks are not waited for: one stuck in the kernel (a file on
	// a hung mount) would keep the editor's process alive forever after
	// exit. Cancelled, they end on their own; what they publish then
	// goes nowhere.
	return err
}

// exitBefore is the exit the client sent before its input ended, if any.
// The handler runs in the read loop, so an exit read before the end of the
// input is in s.exit before the end is seen; but Serve's select, finding
// both ready, picks either, and an exit without shutdown must be status 1
// every time.
func (s *Server) exitBefore() error {
	select {
	case err := <-s.exit:
		return err
	default:
		return nil
	}
}

// holdReader holds the end of the input back until release is closed:
// the connection closes itself at the end of its input, and the answers
// to the last requests must be written first.
type holdReader struct {
	r       io.Reader
	eof     chan struct{}
	release chan struct{}
	eofOnce sync.Once
}

func (h *holdReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if err != nil {
		h.eofOnce.Do(func() { close(h.eof) })
		<-h.release
	}
	return n, err
}

type readWriteCloser struct {
	io.Reader
	io.Writer
}

func (readWriteCloser) Close() error { return nil }

// slogLogger adapts the server's logger to jsonrpc2.Logger.
type slogLogger struct{ l *slog.Logger }

func (l slogLogger) Printf(format string, v ...any) { l.l.Debug(fmt.Sprintf(format, v...)) }

// handler dispatches the messages of one connection; it runs in the read
// loop, so it answers notifications in order and hands requests to
// goroutines.
type handler struct{ s *Server }

// Handle implements jsonrpc2.Handler.
func (h handler) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	h.s.handle(ctx, conn, req)
}

func (s *Server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	defer func() {
		if p := recover(); p != nil {
			s.opts.logger.Error("lsp: handler panicked", "method", req.Method, "panic", p)
			if !req.Notif {
				_ = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: fmt.Sprint(p)})
			}
		}
	}()
	params := func(v any) bool {
		if req.Params == nil {
			return false
		}
		return json.Unmarshal(*req.Params, v) == nil
	}
	reply := func(result any, err *jsonrpc2.Error) {
		if req.Notif {
			return
		}
		if err != nil {
			_ = conn.ReplyWithError(ctx, req.ID, err)
			return
		}
		_ = conn.Reply(ctx, req.ID, result)
	}
	s.mu.Lock()
	if s.conn == nil {
		s.conn = conn // the background checks publish on it
	}
	initialized, shutdown := s.initialized, s.shutdown
	s.mu.Unlock()

	switch req.Method {
	case "initialize":
		var p InitializeParams
		_ = params(&p)
		s.mu.Lock()
		s.initialized = true
		s.mu.Unlock()
		reply(InitializeResult{
			Capabilities: ServerCapabilities{
				TextDocumentSync:   TextDocumentSyncOptions{OpenClose: true, Change: 2, Save: SaveOptions{IncludeText: true}},
				CompletionProvider: CompletionOptions{TriggerCharacters: []string{"\"", ".", " ", "="}},
				HoverProvider:      true,
				DefinitionProvider: true,
			},
			ServerInfo: ServerInfo{Name: "hookctl", Version: s.opts.version},
		}, nil)
		return
	case "exit":
		var err error
		if !shutdown {
			err = ErrExitWithoutShutdown
		}
		select {
		case s.exit <- err:
		default:
		}
		return
	case "$/cancelRequest":
		var p CancelParams
		if params(&p) {
			var id jsonrpc2.ID
			if json.Unmarshal(p.ID, &id) == nil {
				s.mu.Lock()
				if c := s.inflight[id]; c != nil {
					c()
				}
				s.mu.Unlock()
			}
		}
		return
	case methodMalformed:
		var p struct {
			Error string
			Code  int64
		}
		_ = params(&p)
		s.opts.logger.Warn("lsp: malformed message", "error", p.Error)
		reply(nil, &jsonrpc2.Error{Code: p.Code, Message: "malformed message: " + p.Error})
		return
	}
	if !initialized {
		reply(nil, &jsonrpc2.Error{Code: codeServerNotInitialized, Message: "initialize first"})
		return
	}
	if shutdown && !req.Notif {
		reply(nil, &jsonrpc2.Error{Code: codeInvalidRequest, Message: "the server is shut down"})
		return
	}

	switch req.Method {
	case "initialized", "$/setTrace", "workspace/didChangeConfiguration", "workspace/didChangeWatchedFiles":
		return
	case "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		reply(nil, nil)
		return
	case "textDocument/didOpen":
		var p DidOpenTextDocumentParams
		if params(&p) {
			s.open(p.TextDocument)
		}
		return
	case "textDocument/didChange":
		var p DidChangeTextDocumentParams
		if params(&p) {
			s.change(p)
		}
		return
	case "textDocument/didSave":
		var p DidSaveTextDocumentParams
		if params(&p) {
			s.save(p)
		}
		return
	case "textDocument/didClose":
		var p DidCloseTextDocumentParams
		if params(&p) {
			s.close(p.TextDocument.URI)
		}
		return
	}

	var run func(ctx context.Context, p TextDocumentPositionParams) (any, error)
	switch req.Method {
	case "textDocument/completion":
		run = s.completion
	case "textDocument/hover":
		run = s.hover
	case "textDocument/definition":
		run = s.definition
	default:
		if !req.Notif {
			reply(nil, &jsonrpc2.Error{Code: codeMethodNotFound, Message: "method not found: " + req.Method})
		}
		return
	}
	var p TextDocumentPositionParams
	if !params(&p) {
		reply(nil, &jsonrpc2.Error{Code: codeInvalidParams, Message: "invalid params"})
		return
	}
	rctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	s.inflight[req.ID] = cancel
	s.mu.Unlock()
	s.reqs.Add(1)
	go func() {
		defer s.reqs.Done()
		defer func() {
			s.mu.Lock()
			delete(s.inflight, req.ID)
			s.mu.Unlock()
			cancel()
		}()
		defer func() {
			if x := recover(); x != nil {
				s.opts.logger.Error("lsp: request panicked", "method", req.Method, "panic", x)
				reply(nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: fmt.Sprint(x)})
			}
		}()
		if s.started != nil {
			s.started()
		}
		res, err := run(rctx, p)
		switch {
		case rctx.Err() != nil:
			reply(nil, &jsonrpc2.Error{Code: codeRequestCancelled, Message: "cancelled"})
		case err != nil:
			reply(nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()})
		default:
			reply(res, nil)
		}
	}()
}

// snapshot returns the text of the document at uri: the open buffer, or
// the file on disk.
func (s *Server) snapshot(uri string) (path string, text []byte, ok bool) {
	path, err := s.uriPath(uri)
	if err != nil {
		return "", nil, false
	}
	s.mu.Lock()
	d := s.docs[docKey(path, s.win)]
	s.mu.Unlock()
	if d != nil {
		path = d.path // as the buffer was opened
		return path, d.text, true
	}
	b, err := safefile.ReadRegular(path)
	return path, b, err == nil
}

func (s *Server) open(item TextDocumentItem) {
	path, err := s.uriPath(item.URI)
	if err != nil {
		s.unchecked(item.URI, err)
		return
	}
	s.mu.Lock()
	s.docs[docKey(path, s.win)] = &document{uri: item.URI, path: path, version: item.Version, text: []byte(item.Text)}
	s.mu.Unlock()
	s.schedule(path)
}

func (s *Server) change(p DidChangeTextDocumentParams) {
	path, err := s.uriPath(p.TextDocument.URI)
	if err != nil {
		return
	}
	s.mu.Lock()
	d := s.docs[docKey(path, s.win)]
	if d == nil {
		d = &document{uri: p.TextDocument.URI, path: path}
		s.docs[docKey(path, s.win)] = d
	}
	path = d.path
	text := d.text
	for _, c := range p.ContentChanges {
		if c.Range == nil {
			text = []byte(c.Text)
			continue
		}
		start, end := offsetOf(text, c.Range.Start), offsetOf(text, c.Range.End)
		if end < start {
			start, end = end, start
		}
		text = append(append(append([]byte(nil), text[:start]...), c.Text...), text[end:]...)
	}
	d.text, d.version = text, p.TextDocument.Version
	s.mu.Unlock()
	s.schedule(path)
}

func (s *Server) save(p DidSaveTextDocumentParams) {
	path, err := s.uriPath(p.TextDocument.URI)
	if err != nil {
		return
	}
	s.mu.Lock()
	if d := s.docs[docKey(path, s.win)]; d != nil && p.Text != nil {
		d.text = []byte(*p.Text)
	}
	s.mu.Unlock()
	s.schedule(path)
}

func (s *Server) close(uri string) {
	path, err := s.uriPath(uri)
	if err != nil {
		return
	}
	s.mu.Lock()
	delete(s.docs, docKey(path, s.win))
	s.mu.Unlock()
	// The file on disk is what counts now.
	s.schedule(path)
}

// unchecked tells the editor why the buffer at uri (an unsaved
// `untitled:` buffer, another scheme) gets no diagnostics: a
// configuration is checked with the other files of its directory, so a
// buffer is checked once it is saved as a file.
func (s *Server) unchecked(uri string, why error) {
	s.opts.logger.Info("lsp: buffer not checked", "uri", uri, "reason", why)
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	if conn == nil {
		return
	}
	_ = conn.Notify(context.Background(), "textDocument/publishDiagnostics", PublishDiagnosticsParams{
		URI: uri,
		Diagnostics: []Diagnostic{{
			Severity: SeverityInformation,
			Source:   "hookctl",
			Message:  "hookctl checks this buffer once it is saved as a .hcl file: a configuration is checked with the other files of its directory",
		}},
	})
}

// isHCL reports whether the server checks the file at path.
func isHCL(path string) bool { return filepath.Ext(path) == ".hcl" }

// testFile reports whether path is a test file.
func testFile(path string) bool { return hcl.IsTestFile(path) }
