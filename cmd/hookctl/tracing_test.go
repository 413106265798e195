package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/otlptest"
	"github.com/hookctl/hookctl/internal/syncbuf"
)

const tracedHooks = `
hook "no-rm-rf" {
  event    = "PreToolUse"
  when     = "tool_input.command contains 'rm -rf'"
  decision = "deny"
  reason   = "rm -rf is not allowed"
}

hook "never" {
  event   = "PreToolUse"
  matcher = "Write"
  decision = "ask"
}

hook "audit" {
  event      = "PreToolUse"
  background = true
  js         = "ctx.log.info('seen', { tool: event.tool_name });"
}
`

const (
	parentTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	parentSpan  = "00f067aa0ba902b7"
)

// hookctlProcess returns a command running the hookctl binary (this test
// binary, installed on PATH as hookctl by testscript.Main) in a directory
// of its own with cfg as its configuration, and env on top of an
// environment without any OTEL_* or TRACEPARENT variable.
func hookctlProcess(t *testing.T, env []string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	bin, err := exec.LookPath("hookctl")
	if err != nil {
		t.Skipf("no hookctl on PATH: %v", err)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "hooks.hcl")
	if err := os.WriteFile(cfg, []byte(tracedHooks), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append(args, "--config", cfg, "--allow-untrusted")...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OTEL_") && !strings.HasPrefix(kv, "TRACE") && !strings.HasPrefix(kv, "HOOKCTL_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "HOOKCTL_STATE_DIR="+filepath.Join(dir, "state"), "HOOKCTL_TRUST_FILE="+filepath.Join(dir, "trusted.json"))
	cmd.Env = append(cmd.Env, env...)
	return cmd, dir
}

// TestServeExportsTraces: hookctl serve, as a process configured by
// OTEL_EXPORTER_OTLP_ENDPOINT alone, sends its spans over OTLP/HTTP; the
// fire span of each request continues the trace of its traceparent, on
// POST /claude and POST /v1/fire/{event}; the hooks that ran (a background
// one included) are its children, the skipped one has no span; and the
// spans still batched are sent when it stops.
func TestServeExportsTraces(t *testing.T) {
	r := otlptest.NewHTTP(t)
	cmd, _ := hookctlProcess(t, []string{
		"OTEL_EXPORTER_OTLP_ENDPOINT=" + r.Endpoint,
		"OTEL_BSP_SCHEDULE_DELAY=600000", // nothing is sent before shutdown
	}, "serve", "--listen", "127.0.0.1:0")
	stderr := &syncbuf.Buffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer func() {
		_ = cmd.Process.Kill()
	}()
	re := regexp.MustCompile(`on http://(127\.0\.0\.1:\d+)`)
	var base string
	for deadline := time.Now().Add(20 * time.Second); base == ""; {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			base = "http://" + m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("serve did not start: %s", stderr)
		} else {
			time.Sleep(20 * time.Millisecond)
		}
	}
	// The line comes in a write of its own after the serving line.
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(stderr.String(), "exporting traces"); {
		if time.Now().After(deadline) {
			t.Errorf("serve does not say it exports traces: %s", stderr)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	spans := map[string]string{ // request path -> the caller's span id
		"/claude":             "00f067aa0ba902b7",
		"/v1/fire/PreToolUse": "b7ad6b7169203331",
	}
	c := &http.Client{Timeout: 10 * time.Second}
	for path, span := range spans {
		req, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(
			`{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`))
		req.Header.Set("traceparent", "00-"+parentTrace+"-"+span+"-01")
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "deny") {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, body)
		}
	}
	time.Sleep(200 * time.Millisecond)
	if n := len(r.Spans()); n != 0 {
		t.Fatalf("%d spans sent before shutdown with a 10-minute batch delay", n)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve: %v\n%s", err, stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not stop: %s", stderr)
	}

	byParent := map[string]otlptest.Span{}
	children := map[string][]string{}
	for _, s := range r.Spans() {
		if s.Service != "hookctl" {
			t.Errorf("span %s from service %q", s.Name, s.Service)
		}
		if s.Name == "fire PreToolUse" {
			byParent[s.ParentID()] = s
		} else {
			children[s.ParentID()] = append(children[s.ParentID()], s.Name)
		}
	}
	for path, span := range spans {
		fire, ok := byParent[span]
		if !ok {
			t.Errorf("%s: no fire span with the caller's span %s as parent; got %v", path, span, summary(r.Spans()))
			continue
		}
		if fire.TraceID() != parentTrace {
			t.Errorf("%s: trace %s, want %s", path, fire.TraceID(), parentTrace)
		}
		if fire.Attr("hookctl.hooks.skipped") != int64(1) || fire.Attr("hookctl.decision") != "deny" || fire.Attr("hookctl.blocked") != true {
			t.Errorf("%s: fire attributes %v", path, fire.Attributes)
		}
		got := children[fire.SpanID()]
		slices.Sort(got)
		if strings.Join(got, ",") != "hook audit,hook no-rm-rf" {
			t.Errorf("%s: hook spans %q, want the deny and the background hook", path, got)
		}
	}
}

// summary names each span with its ids, for failure messages.
func summary(spans []otlptest.Span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name+" "+s.TraceID()+"/"+s.SpanID()+" parent "+s.ParentID())
	}
	return out
}

// TestClaudeOneShotExportsTraces: hookctl claude, as a process, answers
// the host, then sends its spans before it exits, in the trace its parent
// process passed in TRACEPARENT.
func TestClaudeOneShotExportsTraces(t *testing.T) {
	for _, proto := range []string{"http/protobuf", "grpc"} {
		t.Run(strings.ReplaceAll(proto, "/", "-"), func(t *testing.T) {
			r := otlptest.NewHTTP(t)
			if proto == "grpc" {
				r = otlptest.NewGRPC(t)
			}
			cmd, _ := hookctlProcess(t, []string{
				"OTEL_EXPORTER_OTLP_ENDPOINT=" + r.Endpoint,
				"OTEL_EXPORTER_OTLP_PROTOCOL=" + proto,
				"OTEL_SERVICE_NAME=agent-hooks",
				"TRACEPARENT=00-" + parentTrace + "-" + parentSpan + "-01",
				"HOOKCTL_TRACE_FLUSH_TIMEOUT=5s",
			}, "claude")
			cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/tmp","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("hookctl claude: %v\n%s", err, stderr.String())
			}
			if !strings.Contains(stdout.String(), `"permissionDecision":"deny"`) {
				t.Fatalf("reply: %s", stdout.String())
			}
			// The process has exited: whatever it sent has arrived.
			fire, ok := r.Wait(0, "fire PreToolUse")
			if !ok {
				t.Fatalf("no fire span: %v\nstderr: %s", summary(r.Spans()), stderr.String())
			}
			if fire.TraceID() != parentTrace || fire.ParentID() != parentSpan || fire.Service != "agent-hooks" {
				t.Errorf("fire span: trace %s parent %s service %s", fire.TraceID(), fire.ParentID(), fire.Service)
			}
			hook, ok := r.Wait(0, "hook no-rm-rf")
			if !ok || hook.ParentID() != fire.SpanID() {
				t.Errorf("hook span: %v", hook)
			}
			if bg, ok := r.Wait(0, "hook audit"); !ok || bg.ParentID() != fire.SpanID() {
				t.Errorf("background hook span: %v", bg)
			}
		})
	}
}

// TestClaudeUnreachableCollector: a collector that does not answer
// delays the exit by the flush bound at most, and the reply is written
// first.
func TestClaudeUnreachableCollector(t *testing.T) {
	// A collector that accepts connections and never answers.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	cmd, _ := hookctlProcess(t, []string{
		"OTEL_EXPORTER_OTLP_ENDPOINT=http://" + ln.Addr().String(),
		"HOOKCTL_TRACE_FLUSH_TIMEOUT=300ms",
	}, "claude")
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/tmp","tool_name":"Bash","tool_input":{"command":"ls"}}`)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("hookctl claude: %v\n%s", err, stderr.String())
	}
	took := time.Since(start)
	if !strings.Contains(stderr.String(), "sending traces") {
		t.Errorf("stderr does not report the failed export: %s", stderr.String())
	}
	if took > 5*time.Second {
		t.Errorf("hookctl claude took %v with a 300ms flush bound", took)
	}
}

// TestTracingConfigErrors: serve refuses to start with a tracing setting
// it cannot honour; a hook process says so and answers all the same.
func TestTracingConfigErrors(t *testing.T) {
	cmd, _ := hookctlProcess(t, []string{"OTEL_TRACES_EXPORTER=zipkin"}, "serve", "--listen", "127.0.0.1:0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	go func() {
		<-ctx.Done()
		if cmd.Process != nil {
			_ = cmd.Process.Kill()
		}
	}()
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), `"zipkin" is not an exporter`) {
		t.Errorf("serve with OTEL_TRACES_EXPORTER=zipkin: %v\n%s", err, stderr.String())
	}

	cmd, _ = hookctlProcess(t, []string{"OTEL_TRACES_EXPORTER=zipkin"}, "claude")
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/tmp","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`)
	var stdout bytes.Buffer
	stderr.Reset()
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || !strings.Contains(stdout.String(), `"permissionDecision":"deny"`) || !strings.Contains(stderr.String(), "not tracing") {
		t.Errorf("claude with OTEL_TRACES_EXPORTER=zipkin: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
}

// TestStartTracingOff: with no OTEL_* variable, no SDK is set up.
func TestStartTracingOff(t *testing.T) {
	for _, k := range []string{"OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"} {
		t.Setenv(k, "")
	}
	a := &app{stderr: io.Discard}
	tr, err := a.startTracing(context.Background(), true)
	if tr != nil || err != nil || len(tr.engineOptions()) != 0 {
		t.Fatalf("tracing %v, error %v", tr, err)
	}
}
