package runtime_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/filestamp"
	"github.com/hookctl/hookctl/runtime"
)

const denyRm = `
hook "no-rm-rf" {
  event    = "PreToolUse"
  when     = "tool_input.command contains 'rm -rf'"
  decision = "deny"
  reason   = "rm -rf is not allowed"
}
`

const rm = `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`

func config(t *testing.T, hooks string) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "hooks.hcl")
	if err := os.WriteFile(p, []byte(hooks), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOOKCTL_TRUST_FILE", filepath.Join(dir, "trust.json")) // trust reads it from the process
	return p
}

func claudeProtocol(t *testing.T) runtime.Protocol {
	p, ok := runtime.Lookup("claude")
	if !ok {
		t.Fatal("no claude protocol")
	}
	return p
}

// blocked reports whether a Claude Code reply blocks a PreToolUse.
func blocked(r runtime.Reply) bool {
	return r.ExitCode == 2 || strings.Contains(string(r.Stdout), `"permissionDecision":"deny"`)
}

// panicky is a protocol whose decoder panics.
type panicky struct{ runtime.Protocol }

func (panicky) Decode(map[string]any, string) (*runtime.Event, error) { panic("decoder bug") }

// TestAnswerFailsClosed: every way a call can fail answers with the
// host's block, never an empty (allowing) reply.
func TestAnswerFailsClosed(t *testing.T) {
	cfg := config(t, denyRm)
	// The process's environment is not the request's: it allows nothing.
	t.Setenv("HOOKCTL_ALLOW_UNTRUSTED", "1")
	cl := claudeProtocol(t)
	stopped, cancel := context.WithCancelCause(context.Background())
	cancel(&runtime.StopError{Signal: syscall.SIGTERM})
	allow := runtime.Modes{AllowUntrusted: true}
	ls := strings.Replace(rm, "rm -rf /", "ls", 1)
	for _, c := range []struct {
		name   string
		ctx    context.Context
		req    runtime.Request
		reason string
	}{
		{"not JSON", nil, runtime.Request{Protocol: cl, Payload: []byte(`{"hook_event_name":`), Config: cfg, Modes: allow}, "no hook could run"},
		{"no event", nil, runtime.Request{Protocol: cl, Payload: []byte(`{}`), Config: cfg, Modes: allow}, "hook_event_name"},
		{"nested", nil, runtime.Request{Protocol: cl, Payload: []byte(ls), Config: cfg, Modes: allow, Env: []string{"HOOKCTL_DEPTH=1"}}, "comes from one of hookctl's own hooks"},
		{"no configuration", nil, runtime.Request{Protocol: cl, Payload: []byte(ls), Cwd: t.TempDir(), Modes: allow}, "could not be loaded"},
		{"broken configuration", nil, runtime.Request{Protocol: cl, Payload: []byte(ls), Config: config(t, `hook "x" {`), Modes: allow}, "could not be loaded"},
		{"untrusted", nil, runtime.Request{Protocol: cl, Payload: []byte(ls), Config: cfg}, "not trusted"},
		{"untrusted, the environment does not allow it", nil, runtime.Request{Protocol: cl, Payload: []byte(ls), Config: cfg, Env: []string{"HOOKCTL_ALLOW_UNTRUSTED=0"}}, "not trusted"},
		{"stop signal", stopped, runtime.Request{Protocol: cl, Payload: []byte(ls), Config: cfg, Modes: allow}, "hookctl was stopped (terminated)"},
		{"panic", nil, runtime.Request{Protocol: panicky{cl}, Payload: []byte(ls), Config: cfg, Modes: allow}, "the call failed (decoder bug)"},
	} {
		ctx := c.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		r := runtime.New().Answer(ctx, c.req)
		if !blocked(r) || !strings.Contains(string(r.Stdout)+r.Stderr, c.reason) {
			t.Errorf("%s: not blocked with %q: exit %d %s %s", c.name, c.reason, r.ExitCode, r.Stdout, r.Stderr)
		}
	}
	// The request's environment allows an untrusted configuration, as
	// HOOKCTL_ALLOW_UNTRUSTED does.
	r := runtime.New().Answer(context.Background(), runtime.Request{Protocol: cl, Payload: []byte(ls), Config: cfg, Env: []string{"HOOKCTL_ALLOW_UNTRUSTED=1"}})
	if blocked(r) {
		t.Errorf("HOOKCTL_ALLOW_UNTRUSTED=1 in the request: %s %s", r.Stdout, r.Stderr)
	}
	// Warn, where the modes say so: a message, no block.
	r = runtime.New().Answer(context.Background(), runtime.Request{Protocol: cl, Payload: []byte(ls), Config: cfg, Modes: runtime.Modes{OnUntrusted: runtime.ModeWarn}})
	if blocked(r) || !strings.Contains(string(r.Stdout), "systemMessage") {
		t.Errorf("on-untrusted=warn: %s %s", r.Stdout, r.Stderr)
	}
}

// TestTryReturnsInputErrors: Try leaves input that cannot be read to the
// transport, as an *InputError, and answers the rest.
func TestTryReturnsInputErrors(t *testing.T) {
	cfg := config(t, denyRm)
	rt := runtime.New()
	for _, in := range []string{`{`, `[]`, `{}`, `{"hook_event_name":1}`} {
		_, err := rt.Try(context.Background(), runtime.Request{Protocol: claudeProtocol(t), Payload: []byte(in), Config: cfg, Modes: runtime.Modes{AllowUntrusted: true}})
		var ie *runtime.InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: %v, want an *InputError", in, err)
		}
	}
	r, err := rt.Try(context.Background(), runtime.Request{Protocol: claudeProtocol(t), Payload: []byte(rm), Config: cfg, Modes: runtime.Modes{AllowUntrusted: true}})
	if err != nil || !blocked(r) {
		t.Fatalf("%v %s", err, r.Stdout)
	}
}

// TestDetectsTheHostFromTheRequest: without a protocol the host is
// detected from the payload and the request's environment (not the
// process's), and said on Stderr with Modes.Verbose only: Gemini CLI
// shows a hook's stderr to its user on every event (before, the line was
// written on every call).
func TestDetectsTheHostFromTheRequest(t *testing.T) {
	cfg := config(t, denyRm)
	for _, verbose := range []bool{true, false} {
		var stderr strings.Builder
		r := runtime.New().Answer(context.Background(), runtime.Request{
			Payload: []byte(`{"event":"PreToolUse","hook_event_name":"PreToolUse","tool_name":"bash","tool_input":{"command":"rm -rf /"}}`),
			Config:  cfg, Modes: runtime.Modes{AllowUntrusted: true, Verbose: verbose}, Env: []string{"CRUSH=1"}, Stderr: &stderr,
		})
		said := strings.Contains(stderr.String(), "hookctl: host crush (CRUSH is set in the environment)")
		if said != verbose || !verbose && stderr.Len() != 0 || !strings.Contains(string(r.Stdout), `"decision":"deny"`) {
			t.Fatalf("verbose %v: %q\n%s", verbose, stderr.String(), r.Stdout)
		}
	}
}

// TestDiscoverUsesTheRequest: the configuration is found from the
// request's working directory and environment.
func TestDiscoverUsesTheRequest(t *testing.T) {
	cfg := config(t, denyRm)
	dir := filepath.Dir(cfg)
	env := func(kv ...string) func(string) string { return runtime.Getenv(kv) }
	for _, c := range []struct {
		config, cwd string
		getenv      func(string) string
		want        string
	}{
		{"x.hcl", dir, env("HOOKCTL_CONFIG=y.hcl"), "x.hcl"},
		{"", "/", env("HOOKCTL_CONFIG=y.hcl"), "y.hcl"},
		{"", dir, env(), "hooks.hcl"},
		{"", "/", env("CLAUDE_PROJECT_DIR=" + dir), ""},
	} {
		got, err := runtime.Discover(c.config, c.cwd, c.getenv)
		if c.want == "" {
			if !errors.Is(err, runtime.ErrNoConfig) {
				t.Errorf("%+v: %q %v", c, got, err)
			}
			continue
		}
		if got != c.want || err != nil {
			t.Errorf("%+v: %q %v, want %q", c, got, err, c.want)
		}
	}
}

// TestCacheKeepsTheEngine: a Cache serves calls with one engine while the
// configuration's files are unchanged, and loads the new one after a
// change.
func TestCacheKeepsTheEngine(t *testing.T) {
	cfg := config(t, denyRm)
	cache := runtime.NewCache(settledClock())
	defer cache.Close()
	rt := runtime.New(runtime.WithSource(cache))
	req := runtime.Request{Protocol: claudeProtocol(t), Payload: []byte(rm), Config: cfg, Modes: runtime.Modes{AllowUntrusted: true}}
	if r := rt.Answer(context.Background(), req); !blocked(r) {
		t.Fatalf("%s", r.Stdout)
	}
	abs, _ := filepath.Abs(cfg)
	eng, _, release, ok := cache.Lookup(abs)
	if !ok {
		t.Fatal("not cached")
	}
	release()
	if r := rt.Answer(context.Background(), req); !blocked(r) {
		t.Fatalf("%s", r.Stdout)
	}
	again, _, release, _ := cache.Lookup(abs)
	release()
	if again != eng {
		t.Fatal("the second call loaded another engine")
	}
	if err := os.WriteFile(cfg, []byte(strings.Replace(denyRm, "rm -rf is not allowed", "changed", 1)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := rt.Answer(context.Background(), req); !strings.Contains(string(r.Stdout), "changed") {
		t.Fatalf("after a change: %s", r.Stdout)
	}
}

// TestOutcome: fire's path, the same decoder and load without a protocol.
func TestOutcome(t *testing.T) {
	cfg := config(t, denyRm)
	rt := runtime.New()
	out, _, err := rt.Outcome(context.Background(), runtime.Request{Config: cfg,
		Decoded: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /"}}, Event: "PreToolUse"})
	if err != nil || out.Decision != engine.DecisionDeny {
		t.Fatalf("%v %+v", err, out)
	}
	if _, _, err := rt.Outcome(context.Background(), runtime.Request{Config: cfg}); err == nil {
		t.Fatal("no event, no error")
	}
	var ne *runtime.NestedError
	if _, _, err := rt.Outcome(context.Background(), runtime.Request{Config: cfg, Event: "PreToolUse", Env: []string{"HOOKCTL_DEPTH=2"}}); !errors.As(err, &ne) {
		t.Fatalf("nested: %v", err)
	}
}

// TestWatchedAnswersFailClosed: serve's source. An engine that cannot
// fire (closed under the request) and a panic are the host's block, not
// an error the transport would turn into a 5xx (which Claude Code reads
// as a non-blocking error: the action would run).
func TestWatchedAnswersFailClosed(t *testing.T) {
	cfg := config(t, denyRm)
	eng, err := assemble.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	c, err := assemble.Load(cfg, assemble.WithEngine(eng))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := eng.Load(c.Engine); err != nil {
		t.Fatal(err)
	}
	rt := runtime.New(runtime.WithSource(runtime.Watched(eng)), runtime.WithTransportLimits())
	ls := []byte(strings.Replace(rm, "rm -rf /", "ls", 1))
	if r, err := rt.Try(context.Background(), runtime.Request{Protocol: claudeProtocol(t), Payload: []byte(rm)}); err != nil || !blocked(r) {
		t.Fatalf("rm: %v %s", err, r.Stdout)
	}
	if r, err := rt.Try(context.Background(), runtime.Request{Protocol: panicky{claudeProtocol(t)}, Payload: ls}); err != nil || !blocked(r) {
		t.Fatalf("panic: %v %s %s", err, r.Stdout, r.Stderr)
	}
	eng.Close(context.Background())
	r, err := rt.Try(context.Background(), runtime.Request{Protocol: claudeProtocol(t), Payload: ls})
	if err != nil || !blocked(r) {
		t.Fatalf("closed engine: %v %q %q", err, r.Stdout, r.Stderr)
	}
}

// hostless decodes events that name no host: answering one panics after
// the engine fired.
type hostless struct{ runtime.Protocol }

func (p hostless) Decode(raw map[string]any, event string) (*runtime.Event, error) {
	ev, err := p.Protocol.Decode(raw, event)
	if ev != nil {
		ev.Protocol = nil
	}
	return ev, err
}

// TestPanicReleasesTheEngine: a panic after the engine was acquired is
// the host's block, and the cached engine is let go (a retired engine
// still closes).
func TestPanicReleasesTheEngine(t *testing.T) {
	cfg := config(t, denyRm)
	cache := runtime.NewCache(settledClock())
	rt := runtime.New(runtime.WithSource(cache))
	r := rt.Answer(context.Background(), runtime.Request{Protocol: hostless{claudeProtocol(t)}, Payload: []byte(rm), Config: cfg, Modes: runtime.Modes{AllowUntrusted: true}})
	if !blocked(r) || !strings.Contains(r.Stderr+string(r.Stdout), "the call failed") {
		t.Fatalf("%d %s %s", r.ExitCode, r.Stdout, r.Stderr)
	}
	abs, _ := filepath.Abs(cfg)
	eng, _, release, ok := cache.Lookup(abs)
	if !ok {
		t.Fatal("not cached")
	}
	release()
	cache.Close()
	for deadline := time.Now().Add(10 * time.Second); !eng.Closed(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the retired engine was never closed: the panicking call still holds it")
		}
	}
}

func writeFile(path, content string) error { return os.WriteFile(path, []byte(content), 0o600) }

// TestHostTimeoutAnswersAHookThatIgnoresCancel: a hook still running at
// the deadline (the host's timeout less its margin) gets the host's block
// with the reason, even when the hook ignores its cancelled context: the
// answer comes while the hook still runs.
func TestHostTimeoutAnswersAHookThatIgnoresCancel(t *testing.T) {
	eng, err := assemble.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	release := make(chan struct{})
	running := make(chan struct{})
	if err := eng.Register(engine.Hook{ID: "stuck", Event: "PreToolUse", Handler: engine.HandlerFunc(func(context.Context, *engine.Call) (engine.Result, error) {
		close(running)
		<-release // ignores its context
		return nil, nil
	})}); err != nil {
		t.Fatal(err)
	}
	rt := runtime.New(runtime.WithSource(runtime.Watched(eng)))
	gemini, _ := runtime.Lookup("gemini")
	payload := []byte(`{"hook_event_name":"BeforeTool","session_id":"s","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`)
	r, err := rt.Try(context.Background(), runtime.Request{Protocol: gemini, Payload: payload, HostTimeout: 300 * time.Millisecond})
	select {
	case <-running:
	default:
		t.Fatal("the hook never ran")
	}
	close(release) // only now may the hook end
	if err != nil || !strings.Contains(string(r.Stdout), `"decision":"deny"`) ||
		!strings.Contains(string(r.Stdout), "hooks still running after 270ms, Gemini CLI would stop waiting at 300ms; blocked") {
		t.Fatalf("%v %s %s", err, r.Stdout, r.Stderr)
	}
	if runtime.Deadline(60*time.Second) != 55*time.Second || runtime.Deadline(2*time.Second) != 1800*time.Millisecond {
		t.Fatal("the margin is not a tenth of the timeout, at most 5s")
	}
}

// TestAnswerTracesOnlyWhatTheReplyShows: a host's answer counts the hooks
// that ran cleanly instead of tracing them (engine.WithQuietRuns), and
// still tells the user of a hook that failed among them, whose failure
// the hooks that answered cannot hide.
func TestAnswerTracesOnlyWhatTheReplyShows(t *testing.T) {
	cfg := config(t, `
hook "first" {
  event = "PreToolUse"
  priority = 3
  js = "return { additional_context: 'first ran' }"
}
hook "broken" {
  event = "PreToolUse"
  priority = 2
  js = "throw new Error('boom')"
}
hook "last" {
  event = "PreToolUse"
  priority = 1
  js = "return { additional_context: 'last ran' }"
}
`)
	ls := strings.Replace(rm, "rm -rf /", "ls", 1)
	r := runtime.New().Answer(context.Background(), runtime.Request{Protocol: claudeProtocol(t), Payload: []byte(ls), Config: cfg, Modes: runtime.Modes{AllowUntrusted: true}})
	out := string(r.Stdout) + r.Stderr
	for _, want := range []string{"first ran", "last ran", `hook \"broken\" failed (error)`, "boom"} {
		if !strings.Contains(out, want) {
			t.Errorf("the reply does not say %q: exit %d %s", want, r.ExitCode, out)
		}
	}
	if got := r.Outcome; len(got.Hooks) != 1 || got.Hooks[0].ID != "broken" || got.UntracedRuns != 2 {
		t.Errorf("traces %+v, %d untraced runs; want the failure alone, and 2", got.Hooks, got.UntracedRuns)
	}
}

// TestReplyOnlyFiresIntoPooledOutcomes: a runtime whose caller keeps
// nothing of a reply but its bytes (WithReplyOnly) fires into pooled
// outcomes (engine.FireInto): fewer allocations a call, the same reply.
func TestReplyOnlyFiresIntoPooledOutcomes(t *testing.T) {
	eng, err := assemble.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	c, err := assemble.Load(config(t, denyRm), assemble.WithEngine(eng))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := eng.Load(c.Engine); err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	p, _ := runtime.Lookup("claude")
	allocs := func(rt *runtime.Runtime) (float64, runtime.Reply) {
		var r runtime.Reply
		n := testing.AllocsPerRun(200, func() {
			var err error
			if r, err = rt.Try(context.Background(), runtime.Request{Protocol: p, Payload: []byte(rm)}); err != nil {
				t.Fatal(err)
			}
		})
		return n, r
	}
	full, want := allocs(runtime.New(runtime.WithSource(runtime.Watched(eng))))
	pooled, got := allocs(runtime.New(runtime.WithSource(runtime.Watched(eng)), runtime.WithReplyOnly()))
	if string(got.Stdout) != string(want.Stdout) || got.Stderr != want.Stderr || got.ExitCode != want.ExitCode || !got.Outcome.Blocked {
		t.Fatalf("reply only: %d %s %q %+v; full: %d %s %q", got.ExitCode, got.Stdout, got.Stderr, got.Outcome, want.ExitCode, want.Stdout, want.Stderr)
	}
	t.Logf("allocations a call: %v with the outcome, %v reply only", full, pooled)
	if pooled >= full {
		t.Fatalf("allocations a call: %v reply only, %v with the outcome; want fewer", pooled, full)
	}
}

// TestCacheKeysTheNameAsOpened: a configuration named through a link and
// ".." (link/../.claude/hooks.hcl, which the system opens in link's
// target's parent) is not the configuration the name reads as when
// cleaned (.claude/hooks.hcl beside link): a Cache serves each its own
// engine. It served the cleaned name's, and sub's deny never ran.
func TestCacheKeysTheNameAsOpened(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOOKCTL_TRUST_FILE", filepath.Join(dir, "trust.json"))
	for p, src := range map[string]string{
		".claude/hooks.hcl":     "hook \"ctx\" {\n  event = \"PreToolUse\"\n  additional_context = \"plain\"\n}\n",
		"sub/.claude/hooks.hcl": denyRm,
	} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, p), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(dir, "sub", "deeper"), 0o755)
	if err := os.Symlink("sub/deeper", filepath.Join(dir, "link")); err != nil {
		t.Skip(err)
	}
	cache := runtime.NewCache(settledClock())
	defer cache.Close()
	rt := runtime.New(runtime.WithSource(cache))
	answer := func(cfg string) runtime.Reply {
		return rt.Answer(context.Background(), runtime.Request{Protocol: claudeProtocol(t), Payload: []byte(rm),
			Config: cfg, Modes: runtime.Modes{AllowUntrusted: true}})
	}
	if r := answer(filepath.Join(dir, ".claude", "hooks.hcl")); blocked(r) {
		t.Fatalf("the plain configuration blocked: %s", r.Stdout)
	}
	if r := answer(dir + "/link/../.claude/hooks.hcl"); !blocked(r) {
		t.Fatalf("link/../.claude/hooks.hcl was answered with another configuration's engine: %s", r.Stdout)
	}
}

// settledClock is a cache clock a settle tick after now: every file the
// test wrote counts as written before the load (as a configuration a
// daemon loads mostly was).
func settledClock() runtime.CacheOption {
	return runtime.WithCacheClock(func() time.Time { return time.Now().Add(filestamp.SettleTick + time.Second) })
}

// TestCacheKeepsOnlySettledEngines: an engine loaded from a file written
// within a tick of the file system's clock before the load is not kept,
// since a change in that tick may leave the file's stamp as it was and
// the cached engine would run without it; it serves its call. Once the
// files have settled, the engine is kept.
func TestCacheKeepsOnlySettledEngines(t *testing.T) {
	cfg := config(t, denyRm)
	abs, _ := filepath.Abs(cfg)
	req := runtime.Request{Protocol: claudeProtocol(t), Payload: []byte(rm), Config: cfg, Modes: runtime.Modes{AllowUntrusted: true}}

	fresh := runtime.NewCache() // the real clock: the file was written just now
	defer fresh.Close()
	if r := runtime.New(runtime.WithSource(fresh)).Answer(context.Background(), req); !blocked(r) {
		t.Fatalf("%s", r.Stdout)
	}
	if _, _, release, ok := fresh.Lookup(abs); ok {
		release()
		t.Fatal("an engine loaded from a file written within the clock's tick was kept")
	}

	settled := runtime.NewCache(settledClock())
	defer settled.Close()
	if r := runtime.New(runtime.WithSource(settled)).Answer(context.Background(), req); !blocked(r) {
		t.Fatalf("%s", r.Stdout)
	}
	_, _, release, ok := settled.Lookup(abs)
	if !ok {
		t.Fatal("an engine loaded from settled files was not kept")
	}
	release()
}
