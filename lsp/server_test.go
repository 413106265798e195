package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hookctl/hookctl/hcl"
)

func labels(t *testing.T, r rpcResponse) []string {
	t.Helper()
	if r.Error != nil {
		t.Fatalf("error: %+v", r.Error)
	}
	var l CompletionList
	if err := json.Unmarshal(r.Result, &l); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, it := range l.Items {
		out = append(out, it.Label)
	}
	return out
}

func hasAll(t *testing.T, got []string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("completion lacks %q (got %v)", w, got)
		}
	}
}

// broken has an unknown event on a line whose start holds a character of
// two UTF-16 units and four bytes: the range must count UTF-16 units.
const broken = `hook "🔒 guard" { event = "PreToolUze" }
`

const fixed = `hook "🔒 guard" {
  event    = "PreToolUse"
  matcher  = "Bash"
  decision = "deny"
}
`

// TestDiagnosticsAsYouType: an open buffer with an unknown event gets
// validate's diagnostic, with its code and a range in UTF-16 units, from
// the unsaved text; fixing it in the buffer clears it.
func TestDiagnosticsAsYouType(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "hooks.hcl")
	// The disk holds a valid file: the diagnostics must come from the
	// buffer.
	if err := os.WriteFile(file, []byte(fixed), 0o600); err != nil {
		t.Fatal(err)
	}
	uri := pathURI(file)
	c := startServer(t, New())
	c.initialize()

	c.open(uri, broken)
	p := c.diagnostics(uri)
	i := slices.IndexFunc(p.Diagnostics, func(d Diagnostic) bool { return d.Code == "HK1301" })
	if i < 0 {
		t.Fatalf("diagnostics: %+v", p.Diagnostics)
	}
	d := p.Diagnostics[i]
	start := at(t, broken, `"PreToolUze"`, 0)
	end := at(t, broken, `"PreToolUze"`, len(`"PreToolUze"`))
	if d.Code != "HK1301" || d.Severity != SeverityError || d.Range.Start != start || d.Range.End != end || !strings.Contains(d.Message, "Unknown event") {
		t.Errorf("diagnostic %+v, want HK1301 error at %v-%v", d, start, end)
	}
	if start.Character != 26 { // 28 in bytes, 25 in runes
		t.Fatalf("test's own arithmetic: %v", start)
	}

	c.change(uri, 2, fixed)
	p = c.diagnostics(uri)
	if len(p.Diagnostics) != 0 || p.Version == nil || *p.Version != 2 {
		t.Errorf("after the fix: %+v", p)
	}
	c.shutdown()
}

// TestDirectoryConfiguration: a buffer is checked with the other files of
// its directory (a duplicate hook id across two files), and a warning of
// lint.Check (a matcher on an event without a matcher field) comes as a
// warning.
func TestDirectoryConfiguration(t *testing.T) {
	dir := t.TempDir()
	other := "hook \"a\" {\n  event = \"PreToolUse\"\n  decision = \"deny\"\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "a.hcl"), []byte(other), 0o600); err != nil {
		t.Fatal(err)
	}
	uri := pathURI(filepath.Join(dir, "b.hcl"))
	c := startServer(t, New())
	c.initialize()
	c.open(uri, "hook \"a\" {\n  event = \"PreToolUse\"\n  decision = \"deny\"\n}\n")
	p := c.diagnostics(uri)
	if len(p.Diagnostics) == 0 || !strings.Contains(p.Diagnostics[0].Message, "Duplicate") {
		t.Errorf("diagnostics: %+v", p.Diagnostics)
	}
	c.change(uri, 2, "hook \"b\" {\n  event = \"Stop\"\n  matcher = \"Bash\"\n  decision = \"block\"\n}\n")
	p = c.diagnostics(uri)
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Severity != SeverityWarning || p.Diagnostics[0].Code == "" {
		t.Errorf("diagnostics: %+v", p.Diagnostics)
	}
	c.shutdown()
}

// TestTestFileDiagnostics: a *_test.hcl buffer is checked as hookctl test
// parses tests.
func TestTestFileDiagnostics(t *testing.T) {
	dir := t.TempDir()
	uri := pathURI(filepath.Join(dir, "hooks_test.hcl"))
	c := startServer(t, New())
	c.initialize()
	c.open(uri, "test \"x\" {\n  event = \"PreToolUse\"\n  expect {\n    decison = \"deny\"\n  }\n}\n")
	p := c.diagnostics(uri)
	if len(p.Diagnostics) == 0 || p.Diagnostics[0].Range.Start.Line != 3 || p.Diagnostics[0].Code == "" {
		t.Errorf("diagnostics: %+v", p.Diagnostics)
	}
	c.shutdown()
}

const editing = `hook "guard" {
  event   = "PreToolUse"
  matcher = "Bash"
  when    = "tool_input.co"
  script  = "check.js"
  
}

hook "js" {
  event    = "PostToolUse"
  matcher  = "Write"
  decision = ""
  js       = <<-JS
    if (event.tool_input.fi) return
  JS
}

builtin "" {
}
`

// TestCompletion: attributes inside a hook block, events on the event
// attribute, tools in a matcher, payload paths in when (the matched
// tool's input), built-in names on a builtin label.
func TestCompletion(t *testing.T) {
	dir := t.TempDir()
	uri := pathURI(filepath.Join(dir, "hooks.hcl"))
	c := startServer(t, New())
	c.initialize()
	c.open(uri, editing)

	// A blank line of the hook block.
	got := labels(t, c.call("textDocument/completion", pos(uri, Position{Line: 5, Character: 2})))
	hasAll(t, got, "when", "matcher", "on_error", "retry", "http")
	if slices.Contains(got, "hook") {
		t.Errorf("a hook block offered inside a hook: %v", got)
	}
	// The root.
	got = labels(t, c.call("textDocument/completion", pos(uri, Position{Line: 7, Character: 0})))
	hasAll(t, got, "hook", "event", "builtin", "settings")

	got = labels(t, c.call("textDocument/completion", pos(uri, at(t, editing, `PreToolUse"`, 3))))
	hasAll(t, got, "PreToolUse", "PostToolUse", "Stop", "SessionStart")

	got = labels(t, c.call("textDocument/completion", pos(uri, at(t, editing, `Bash"`, 0))))
	hasAll(t, got, "Bash", "Write", "Edit")

	got = labels(t, c.call("textDocument/completion", pos(uri, at(t, editing, `co"`, 2))))
	hasAll(t, got, "command", "description")
	if slices.Contains(got, "file_path") {
		t.Errorf("a Write field offered on a Bash hook: %v", got)
	}
	got = labels(t, c.call("textDocument/completion", pos(uri, at(t, editing, `tool_input.co`, 0))))
	hasAll(t, got, "tool_input", "tool_name", "session_id", "cwd")

	got = labels(t, c.call("textDocument/completion", pos(uri, at(t, editing, `tool_input.fi`, len("tool_input.fi")))))
	hasAll(t, got, "file_path", "content")

	got = labels(t, c.call("textDocument/completion", pos(uri, at(t, editing, `decision = ""`, len(`decision = "`)))))
	hasAll(t, got, "block")
	if slices.Contains(got, "allow") {
		t.Errorf("PostToolUse offered allow: %v", got)
	}

	got = labels(t, c.call("textDocument/completion", pos(uri, at(t, editing, `builtin ""`, 9))))
	hasAll(t, got, "dangerous-commands")
	c.shutdown()
}

// TestHover: an event's description, strategy and merge rules; a payload
// field's type and doc; a built-in's options.
func TestHover(t *testing.T) {
	dir := t.TempDir()
	uri := pathURI(filepath.Join(dir, "hooks.hcl"))
	text := "hook \"guard\" {\n  event = \"PreToolUse\"\n  matcher = \"Bash\"\n  when = \"tool_input.command matches 'rm'\"\n  decision = \"deny\"\n}\n\nbuiltin \"dangerous-commands\" {\n}\n"
	c := startServer(t, New())
	c.initialize()
	c.open(uri, text)
	hover := func(p Position) string {
		r := c.call("textDocument/hover", pos(uri, p))
		var h Hover
		if r.Error != nil || json.Unmarshal(r.Result, &h) != nil {
			t.Fatalf("hover: %+v %s", r.Error, r.Result)
		}
		return h.Contents.Value
	}
	h := hover(at(t, text, "PreToolUse", 3))
	for _, want := range []string{"PreToolUse", "modifying", "a tool call is about to run", "tool_name", "deny > defer > ask > allow", "| `block` |", "- payload: ", "`tool_input`"} {
		if !strings.Contains(h, want) {
			t.Errorf("hover on the event lacks %q:\n%s", want, h)
		}
	}
	if h := hover(at(t, text, "command matches", 2)); !strings.Contains(h, "tool_input.command") || !strings.Contains(h, "string") {
		t.Errorf("hover on a payload field: %s", h)
	}
	if h := hover(at(t, text, "dangerous-commands", 2)); !strings.Contains(h, "| option |") {
		t.Errorf("hover on a builtin: %s", h)
	}
	c.shutdown()
}

// TestDefinition: a script path and a require()d module lead to their
// files.
func TestDefinition(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"check.js", "lib/util.js"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("module.exports = {}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	uri := pathURI(filepath.Join(dir, "hooks.hcl"))
	text := "hook \"a\" {\n  event = \"Stop\"\n  script = \"check.js\"\n}\nhook \"b\" {\n  event = \"Stop\"\n  js = <<-JS\n    const u = require(\"./lib/util\")\n  JS\n}\n"
	c := startServer(t, New())
	c.initialize()
	c.open(uri, text)
	def := func(p Position) string {
		r := c.call("textDocument/definition", pos(uri, p))
		var locs []Location
		if r.Error != nil || json.Unmarshal(r.Result, &locs) != nil || len(locs) != 1 {
			t.Fatalf("definition: %+v %s", r.Error, r.Result)
		}
		return locs[0].URI
	}
	if got, want := def(at(t, text, "check.js", 2)), pathURI(filepath.Join(dir, "check.js")); got != want {
		t.Errorf("script: %s, want %s", got, want)
	}
	if got, want := def(at(t, text, "lib/util", 2)), pathURI(filepath.Join(dir, "lib", "util.js")); got != want {
		t.Errorf("require: %s, want %s", got, want)
	}
	c.shutdown()
}

// TestProtocolErrors: an unknown method is MethodNotFound, a request
// before initialize is refused, a malformed message is answered with an
// error and the server goes on; exit without shutdown is an error.
func TestProtocolErrors(t *testing.T) {
	c := startServer(t, New())
	if r := c.call("textDocument/hover", pos("file:///x.hcl", Position{})); r.Error == nil || r.Error.Code != codeServerNotInitialized {
		t.Errorf("before initialize: %+v", r)
	}
	c.initialize()
	if r := c.call("workspace/symbol", map[string]any{}); r.Error == nil || r.Error.Code != codeMethodNotFound {
		t.Errorf("unknown method: %+v", r)
	}
	// Not JSON, then JSON that is no JSON-RPC message, with an id.
	c.raw([]byte(`{"jsonrpc":"2.0","id":`))
	ch := make(chan rpcResponse, 1)
	c.mu.Lock()
	c.resp[77] = ch
	c.mu.Unlock()
	c.raw([]byte(`{"jsonrpc":"2.0","id":77,"method":12}`))
	if r := c.wait(ch); r.Error == nil || r.Error.Code != codeInvalidRequest {
		t.Errorf("malformed request: %+v", r)
	}
	// A header block without a length, then bad params.
	if _, err := c.w.Write([]byte("X-Nothing: 1\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	if r := c.call("textDocument/hover", "nonsense"); r.Error == nil || r.Error.Code != codeInvalidParams {
		t.Errorf("bad params: %+v", r)
	}
	if r := c.call("textDocument/hover", pos("file:///nowhere/x.hcl", Position{Line: 9, Character: 99})); r.Error != nil {
		t.Errorf("hover on a missing file: %+v", r)
	}
	c.notify("exit", nil)
	if err := <-c.done; err != ErrExitWithoutShutdown {
		t.Errorf("exit without shutdown: %v", err)
	}
}

// TestSlowCheckDoesNotWedge: while a check is running, requests are
// answered; an edit cancels it and its result is never published, only
// the newest contents' result.
func TestSlowCheckDoesNotWedge(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	firstCancelled := make(chan bool, 1)
	calls := 0
	check := func(ctx context.Context, req CheckRequest) []hcl.Diagnostic {
		calls++
		file := filepath.Join(req.Dir, "hooks.hcl")
		if calls == 1 {
			close(started)
			<-release
			firstCancelled <- ctx.Err() != nil
			return []hcl.Diagnostic{{File: file, Line: 1, Column: 1, EndLine: 1, EndColumn: 2, Severity: hcl.SeverityError, Summary: "first"}}
		}
		return []hcl.Diagnostic{{File: file, Line: 1, Column: 1, EndLine: 1, EndColumn: 2, Severity: hcl.SeverityError, Summary: "second"}}
	}
	dir := t.TempDir()
	uri := pathURI(filepath.Join(dir, "hooks.hcl"))
	c := startServer(t, New(WithChecker(check)))
	c.initialize()
	c.open(uri, "hook \"a\" {\n}\n")
	<-started
	if r := c.call("textDocument/completion", pos(uri, Position{Line: 1})); r.Error != nil {
		t.Fatalf("completion during a check: %+v", r.Error)
	}
	c.change(uri, 2, "hook \"b\" {\n}\n")
	// The notification is handled before this request is read.
	c.call("textDocument/hover", pos(uri, Position{}))
	close(release)
	if !<-firstCancelled {
		t.Error("the superseded check's context was not cancelled")
	}
	p := c.diagnostics(uri)
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Message != "second" || *p.Version != 2 {
		t.Errorf("published %+v, want only the second check's", p)
	}
	c.shutdown()
}

// TestScriptFileDiagnostics: validate's warning about a script file's
// misspelled event.<path> read is published for the script file, at its
// line.
func TestScriptFileDiagnostics(t *testing.T) {
	dir := t.TempDir()
	js := filepath.Join(dir, "check.js")
	if err := os.WriteFile(js, []byte("module.exports = function (event) {\n  if (event.tool_input.comand) return { decision: \"deny\" }\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	uri := pathURI(filepath.Join(dir, "hooks.hcl"))
	c := startServer(t, New())
	c.initialize()
	c.open(uri, "hook \"a\" {\n  event   = \"PreToolUse\"\n  matcher = \"Bash\"\n  script  = \"check.js\"\n}\n")
	p := c.diagnostics(pathURI(js))
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Range.Start.Line != 1 || p.Diagnostics[0].Severity != SeverityWarning {
		t.Errorf("diagnostics of the script: %+v", p.Diagnostics)
	}
	c.shutdown()
}

// TestCheckPanicIsADiagnostic: a checker that panics gives a diagnostic,
// and the server goes on answering.
func TestCheckPanicIsADiagnostic(t *testing.T) {
	check := func(context.Context, CheckRequest) []hcl.Diagnostic { panic("boom") }
	uri := pathURI(filepath.Join(t.TempDir(), "hooks.hcl"))
	c := startServer(t, New(WithChecker(check)))
	c.initialize()
	c.open(uri, "\n")
	if p := c.diagnostics(uri); len(p.Diagnostics) != 1 || !strings.Contains(p.Diagnostics[0].Message, "boom") {
		t.Errorf("diagnostics: %+v", p.Diagnostics)
	}
	c.shutdown()
}

// TestCancelRequest: a request cancelled while it runs is answered
// RequestCancelled; the others are answered as usual.
func TestCancelRequest(t *testing.T) {
	srv := New(WithChecker(nilChecker))
	running, release := make(chan struct{}), make(chan struct{})
	var n atomic.Int32
	srv.started = func() {
		if n.Add(1) == 1 { // the first request waits
			close(running)
			<-release
		}
	}
	c := startServer(t, srv)
	c.initialize()
	id, ch := c.start("textDocument/hover", pos("file:///nowhere/x.hcl", Position{}))
	<-running
	c.notify("$/cancelRequest", map[string]any{"id": id})
	// $/cancelRequest is handled before this request is read.
	if r := c.call("textDocument/hover", pos("file:///nowhere/x.hcl", Position{})); r.Error != nil {
		t.Errorf("another request: %+v", r.Error)
	}
	close(release)
	if r := c.wait(ch); r.Error == nil || r.Error.Code != codeRequestCancelled {
		t.Errorf("the cancelled request: %+v", r)
	}
	c.shutdown()
}

// TestExitThenEOF: an exit without shutdown followed by the end of the
// input is ErrExitWithoutShutdown every time, though Serve sees the exit
// and the end of its input together: Serve waits, here, until the whole
// input is read before it looks (under load, the process is late).
func TestExitThenEOF(t *testing.T) {
	var in bytes.Buffer
	m := `{"jsonrpc":"2.0","method":"exit"}`
	fmt.Fprintf(&in, "Content-Length: %d\r\n\r\n%s", len(m), m)
	for i := range 200 {
		s := New()
		s.waiting = func(eof <-chan struct{}) { <-eof }
		err := s.Serve(context.Background(), bytes.NewReader(in.Bytes()), io.Discard)
		if !errors.Is(err, ErrExitWithoutShutdown) {
			t.Fatalf("run %d: exit without shutdown, then end of input: %v, want ErrExitWithoutShutdown", i, err)
		}
	}
}
