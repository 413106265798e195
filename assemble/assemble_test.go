package assemble_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/stdlib"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreCurrent())
}

func newEngine(t *testing.T) *engine.Engine {
	t.Helper()
	e, err := engine.New(engine.WithConditionOptions(conditions.WithFunctions(stdlib.ConditionFunctions()...)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}

func load(t *testing.T, path string) *assemble.Config {
	t.Helper()
	cfg, err := assemble.Load(path)
	if err != nil {
		t.Fatalf("load %s:\n%v", path, err)
	}
	t.Cleanup(cfg.Close)
	return cfg
}

func fire(t *testing.T, e *engine.Engine, event string, payload map[string]any) engine.Outcome {
	t.Helper()
	out, err := e.Fire(context.Background(), engine.Event{Name: event, Payload: payload})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestLoadGoodConfig(t *testing.T) {
	cfg := load(t, "testdata/good/hooks.hcl")
	s := cfg.Settings
	if s.MaxConcurrency != 4 || s.DefaultTimeout != 2*time.Second || *s.StopBlockCap != 2 || len(s.Required) != 1 {
		t.Fatalf("settings %+v", s)
	}
	if len(cfg.Engine.Events) != 1 || cfg.Engine.Events[0].Merge["level"].Rule != engine.MergeRestrictive ||
		!cfg.Engine.Events[0].Merge["block"].Terminal {
		t.Fatalf("events %+v", cfg.Engine.Events)
	}
	var ids []string
	for _, h := range cfg.Engine.Hooks {
		ids = append(ids, h.ID)
	}
	if strings.Join(ids, ",") != "gate,ctx,rewrite,deploy,who,builtin:prompt-length" {
		t.Fatalf("hooks %v", ids)
	}
	gate := cfg.Engine.Hooks[0]
	if gate.OnError.Policy != engine.ErrorBlock {
		t.Fatal("a required hook must fail closed")
	}
	if rw := cfg.Engine.Hooks[2]; rw.OnError.Policy != engine.ErrorRetry || rw.OnError.Attempts != 2 || rw.OnError.Backoff != 10*time.Millisecond || rw.Timeout != 300*time.Millisecond {
		t.Fatalf("rewrite %+v", rw)
	}

	e := newEngine(t)
	if err := e.Load(cfg.Engine); err != nil {
		t.Fatal(err)
	}
	out := fire(t, e, "PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /"}})
	if out.Decision != "deny" || out.Reason != "no Bash rm -rf" {
		t.Fatalf("%+v", out)
	}
	out = fire(t, e, "PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "pip install x"}})
	if out.UpdatedInput["command"] != "uv pip install x" {
		t.Fatalf("%+v", out)
	}
	out = fire(t, e, "UserPromptSubmit", map[string]any{"prompt": "short"})
	if out.AdditionalContext != "Follow the style guide.\n" || out.Blocked {
		t.Fatalf("%+v", out)
	}
	out = fire(t, e, "UserPromptSubmit", map[string]any{"prompt": "far too long a prompt"})
	if !out.Blocked {
		t.Fatalf("prompt-length did not block: %+v", out)
	}
	out = fire(t, e, "deploy.pre", map[string]any{"service": "api"})
	if out.Output["replicas"] != int64(3) || out.Output["level"] != "low" {
		t.Fatalf("%+v", out.Output)
	}
}

func TestLoadDirectory(t *testing.T) {
	cfg := load(t, "testdata/good/dir")
	if len(cfg.Files) != 2 || len(cfg.Engine.Hooks) != 2 || *cfg.Settings.StopBlockCap != 1 {
		t.Fatalf("%+v", cfg)
	}
	e := newEngine(t)
	if err := e.Load(cfg.Engine); err != nil {
		t.Fatal(err)
	}
	out := fire(t, e, "Stop", map[string]any{"session_id": "s"})
	if out.Decision != "block" || out.AdditionalContext != "from b" {
		t.Fatalf("%+v", out)
	}
	if out = fire(t, e, "Stop", map[string]any{"session_id": "s"}); !out.StopGuard.Released {
		t.Fatalf("the directory's settings were not applied: %+v", out)
	}
}

// TestLoadSkipsTestFiles: a directory's *_test.hcl files are tests for
// hookctl test, never configuration: one that would not even parse as a
// configuration leaves the load untouched.
func TestLoadSkipsTestFiles(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"hooks.hcl":      "hook \"gate\" {\n  event    = \"PreToolUse\"\n  decision = \"deny\"\n}\n",
		"hooks_test.hcl": "test \"gate denies\" {\n  event = \"PreToolUse\"\n  expect { decision = \"deny\" }\n}\n",
		"bad_test.hcl":   "hook \"gate\" { event = \"NoSuchEvent\" }\n{{{",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := load(t, dir)
	if len(cfg.Files) != 1 || len(cfg.Engine.Hooks) != 1 {
		t.Fatalf("loaded %v with %d hooks", cfg.Files, len(cfg.Engine.Hooks))
	}
	if _, err := assemble.Load(filepath.Join(dir, "hooks_test.hcl")); err == nil {
		t.Fatal("a test file loaded as a configuration")
	}
}

// TestDiagnosticsGolden loads each broken configuration and compares the
// rendered diagnostics with its golden file: every problem at once, each
// with file:line:column and a snippet.
func TestDiagnosticsGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/bad/*.hcl")
	if len(files) < 10 {
		t.Fatalf("only %d bad configs", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			cfg, err := assemble.Load(f)
			if err == nil {
				cfg.Close()
				t.Fatal("loaded a broken configuration")
			}
			var d *hcl.Diagnostics
			if !errors.As(err, &d) {
				t.Fatalf("error is %T: %v", err, err)
			}
			var b bytes.Buffer
			d.Render(&b)
			golden := strings.TrimSuffix(f, ".hcl") + ".golden"
			if *update {
				if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Fatalf("diagnostics changed (-update to accept):\n%s", b.String())
			}
			// Every error names a position in the file.
			for _, diag := range d.Errors() {
				if diag.Line == 0 {
					t.Errorf("no position: %s", diag.Summary)
				}
			}
		})
	}
}

func TestWarnings(t *testing.T) {
	cfg, err := assemble.LoadSource("w.hcl", []byte(`
hook "a" {
  event    = "UserPromptSubmit"
  matcher  = "Bash"
  decision = "block"
}
hook "b" {
  event    = "PreToolUse"
  matcher  = "Bash(git push:*)"
  decision = "ask"
}`), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	var b bytes.Buffer
	cfg.Warnings.Render(&b)
	if !strings.Contains(b.String(), "w.hcl:4:14: warning[HK1404]: Matcher has no effect") || !strings.Contains(b.String(), "Matcher looks like a permission rule") {
		t.Fatalf("%s", b.String())
	}
}

func TestFunctionsStayInsideTheConfigDir(t *testing.T) {
	dir := t.TempDir()
	_, err := assemble.LoadSource("f.hcl", []byte(`
hook "a" {
  event = "UserPromptSubmit"
  additional_context = file("../../etc/passwd")
}`), dir)
	if err == nil || !strings.Contains(err.Error(), "outside the configuration directory") {
		t.Fatalf("%v", err)
	}
	cfg, err := assemble.LoadSource("f.hcl", []byte(`
hook "a" {
  event = "UserPromptSubmit"
  additional_context = "${env("HOOKCTL_TEST_VAR")}|${env("HOOKCTL_MISSING", "dflt")}|${upper("x")}"
}`), dir, assemble.WithEnv(func(k string) (string, bool) {
		if k == "HOOKCTL_TEST_VAR" {
			return "v", true
		}
		return "", false
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	r, _ := engine.StaticResult(cfg.Engine.Hooks[0].Handler)
	if r["additional_context"] != "v|dflt|X" {
		t.Fatalf("%v", r)
	}
}

// TestReloadKeepsLastGoodConfig: a watcher swaps a new configuration in,
// and a broken one leaves the old one serving.
func TestReloadKeepsLastGoodConfig(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.hcl")
	files := newFileWriter(t)
	write := func(reason string) {
		src := `hook "gate" {
  event    = "PreToolUse"
  decision = "deny"
  reason   = "` + reason + `"
}
`
		files.write(path, src)
	}
	write("v1")
	e := newEngine(t)
	var reloads, failures atomic.Int32
	reloaded := make(chan struct{}, 1) // a reload was tried since the last look
	w, err := assemble.Watch(e, path, assemble.WithInterval(10*time.Millisecond), assemble.OnReload(func(c *assemble.Config, err error) {
		if err != nil {
			failures.Add(1)
		} else {
			reloads.Add(1)
		}
		select {
		case reloaded <- struct{}{}:
		default:
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		w.Close()
		w.Config().Close()
	}()
	reason := func() string { return fire(t, e, "PreToolUse", nil).Reason }
	if reason() != "v1" {
		t.Fatal(reason())
	}
	waitFor := func(cond func() bool) {
		t.Helper()
		for !cond() {
			select {
			case <-reloaded:
			case <-time.After(time.Minute): // a guard against a hang, not a measure
				t.Fatal("the watcher never reloaded")
			}
		}
	}
	write("v2")
	waitFor(func() bool { return reason() == "v2" })

	files.write(path, `hook "gate" { event = "NoSuchEvent" decision = "deny" }`)
	waitFor(func() bool { return failures.Load() > 0 })
	if reason() != "v2" {
		t.Fatalf("a broken config replaced the good one: %q", reason())
	}
	if err := w.Reload(); err == nil {
		t.Fatal("reloading a broken config succeeded")
	}
	write("v3")
	waitFor(func() bool { return reason() == "v3" })
	// OnReload runs after the swap: a fire can see v3 before it counts.
	waitFor(func() bool { return reloads.Load() >= 3 })
}

// TestScriptMemoryLimit: the memory guard's limit is a size, and it reaches
// the script pool: a runaway hook is stopped at it.
func TestScriptMemoryLimit(t *testing.T) {
	dir := t.TempDir()
	write := func(src string) string {
		p := filepath.Join(dir, "hooks.hcl")
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for in, want := range map[string]int64{`"64MiB"`: 64 << 20, `"1GB"`: 1e9, `"512k"`: 512e3, `1048576`: 1 << 20, `"0"`: 0} {
		cfg := load(t, write("settings {\n  script_memory_limit = "+in+"\n}\n"))
		if got := cfg.Settings.ScriptMemoryLimit; got == nil || *got != want {
			t.Errorf("%s: %v, want %d", in, got, want)
		}
	}
	if _, err := assemble.Load(write("settings {\n  script_memory_limit = \"12 apples\"\n}\n")); err == nil || !strings.Contains(err.Error(), "Invalid size") {
		t.Fatalf("bad size: %v", err)
	}
	cfg := load(t, write(`settings {
  script_memory_limit = "32MiB"
}
hook "hog" {
  event = "PreToolUse"
  js    = "const a = []; while (true) { a.push('x'.repeat(1 << 16) + a.length); }"
  timeout = "30s"
}
`))
	e := newEngine(t)
	if err := e.Load(cfg.Engine); err != nil {
		t.Fatal(err)
	}
	out := fire(t, e, "PreToolUse", map[string]any{"tool_name": "Bash"})
	if len(out.Hooks) != 1 || !strings.Contains(out.Hooks[0].Error, "memory limit") {
		t.Fatalf("%+v", out.Hooks)
	}
}

// TestCommandOnlyAttributes: protocol is claude or opta, and env, cwd and
// protocol on a hook that runs no program are errors, not silently
// ignored.
func TestCommandOnlyAttributes(t *testing.T) {
	cfg, err := assemble.LoadSource("ok.hcl", []byte(`
hook "opta" {
  event    = "PreToolUse"
  command  = "exit 0"
  protocol = "opta"
}
`), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Close()
	for _, tc := range []struct{ src, want string }{
		{`hook "x" {
  event    = "PreToolUse"
  command  = "exit 0"
  protocol = "bash"
}`, `x.hcl:4:14: error[HK1612]: Invalid protocol`},
		{`hook "x" {
  event    = "PreToolUse"
  command  = "exit 0"
  shell    = "powershell"
}`, ``},
		{`hook "x" {
  event    = "PreToolUse"
  js       = "return null"
  protocol = "opta"
}`, `x.hcl:4:14: error[HK1609]: Attribute only for command hooks`},
		{`hook "x" {
  event    = "PreToolUse"
  decision = "deny"
  cwd      = "/tmp"
}`, `x.hcl:4:14: error[HK1609]: Attribute only for command hooks`},
		{`hook "x" {
  event    = "PreToolUse"
  command  = "exit 0"
  shell    = "zsh"
}`, `x.hcl:4:14: error[HK1621]: Invalid shell`},
		{`hook "x" {
  event    = "PreToolUse"
  command  = ["/bin/true"]
  shell    = "bash"
}`, `x.hcl:4:14: error[HK1621]: Invalid shell`},
		{`hook "x" {
  event    = "PreToolUse"
  js       = "return null"
  shell    = "bash"
}`, `x.hcl:4:14: error[HK1609]: Attribute only for command hooks`},
	} {
		cfg, err := assemble.LoadSource("x.hcl", []byte(tc.src), t.TempDir())
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s\nerror: %v", tc.src, err)
			} else {
				cfg.Close()
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s\nerror: %v\nwant %s", tc.src, err, tc.want)
		}
	}
}

// TestNoRuntimeForEventsWithoutScripts: told which event will fire, the
// load makes no script runtime ready unless a script hook is on it.
func TestNoRuntimeForEventsWithoutScripts(t *testing.T) {
	src := []byte(`
hook "js" {
  event = "PreToolUse"
  js    = "return null"
}
hook "decl" {
  event    = "Stop"
  decision = "block"
}
`)
	for _, tc := range []struct {
		events []string
		want   int
	}{
		{nil, 1},
		{[]string{"PreToolUse"}, 1},
		{[]string{"before_tool_call"}, 1}, // an alias of PreToolUse
		{[]string{"Stop"}, -1},            // no script compiled: no pool at all
	} {
		cfg, err := assemble.LoadSource("h.hcl", src, t.TempDir(), assemble.WithEvents(tc.events...))
		if err != nil {
			t.Fatal(err)
		}
		if got := assemble.ScriptRuntimes(cfg); got != tc.want {
			t.Errorf("events %v: %d runtimes, want %d", tc.events, got, tc.want)
		}
		cfg.Close()
	}
}

// TestOneShotCompilesOnlyFiredScripts: told which event will fire, the load
// compiles only the script hooks on it. A script hook on another event is
// not compiled (its syntax error surfaces when its own event fires), and
// stands in as a hook that fails, under its error policy: never an allow.
func TestOneShotCompilesOnlyFiredScripts(t *testing.T) {
	src := []byte(`
hook "pre" {
  event = "PreToolUse"
  js    = "return { decision: \"deny\", reason: \"pre ran\" }"
}
hook "broken-stop" {
  event    = "Stop"
  js       = "return ("
  on_error = "block"
}
`)
	if _, err := assemble.LoadSource("h.hcl", src, t.TempDir()); err == nil || !strings.Contains(err.Error(), "syntax error") {
		t.Fatalf("a full load must report the broken script, got %v", err)
	}
	e := newEngine(t)
	cfg, err := assemble.LoadSource("h.hcl", src, t.TempDir(), assemble.WithEngine(e), assemble.WithEvents("PreToolUse"))
	if err != nil {
		t.Fatalf("one-shot load for PreToolUse: %v", err)
	}
	defer cfg.Close()
	if err := e.Load(cfg.Engine); err != nil {
		t.Fatal(err)
	}
	if out := fire(t, e, "PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}); out.Reason != "pre ran" {
		t.Fatalf("PreToolUse: %+v", out)
	}
	out := fire(t, e, "Stop", map[string]any{})
	tr, _ := out.Hook("broken-stop")
	if tr.Status != engine.StatusError || !strings.Contains(tr.Error, "not built") || !out.Blocked {
		t.Fatalf("the hook not built for this run: %+v, blocked %v", tr, out.Blocked)
	}
}

// TestEngineSummariesHaveCodes: the summaries given to the engine's
// verdicts (computed, so not seen by hcl's scan of the source) each have
// a code of their own.
func TestEngineSummariesHaveCodes(t *testing.T) {
	for field, s := range assemble.EngineFieldSummaries {
		if hcl.CodeOf(s) == hcl.CodeOther {
			t.Errorf("%s: summary %q has no code", field, s)
		}
	}
	if hcl.CodeOf("Invalid hook") == hcl.CodeOther {
		t.Error(`"Invalid hook" has no code`)
	}
}

// TestBuiltinsReadTheGivenEnvironment: WithEnv reaches the built-in
// hooks: dangerous-commands judges "outside the project" by the given
// CLAUDE_PROJECT_DIR, not the process's.
func TestBuiltinsReadTheGivenEnvironment(t *testing.T) {
	t.Setenv("CLAUDE_PROJECT_DIR", "/srv/process-project")
	env := map[string]string{"CLAUDE_PROJECT_DIR": "/srv/agent-project", "HOME": "/home/agent"}
	cfg, err := assemble.LoadSource("b.hcl", []byte(`builtin "dangerous-commands" {}`), t.TempDir(),
		assemble.WithEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok }))
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	e := newEngine(t)
	if err := e.Load(cfg.Engine); err != nil {
		t.Fatal(err)
	}
	payload := map[string]any{"hook_event_name": "PreToolUse", "cwd": "/srv/elsewhere", "tool_name": "Bash",
		"tool_input": map[string]any{"command": "rm -rf /srv/process-project/build"}}
	out := fire(t, e, "PreToolUse", payload)
	if out.Decision != "deny" || !strings.Contains(out.Reason, "outside the project /srv/agent-project") {
		t.Fatalf("%s %q", out.Decision, out.Reason)
	}
}

// TestScriptLoadDeadlineIsALoadFailure: a script whose top-level code
// runs past the load deadline was read; it failed to load (HK1502), it is
// not missing or unreadable (HK1503).
func TestScriptLoadDeadlineIsALoadFailure(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the load deadline")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s.js"), []byte("while (true) {}\nexport default function (event) { return {}; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "hooks.hcl")
	if err := os.WriteFile(p, []byte("hook \"a\" {\n  event    = \"Stop\"\n  script   = \"s.js\"\n  on_error = \"block\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := assemble.Load(p)
	var d *hcl.Diagnostics
	if !errors.As(err, &d) || len(d.List) != 1 {
		t.Fatalf("load: %v", err)
	}
	if got := d.List[0]; got.Summary != "Script failed to load" || got.Code != "HK1502" {
		t.Fatalf("%s %s: %s", got.Code, got.Summary, got.Detail)
	}
}
