package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"mime"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hookctl/hookctl/protocol"
	claudeproto "github.com/hookctl/hookctl/protocol/claude"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/server"
	"github.com/hookctl/hookctl/stdlib"
)

// fuzzMaxInput bounds what the fuzz targets feed in: decoding is linear,
// so bigger inputs only make each run slower (TestDecodeInputLimits covers
// the real size limit).
const fuzzMaxInput = 64 << 10

// addPayloadSeeds adds examples/payloads/*.json (the Claude Code fixtures
// are in testdata/fuzz, since they live outside the repository).
func addPayloadSeeds(f *testing.F, add func(name string, b []byte)) {
	files, err := filepath.Glob("../examples/payloads/*.json")
	if err != nil || len(files) == 0 {
		f.Fatalf("no example payloads: %v", err)
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		add(strings.TrimSuffix(filepath.Base(p), ".json"), b)
	}
}

var badInputs = []string{
	"", " ", "\n", "null", "true", "0", "1e999", `"PreToolUse"`, "[]", `[{"hook_event_name":"Stop"}]`,
	"{", "}", "{}", `{"hook_event_name":null}`, `{"hook_event_name":""}`, `{"hook_event_name":3}`,
	`{"hook_event_name":["Stop"]}`, `{"hook_event_name":"Stop"`, `{"hook_event_name":"Stop"} trailing`,
	`{"hook_event_name":"Stop"}{}`, `{"hook_event_name":"Stop","x":1e999}`, `{"hook_event_name":"NoSuchEvent"}`,
	`{"hook_event_name":"Stop","hook_event_name":"PreToolUse"}`, "{\"hook_event_name\":\"St\xffop\"}",
	`{"hook_event_name":"\u0000"}`, "\xef\xbb\xbf{\"hook_event_name\":\"Stop\"}",
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	`{"hook_event_name":"Stop","a":` + strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001) + "}",
}

// FuzzDecodeInput decodes hostile hook input. It never panics; input that
// is not a JSON object with a non-empty string hook_event_name is an
// *InputError naming the problem; anything else yields the event name.
func FuzzDecodeInput(f *testing.F) {
	addPayloadSeeds(f, func(_ string, b []byte) { f.Add(b) })
	for _, s := range badInputs {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > fuzzMaxInput {
			t.Skip()
		}
		payload, name, err := server.DecodeInput(bytes.NewReader(data))

		// What the input is, decided independently.
		var obj map[string]any
		objErr := json.Unmarshal(data, &obj)
		trimmed := bytes.TrimLeft(data, " \t\r\n")
		valid := json.Valid(data)
		isObject := valid && len(trimmed) > 0 && trimmed[0] == '{'

		if err != nil {
			if payload != nil || name != "" {
				t.Fatalf("an error and a result: %v, %q", err, name)
			}
			var ie *server.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error is %T, not *server.InputError: %v", err, err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "hook input: ") {
				t.Fatalf("error does not say it is about the hook input: %q", msg)
			}
			var want string
			depth, values := jsonShape(data)
			var le *server.LimitError
			switch {
			case !valid && errors.As(err, &le):
				// The scanner may stop at a limit in text the decoder
				// would then have refused.
				want = "the " + le.Limit + " limit"
			case !valid:
				want = "not valid JSON"
			case depth > server.MaxInputDepth:
				want = "nested deeper than 256 levels (the max-depth limit)"
			case values > server.MaxInputValues:
				want = "the max-values limit"
			case !isObject:
				want = "want a JSON object"
			case objErr != nil:
				want = "number out of range" // a valid object with a number past float64
			case obj["hook_event_name"] == nil:
				if _, present := obj["hook_event_name"]; present {
					want = "hook_event_name: want a non-empty string"
				} else {
					want = "hook_event_name: missing"
				}
			default:
				want = "hook_event_name: want a non-empty string"
			}
			if !strings.Contains(msg, want) {
				t.Fatalf("error %q does not say %q", msg, want)
			}
			return
		}
		if !isObject || objErr != nil {
			t.Fatalf("decoded input that is not a JSON object: %q", data)
		}
		if name == "" || payload == nil {
			t.Fatalf("no error, but event %q and payload %v", name, payload)
		}
		if got, _ := obj["hook_event_name"].(string); got != name || payload["hook_event_name"] != name {
			t.Fatalf("event %q, the input says %q", name, got)
		}
		// Integers that fit int64 exactly, other numbers float64.
		exact := json.NewDecoder(bytes.NewReader(data))
		exact.UseNumber()
		var want any
		if err := exact.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(payload, exactNumbers(want)) {
			t.Fatalf("payload %v differs from the input %v", payload, want)
		}
	})
}

// exactNumbers is the payload number contract, written out apart from
// the decoder: json.Numbers that parse as int64 become int64, the others
// float64, or int64 when whole and below 2^53.
func exactNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i
		}
		f, _ := strconv.ParseFloat(string(x), 64)
		if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return int64(f)
		}
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = exactNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = exactNumbers(e)
		}
	}
	return v
}

// TestDecodeInputLimits: input nested deeper than MaxInputDepth and input
// over MaxInput are errors that say so.
func TestDecodeInputLimits(t *testing.T) {
	deep := `{"hook_event_name":"Stop","a":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "}"
	if _, _, err := server.DecodeInput(strings.NewReader(deep)); err == nil || !strings.Contains(err.Error(), "nested deeper than 256 levels (the max-depth limit)") {
		t.Fatalf("deep input: %v", err)
	}
	huge := io.MultiReader(strings.NewReader(`{"hook_event_name":"Stop","a":"`), &zeros{n: server.MaxInput})
	if _, _, err := server.DecodeInput(huge); err == nil || !strings.Contains(err.Error(), "larger than 67108864 bytes (the max-body limit)") {
		t.Fatalf("huge input: %v", err)
	}
}

// jsonShape measures valid JSON independently of the package's scanner:
// how deeply it nests and how many values it holds (0, 0 when it does not
// decode).
func jsonShape(data []byte) (depth, values int) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return 0, 0
	}
	var walk func(v any, d int)
	walk = func(v any, d int) {
		values++
		switch x := v.(type) {
		case map[string]any:
			depth = max(depth, d+1)
			for _, e := range x {
				walk(e, d+1)
			}
		case []any:
			depth = max(depth, d+1)
			for _, e := range x {
				walk(e, d+1)
			}
		}
	}
	walk(v, 0)
	return depth, values
}

// zeros reads n '0' bytes.
type zeros struct{ n int }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n == 0 {
		return 0, io.EOF
	}
	n := min(len(p), z.n)
	for i := range n {
		p[i] = '0'
	}
	z.n -= n
	return n, nil
}

// fuzzServerConfig is a small configuration with one of each handler that
// runs in-process (declarative, inline js, built-ins, a custom event, the
// Stop loop guard, observe and background hooks). examples/hooks.hcl also
// runs git and a shell script, which would make each run spawn processes.
const fuzzServerConfig = `
settings {
  default_timeout = "2s"
  stop_block_cap  = 2
}

builtin "dangerous-commands" {}
builtin "secret-files" {
  mode = "deny"
}
builtin "prompt-length" {
  max_chars = 500
}

hook "no-push-to-main" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "hasCommand(tool_input.command, 'git') and tool_input.command matches ` + "`\\\\bgit\\\\s+push\\\\b.*\\\\bmain\\\\b`" + `"
  decision = "ask"
  reason   = "pushing to main needs a human"
}

hook "remind-tests" {
  event              = "UserPromptSubmit"
  when               = "prompt contains 'refactor'"
  additional_context = "Run the tests after refactoring."
}

hook "pip-to-uv" {
  event    = "PreToolUse"
  matcher  = "Bash"
  on_error = "ignore"
  js       = <<-JS
    const cmd = event.tool_input.command;
    if (typeof cmd !== "string" || !/^pip install /.test(cmd)) return;
    ctx.state.rewrote = true;
    return { updated_input: { ...event.tool_input, command: cmd.replace(/^pip /, "uv pip ") }, additional_context: "pip was rewritten to uv pip" };
  JS
}

hook "read-only-tools" {
  event   = "PreToolUse"
  matcher = "Read|Glob|Grep|LS"
  js      = <<-JS
    const { allow } = require("hookctl/decision");
    const path = require("hookctl/path");
    const p = event.tool_input.file_path || event.tool_input.path || event.cwd;
    if (typeof p === "string" && typeof event.cwd === "string" && path.isInside(p, event.cwd)) return allow("reads inside the project");
  JS
}

hook "tests-before-stop" {
  event = "Stop"
  js    = <<-JS
    const { blockStop } = require("hookctl/decision");
    if (!/test/i.test(String(event.last_assistant_message || ""))) {
      return blockStop(event, "Run the tests first.", { maxLoops: 3 });
    }
  JS
}

hook "session-context" {
  event              = "SessionStart"
  additional_context = "Be brief."
  system_message     = "hookctl is on"
}

hook "decision-audit" {
  event   = "PreToolUse"
  observe = true
  js      = <<-JS
    if (ctx.state.rewrote) ctx.log.info("command rewritten", { tool: event.tool_name });
  JS
}

hook "tool-audit" {
  event      = "PostToolUse"
  background = true
  js         = <<-JS
    ctx.log.info("tool used", { tool: event.tool_name });
  JS
}

hook "task-gate" {
  event    = "TaskCompleted"
  when     = "task_subject contains 'wip'"
  decision = "block"
  reason   = "not done"
}

event "deploy.pre" {
  strategy  = "modifying"
  matcher   = "service"
  decisions = ["block"]
  merge     = { replicas = "last", notes = "concat", block = "sticky" }
}

hook "freeze-billing" {
  event   = "deploy.pre"
  matcher = "billing"
  when    = "environment == 'production'"
  result  = { block = true, notes = "billing is frozen" }
}
`

const (
	routeClaude = iota
	routeClaudeEvent
	routeFire
	routes
)

// FuzzServer sends hostile requests to the serve API. It never panics;
// every request a handler answers gets a JSON reply (or, for Claude Code's
// routes, an empty 200, which Claude Code reads as "no opinion"): 200 for
// an event that was fired, 400 naming the problem for bad input on
// /v1/fire and the host's block for it on Claude Code's routes, 404 for
// an unknown event on /v1/fire; and the server keeps serving.
func FuzzServer(f *testing.F) {
	addPayloadSeeds(f, func(name string, b []byte) {
		event := strings.SplitN(name, ".", 2)[0]
		if name == "deploy.pre" {
			event = name
		}
		for r := range routes {
			f.Add(uint8(r), event, b)
		}
	})
	for _, s := range badInputs {
		f.Add(uint8(routeClaude), "", []byte(s))
		f.Add(uint8(routeFire), "PreToolUse", []byte(s))
	}
	for _, ev := range []string{"", ".", "..", "Stop/x", "a%2Fb", "%", "?", "#", " ", "\x00", "\xff", "before_tool_call", "tool.pre", "NoSuchEvent", "deploy.pre"} {
		f.Add(uint8(routeClaudeEvent), ev, []byte(`{"hook_event_name":"Stop"}`))
		f.Add(uint8(routeFire), ev, []byte(`{}`))
	}

	log := slog.New(slog.DiscardHandler)
	eng, err := engine.New(engine.WithLogger(log), engine.WithConditionOptions(conditions.WithFunctions(stdlib.ConditionFunctions()...)))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { eng.Close(context.Background()) })
	cfg, err := assemble.LoadSource("hooks.hcl", []byte(fuzzServerConfig), f.TempDir(), assemble.WithLogger(log))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(cfg.Close) // after the engine closed: cleanups run last-added first
	if err := eng.Load(cfg.Engine); err != nil {
		f.Fatal(err)
	}
	srv := server.NewServer(eng, nil)

	f.Fuzz(func(t *testing.T, route uint8, event string, body []byte) {
		if len(body) > fuzzMaxInput || len(event) > 256 {
			t.Skip()
		}
		route %= routes
		prefix := [...]string{"/claude", "/claude/", "/v1/fire/"}[route]
		u := &url.URL{Path: prefix, RawPath: prefix}
		if route != routeClaude {
			u.Path += event
			u.RawPath += url.PathEscape(event)
		}
		before := health(t, srv)
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		req.URL, req.RequestURI, req.Host = u, u.RequestURI(), "127.0.0.1:8765"
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		after := health(t, srv)
		resp := rec.Result()
		got, _ := io.ReadAll(resp.Body)

		if after == before {
			// net/http's ServeMux answered without a handler (in plain
			// text): only for a path it does not route. An empty event
			// is no {event} segment, "." and ".." are cleaned away (a
			// redirect), and a lone %2F segment is a 404.
			if route == routeClaude || event != "" && event != "." && event != ".." && event != "/" {
				t.Fatalf("POST %s (event %q) reached no handler: %d %q", u.RequestURI(), event, resp.StatusCode, got)
			}
			return
		}
		if after != before+1 {
			t.Fatalf("request count went from %v to %v", before, after)
		}
		if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
			t.Fatalf("Content-Type %q", ct)
		}
		var reply any
		if len(got) == 0 {
			if route == routeFire || resp.StatusCode != http.StatusOK {
				t.Fatalf("POST %s: empty %d reply", u.RequestURI(), resp.StatusCode)
			}
		} else if err := json.Unmarshal(got, &reply); err != nil {
			t.Fatalf("POST %s: reply is not JSON (%v): %q", u.RequestURI(), err, got)
		}
		m, isObject := reply.(map[string]any)
		if len(got) > 0 && !isObject {
			t.Fatalf("reply is not a JSON object: %q", got)
		}
		errMsg, _ := m["error"].(string)

		// The status the request deserves, decided independently.
		want := http.StatusOK
		var wantErr string
		if route == routeFire {
			var payload map[string]any
			depth, _ := jsonShape(body)
			if depth > server.MaxInputDepth {
				want, wantErr = http.StatusBadRequest, "(the max-depth limit)"
			} else if len(bytes.TrimSpace(body)) > 0 && (json.Unmarshal(body, &payload) != nil || payload == nil) {
				want, wantErr = http.StatusBadRequest, "hook input: payload: "
				if !json.Valid(body) && strings.Contains(errMsg, "(the max-depth limit)") {
					wantErr = "(the max-depth limit)" // the scanner stopped first
				}
			} else if _, err := eng.Resolve(event); err != nil {
				want, wantErr = http.StatusNotFound, "unknown event"
			}
		} else {
			// The URL's event is what --event is to hookctl hook --host
			// claude: the payload's hook_event_name must agree with it,
			// and it names the event of a payload that has none.
			var urlEvent string
			if route == routeClaudeEvent {
				urlEvent = event
			}
			payload, err := protocol.DecodeObject(bytes.NewReader(body))
			if err == nil {
				_, err = claudeproto.New().Decode(payload, urlEvent)
			}
			if err != nil {
				// Input no hook can answer is the host's block, a 200
				// (any other status is no objection to Claude Code),
				// saying why.
				if resp.StatusCode != http.StatusOK || !refusedReply(m) || !strings.Contains(string(got), "no hook could run") && !strings.Contains(string(got), "no hook ran") {
					t.Fatalf("POST %s with %.200q (%v): %d %s, want the host's block", u.RequestURI(), body, err, resp.StatusCode, got)
				}
				return
			}
		}
		if resp.StatusCode != want {
			t.Fatalf("POST %s with %q: status %d (%s), want %d", u.RequestURI(), body, resp.StatusCode, got, want)
		}
		if want != http.StatusOK {
			if !strings.Contains(errMsg, wantErr) {
				t.Fatalf("POST %s: error %q does not say %q", u.RequestURI(), errMsg, wantErr)
			}
			return
		}
		if errMsg != "" {
			t.Fatalf("a 200 with an error: %s", got)
		}
		if route == routeFire {
			spec, _ := eng.Event(event)
			if m["event"] != spec.Name || m["hooks"] == nil && m["continue"] == nil {
				t.Fatalf("outcome of %s is not an outcome: %s", spec.Name, got)
			}
			if blocked, _ := m["blocked"].(bool); blocked != (resp.Header.Get("X-Hookctl-Blocked") == "true") {
				t.Fatalf("blocked=%v but X-Hookctl-Blocked=%q", blocked, resp.Header.Get("X-Hookctl-Blocked"))
			}
		}
	})
}

// refusedReply reports whether a Claude Code reply blocks or, for an
// event that cannot be blocked, tells the user.
func refusedReply(m map[string]any) bool {
	hso, _ := m["hookSpecificOutput"].(map[string]any)
	return m["decision"] == "block" || m["continue"] == false || hso["permissionDecision"] == "deny" ||
		m["systemMessage"] != nil && m["systemMessage"] != ""
}

// health checks /healthz and returns the number of requests served.
func health(t *testing.T, srv http.Handler) float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/healthz", nil)
	req.Host = "127.0.0.1:8765"
	srv.ServeHTTP(rec, req)
	var m map[string]any
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &m) != nil || m["status"] != "ok" {
		t.Fatalf("health check: %d %s", rec.Code, rec.Body.Bytes())
	}
	n, ok := m["requests"].(float64)
	if !ok {
		t.Fatalf("health check without a request count: %s", rec.Body.Bytes())
	}
	return n
}

// TestDecodeInputNumberOutOfRange: a number beyond float64 inside the
// object used to be reported as "want a JSON object, got number 1e999"
// (found by FuzzDecodeInput).
func TestDecodeInputNumberOutOfRange(t *testing.T) {
	_, _, err := server.DecodeInput(strings.NewReader(`{"hook_event_name":"Stop","x":1e999}`))
	if err == nil || !strings.Contains(err.Error(), "number out of range") || strings.Contains(err.Error(), "want a JSON object") {
		t.Fatalf("%v", err)
	}
	_, _, err = server.DecodeInput(strings.NewReader(` 1e999`))
	if err == nil || !strings.Contains(err.Error(), "want a JSON object, got number") {
		t.Fatalf("%v", err)
	}
}

// FuzzServerHeaders sends the serve API requests with every Host, Origin
// and Content-Type a browser, a DNS-rebound page or a broken client could
// send. It never panics; a request with an Origin, or whose Host is not a
// loopback name, is 403 and one that passes those but is not
// application/json is 415, each with a JSON error naming the header,
// before any hook fires; every other request is not refused for its
// headers.
func FuzzServerHeaders(f *testing.F) {
	for _, s := range []struct{ host, origin, ct string }{
		{"127.0.0.1:8765", "", "application/json"},
		{"localhost", "", "application/json; charset=utf-8"},
		{"[::1]:8765", "", "Application/JSON"},
		{"127.0.0.1:8765", "", "text/plain;charset=UTF-8"},
		{"127.0.0.1:8765", "", "application/x-www-form-urlencoded"},
		{"127.0.0.1:8765", "", "multipart/form-data; boundary=x"},
		{"127.0.0.1:8765", "", ""},
		{"127.0.0.1:8765", "", "application/json;;"},
		{"127.0.0.1:8765", "http://evil.example", "application/json"},
		{"127.0.0.1:8765", "null", "text/plain"},
		{"evil.example:8765", "", "application/json"},
		{"127.0.0.1.evil.example", "", "application/json"},
		{"localhost.evil.example:8765", "", "application/json"},
		{"[::ffff:127.0.0.1]:8765", "", "application/json"},
		{"0x7f.1", "", "application/json"},
		{"127.1", "", "application/json"},
		{"", "", "application/json"},
		{"[", "", "application/json"},
		{"localhost:8765.evil.com", "", "application/json"},
		{"127.0.0.1:8766", "", "application/json"},
		{"127.0.0.1:08765", "", "application/json"},
		{"127.0.0.1:+8765", "", "application/json"},
		{"127.0.0.1:", "", "application/json"},
		{"[127.0.0.1]:8765", "", "application/json"},
		{"[::1]", "", "application/json"},
		{"::1", "", "application/json"},
		{"[::1]x", "", "application/json"},
	} {
		for r := range routes {
			f.Add(uint8(r), s.host, s.origin, s.ct)
		}
	}
	log := slog.New(slog.DiscardHandler)
	eng, err := engine.New(engine.WithLogger(log))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { eng.Close(context.Background()) })
	var fired atomic.Int64
	if err := eng.Register(engine.Hook{ID: "count", Event: "PreToolUse", Handler: engine.HandlerFunc(func(ctx context.Context, c *engine.Call) (engine.Result, error) {
		fired.Add(1)
		return engine.Deny("no"), nil
	})}); err != nil {
		f.Fatal(err)
	}
	srv := server.NewServer(eng, nil)
	body := `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"ls"}}`
	f.Fuzz(func(t *testing.T, route uint8, host, origin, ct string) {
		path := [...]string{"/claude", "/claude/PreToolUse", "/v1/fire/PreToolUse"}[route%routes]
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
		// As http.Server does: the address the connection came in on.
		req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, listenAddr))
		req.Host = host
		if origin != "" {
			req.Header["Origin"] = []string{origin}
		}
		req.Header["Content-Type"] = []string{ct}
		before := fired.Load()
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		resp := rec.Result()
		got, _ := io.ReadAll(resp.Body)

		// What the request deserves, decided independently.
		want, says := http.StatusOK, ""
		mt, _, mterr := mime.ParseMediaType(ct)
		switch {
		case !loopbackHost(host):
			want, says = http.StatusForbidden, "Host"
		case origin != "":
			want, says = http.StatusForbidden, "Origin"
		case mterr != nil || mt != "application/json":
			want, says = http.StatusUnsupportedMediaType, "application/json"
		}
		if resp.StatusCode != want {
			t.Fatalf("POST %s Host %q Origin %q Content-Type %q: %d %s, want %d", path, host, origin, ct, resp.StatusCode, got, want)
		}
		if want == http.StatusOK {
			if fired.Load() != before+1 {
				t.Fatalf("an answered request fired %d times", fired.Load()-before)
			}
			return
		}
		var m map[string]any
		if json.Unmarshal(got, &m) != nil || !strings.Contains(fmt.Sprint(m["error"]), says) || resp.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("refusal %d is not a JSON error naming %s: %q", want, says, got)
		}
		if fired.Load() != before {
			t.Fatal("a refused request fired")
		}
	})
}

// listenAddr is where FuzzServerHeaders' requests came in.
var listenAddr = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8765}

// loopbackHost is the test's own idea of a loopback Host header on an
// HTTP/1.1 request to port 8765: "localhost", a loopback IPv4 address or
// a loopback IPv6 address in brackets, with no port or the decimal port
// 8765; not empty.
func loopbackHost(h string) bool {
	bracketed := strings.HasPrefix(h, "[")
	if host, port, err := net.SplitHostPort(h); err == nil {
		if n, err := strconv.Atoi(port); err != nil || n != 8765 || strings.Trim(port, "0123456789") != "" {
			return false
		}
		h = host
	} else if bracketed && strings.HasSuffix(h, "]") {
		h = h[1 : len(h)-1]
	} else if bracketed || strings.Contains(h, ":") {
		return false
	}
	if bracketed != strings.Contains(h, ":") {
		return false // brackets hold an IPv6 address, and only they do
	}
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
