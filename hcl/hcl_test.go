package hcl_test

import (
	"go/build"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
)

func parse(t *testing.T, path string) *hcl.Config {
	t.Helper()
	cfg, err := hcl.Parse(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := cfg.Diagnostics(); d.HasErrors() {
		t.Fatalf("%v", d)
	}
	return cfg
}

// TestDecodeIsInert: every block is decoded with its range, declarative
// hooks carry their static handler, the code-running ones only their kind
// and body: a script that is not even JavaScript decodes fine, because
// nothing is compiled or run.
func TestDecodeIsInert(t *testing.T) {
	cfg := parse(t, "testdata/decode/hooks.hcl")
	var kinds []string
	for _, hb := range cfg.Hooks {
		kinds = append(kinds, hb.Hook.ID+"="+hb.Kind)
		if hb.Kind == "declarative" {
			if _, ok := engine.StaticResult(hb.Hook.Handler); !ok || hb.Body != nil {
				t.Fatalf("%s: a declarative hook carries its static handler", hb.Hook.ID)
			}
			continue
		}
		if hb.Hook.Handler != nil || hb.Body == nil || hb.Body.Kind() != hb.Kind {
			t.Fatalf("%s: a %s hook is not built while decoding", hb.Hook.ID, hb.Kind)
		}
	}
	if got := strings.Join(kinds, " "); got != "no-rm=declarative rewrite=script inline=js lint=command" {
		t.Fatal(got)
	}
	norm := cfg.Hooks[0]
	if norm.Hook.Condition == nil || norm.Hook.Matcher != "Bash" || norm.Range.Start.Line != 10 || norm.RangeOf("when").Start.Line != 13 {
		t.Fatalf("%+v", norm)
	}
	if r := norm.RangeOf("decision"); r.Start.Line != 14 || r.Start.Column != 14 {
		t.Fatalf("decision at %v", r)
	}
	if rw := cfg.Hooks[1]; !slices.Equal(rw.Allow, []string{"read"}) {
		t.Fatalf("allow %v", rw.Allow)
	}
	if in, ok := cfg.Hooks[2].Body.Inline("js"); !ok || !strings.Contains(in.Text, "be careful") || in.Line != 26 {
		t.Fatalf("inline body %+v", in)
	}
	if len(cfg.Builtins) != 1 || cfg.Builtins[0].Name != "prompt-length" || cfg.Builtins[0].Options["max_chars"] != int64(1000) {
		t.Fatalf("builtins %+v", cfg.Builtins)
	}
	if cfg.Settings.DefaultTimeout.String() != "2s" || cfg.RequiredRange.Start.Line != 3 {
		t.Fatalf("settings %+v", cfg.Settings)
	}
}

// TestRefsNameEveryFileTheConfigReads: the script, the command's program
// and the file file() read, as absolute paths.
func TestRefsNameEveryFileTheConfigReads(t *testing.T) {
	cfg := parse(t, "testdata/decode/hooks.hcl")
	dir, _ := filepath.Abs("testdata/decode")
	want := []string{filepath.Join(dir, "banner.txt"), filepath.Join(dir, "scripts/lint.sh"), filepath.Join(dir, "scripts/rewrite.js")}
	if got := cfg.Refs(); !slices.Equal(got, want) {
		t.Fatalf("refs %v, want %v", got, want)
	}
}

// TestProblemsAreDiagnosticsWithPositions: decoding goes on after a
// problem and reports each at its place.
func TestProblemsAreDiagnosticsWithPositions(t *testing.T) {
	cfg := hcl.ParseSource("x.hcl", []byte(`hook "a" {
  event   = "PreToolUse"
  timeout = "soon"
  when    = "tool_name =="
  js      = "return {}"
}
hook "b" {
  evnt = "Stop"
}
`), t.TempDir())
	d := cfg.Diagnostics()
	text := d.Error()
	for _, want := range []string{"x.hcl:3:13: error[HK1103]: Invalid duration", "x.hcl:4:25: error[HK1401]: Invalid condition", `x.hcl:8:3: error[HK1202]: Unsupported argument`} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	if !cfg.Hooks[0].Invalid {
		t.Fatal("a hook with errors is marked invalid")
	}
}

// TestImportsOnlyTheEngine: the decoder depends on the engine's types and
// internal helpers, never on a handler package.
func TestImportsOnlyTheEngine(t *testing.T) {
	const mod = "github.com/hookctl/hookctl/"
	seen := map[string]bool{}
	var walk func(path string)
	walk = func(path string) {
		if seen[path] {
			return
		}
		seen[path] = true
		p, err := build.Import(path, ".", 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, mod) {
				walk(imp)
			}
		}
	}
	walk(mod + "hcl")
	for path := range seen {
		rel := strings.TrimPrefix(path, mod)
		for _, banned := range []string{"claude", "llm", "script", "stdlib", "assemble"} {
			if rel == banned || strings.HasPrefix(rel, banned+"/") {
				t.Errorf("hcl depends on %s", path)
			}
		}
	}
}

// TestTestFilesAreNotConfiguration: a directory's *_test.hcl files hold
// `test` blocks, which would be an unsupported block type if they were
// decoded as configuration; Parse skips them, TestFiles lists them, and
// naming one as the configuration is an error that says what it is.
func TestTestFilesAreNotConfiguration(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("hooks.hcl", `hook "a" {
  event    = "Stop"
  decision = "block"
}
`)
	write("hooks_test.hcl", `test "stop is blocked" {
  event = "Stop"
  expect { decision = "block" }
}
`)
	write("more_test.hcl", `this is not even HCL {`)
	cfg := parse(t, dir)
	if !slices.Equal(cfg.Files, []string{filepath.Join(dir, "hooks.hcl")}) || len(cfg.Hooks) != 1 {
		t.Fatalf("loaded %v", cfg.Files)
	}
	want := []string{filepath.Join(dir, "hooks_test.hcl"), filepath.Join(dir, "more_test.hcl")}
	for _, p := range []string{dir, filepath.Join(dir, "hooks.hcl")} {
		got, err := hcl.TestFiles(p)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("TestFiles(%s) = %v, %v; want %v", p, got, err, want)
		}
	}
	if files, err := hcl.ConfigFiles(dir); err != nil || len(files) != 1 {
		t.Fatalf("ConfigFiles = %v, %v", files, err)
	}
	if _, err := hcl.Parse(filepath.Join(dir, "hooks_test.hcl")); err == nil || !strings.Contains(err.Error(), "holds tests, not configuration") {
		t.Fatalf("a test file named as the configuration: %v", err)
	}
	if err := os.Remove(filepath.Join(dir, "hooks.hcl")); err != nil {
		t.Fatal(err)
	}
	if _, err := hcl.Parse(dir); err == nil || !strings.Contains(err.Error(), "but test files") {
		t.Fatalf("a directory of test files only: %v", err)
	}
	if !hcl.IsTestFile("x/a_test.hcl") || hcl.IsTestFile("x_test.hcl/a.hcl") || hcl.IsTestFile("latest.hcl") {
		t.Fatal("IsTestFile")
	}
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestParseTests decodes test blocks: payload or payload_file, set
// applied shortest path first, env, a relative cwd made absolute against
// the test file, locals, and each expectation with where it is written.
func TestParseTests(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"pip.json": `{"tool_name": "Bash", "tool_input": {"command": "pip install x", "timeout": 5}}`,
		"a_test.hcl": `locals { rm = "rm -rf /" }
test "rm is denied" {
  event   = "PreToolUse"
  payload = { tool_name = "Bash", cwd = "fixtures", tool_input = { command = local.rm } }
  env     = { LINT = "strict" }
  expect {
    decision        = "deny"
    blocked         = true
    reason_contains = "rm"
    hooks           = { no-rm = "decided", "pip-to-uv" = "skipped" }
    updated_input   = null
    state           = { rewrote = true }
  }
}
`,
		"b_test.hcl": `test "from a file" {
  payload_file = "pip.json"
  set          = { "tool_input.command" = "ls", "tool_input" = { command = "x" }, "extra.deep.n" = 2 }
}
`,
	})
	ts := hcl.ParseTests([]string{filepath.Join(dir, "a_test.hcl"), filepath.Join(dir, "b_test.hcl")})
	if d := ts.Diagnostics(); d.HasErrors() {
		t.Fatal(d)
	}
	if len(ts.Tests) != 2 {
		t.Fatalf("%d tests", len(ts.Tests))
	}
	a, b := ts.Tests[0], ts.Tests[1]
	if a.Name != "rm is denied" || a.Event != "PreToolUse" || a.Env["LINT"] != "strict" || a.Range.Start.Line != 2 {
		t.Fatalf("%+v", a)
	}
	if a.Payload["tool_input"].(map[string]any)["command"] != "rm -rf /" || a.Payload["cwd"] != filepath.Join(dir, "fixtures") {
		t.Fatalf("payload %v", a.Payload)
	}
	e := a.Expect
	if e.Decision != "deny" || !e.Blocked || e.ReasonContains != "rm" || e.Hooks["no-rm"] != engine.StatusDecided || e.Hooks["pip-to-uv"] != engine.StatusSkipped {
		t.Fatalf("expect %+v", e)
	}
	if !e.Has("updated_input") || e.UpdatedInput != nil || e.Has("output") || e.State["rewrote"] != true {
		t.Fatalf("expect %+v", e)
	}
	if r := e.HookRanges["no-rm"]; r.Start.Line != 10 {
		t.Fatalf("hook status at %v", r)
	}
	if b.Event != "" || b.Expect != nil {
		t.Fatalf("%+v", b)
	}
	in := b.Payload["tool_input"].(map[string]any)
	if b.Payload["tool_name"] != "Bash" || in["command"] != "ls" || len(in) != 1 || b.Payload["extra"].(map[string]any)["deep"].(map[string]any)["n"] != int64(2) {
		t.Fatalf("payload %v", b.Payload)
	}
}

// TestParseTestsProblems: every problem of a test file is a diagnostic at
// its file:line:column, all at once, and a test with one is not kept.
func TestParseTestsProblems(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"bad.json": "{\n  \"a\": 1,\n}",
		"x_test.hcl": `test "a" {
  evnt = "PreToolUse"
}
test "a" {
  event = "Stop"
}
test "b" {
  payload      = {}
  payload_file = "bad.json"
  expect {
    hooks    = { x = "passed" }
    decison  = "deny"
  }
  expect {}
}
test "c" {
  payload_file = "bad.json"
  set          = { "tool_name.x" = 1 }
  payload      = "x"
}
test "d" {
  payload_file = "bad.json"
  set          = { "a.b" = 1, "" = 2 }
}
test "e" {
  payload_file = "missing.json"
  surprise {}
}
`,
	})
	ts := hcl.ParseTests([]string{filepath.Join(dir, "x_test.hcl")})
	text := ts.Diagnostics().Error()
	for _, want := range []string{
		`x_test.hcl:2:3: error[HK1202]: Unsupported argument`,
		`x_test.hcl:4:6: error[HK1801]: Duplicate test name`,
		`x_test.hcl:9:3: error[HK1803]: Two payloads`,
		`x_test.hcl:11:22: error[HK1804]: Invalid hook status`,
		`"passed" is not a hook status`,
		`x_test.hcl:12:5: error[HK1202]: Unsupported argument`,
		`Did you mean "decision"?`,
		// An unknown attribute names the valid ones.
		`An expect block takes decision, blocked, reason_contains, hooks, updated_input, additional_context, additional_context_contains, output, state.`,
		`A test block takes event, payload, payload_file, set, env, description.`,
		`x_test.hcl:14:3: error[HK1107]: Duplicate expect block`,
		`x_test.hcl:17:3: error[HK1803]: Two payloads`,
		`x_test.hcl:22:18: error[HK1803]: Invalid payload file`,
		`bad.json:3:1: invalid character '}'`,
		`x_test.hcl:23:31: error[HK1805]: Invalid set`,
		`x_test.hcl:26:18: error[HK1803]: Invalid payload file`,
		`x_test.hcl:27:3: error[HK1201]: Unsupported block type`,
		`missing.json: no such file`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	if len(ts.Tests) != 0 {
		t.Fatalf("kept %d tests with errors", len(ts.Tests))
	}
	// set through a value that is not an object.
	ts = hcl.ParseTests([]string{filepath.Join(writeFiles(t, map[string]string{"y_test.hcl": `test "s" {
  payload = { tool_name = "Bash" }
  set     = { "tool_name.x" = 1, "a..b" = 2 }
}
test "device" {
  payload_file = "/dev/zero"
}
test "env" {
  env = { "A=B" = "x", N = null }
}
`}), "y_test.hcl")})
	text = ts.Diagnostics().Error()
	for _, want := range []string{`"A=B" is not an environment variable name`, `Variable "N" must be a string, not null`, `y_test.hcl:3:15: error[HK1805]: Invalid set`, `tool_name is a string, not an object`, `"a..b" has an empty segment`, `/dev/zero is a character device, not a regular file`} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
}

// TestSettingsState: settings.state takes a state URL (memory:, a file:
// URL, a list of nats:// or tls:// URLs); anything else, and state beside
// state_file, is a diagnostic at the value naming settings.state, with
// its position and a snippet.
func TestSettingsState(t *testing.T) {
	cfg := hcl.ParseSource("x.hcl", []byte(`settings {
  state = "nats://nats-0:4222, nats://nats-1:4222"
}
`), t.TempDir())
	if d := cfg.Diagnostics(); d.HasErrors() {
		t.Fatal(d)
	}
	if cfg.Settings.State != "nats://nats-0:4222,nats://nats-1:4222" || cfg.StateRange.Start.Line != 2 || cfg.StateRange.Start.Column != 11 {
		t.Fatalf("state %q at %v", cfg.Settings.State, cfg.StateRange)
	}
	for src, want := range map[string]string{
		`settings { state = "redis://cache:6379" }`:                             `x.hcl:1:20: error[HK1701]: Invalid setting\n  settings.state: "redis://cache:6379": unknown state URL scheme "redis" (want memory:, file:///PATH, or nats:// or tls:// URLs)`,
		`settings { state = "nats-0:4222" }`:                                    `x.hcl:1:20: error[HK1701]: Invalid setting\n  settings.state: "nats-0:4222": not a URL`,
		`settings { state = "" }`:                                               `x.hcl:1:20: error[HK1701]: Invalid setting\n  settings.state: empty`,
		`settings { state = "nats://a:4222,,nats://b" }`:                        `x.hcl:1:20: error[HK1701]: Invalid setting\n  settings.state: an empty URL`,
		`settings { state = 4222 }`:                                             `x.hcl:1:`,
		`settings { state = "memory:x" }`:                                       `x.hcl:1:20: error[HK1701]: Invalid setting\n  settings.state: "memory:x": memory: takes nothing after the colon`,
		`settings { state = "file:kv.json" }`:                                   `x.hcl:1:20: error[HK1701]: Invalid setting\n  settings.state: "file:kv.json": a file: URL takes an absolute path`,
		`settings { state = "file://nas/kv.json" }`:                             `x.hcl:1:20: error[HK1701]: Invalid setting\n  settings.state: "file://nas/kv.json": host "nas"`,
		`settings { state = "https://u:secret@x" }`:                             `x.hcl:1:20: error[HK1701]: Invalid setting\n  settings.state: "https://u:xxxxx@x": unknown state URL scheme "https"`,
		`settings { state = "nats://a:4222,memory:" }`:                          `x.hcl:1:20: error[HK1701]: Invalid setting\n  settings.state: "memory:": not a URL`,
		"settings {\n  state_file = \"s.json\"\n  state = \"nats://a:4222\"\n}": `x.hcl:3:3: error[HK1702]: Conflicting settings\n  state and state_file (set at x.hcl:2:3) both say where the shared state is kept`,
	} {
		want = strings.ReplaceAll(want, `\n`, "\n")
		cfg := hcl.ParseSource("x.hcl", []byte(src), t.TempDir())
		d := cfg.Diagnostics()
		if !d.HasErrors() || !strings.Contains(d.Error(), want) {
			t.Errorf("%s:\n%v\nwant %q", src, d, want)
			continue
		}
		var snippet strings.Builder
		d.Render(&snippet)
		if !strings.Contains(snippet.String(), "^") {
			t.Errorf("%s: no snippet:\n%s", src, snippet.String())
		}
		if cfg.Settings.State != "" {
			t.Errorf("%s: state %q kept", src, cfg.Settings.State)
		}
	}
}

// TestSettingsStateURLs: settings.state takes memory: and absolute file:
// URLs besides NATS lists, kept as stateurl writes them back.
func TestSettingsStateURLs(t *testing.T) {
	for src, want := range map[string]string{
		"memory:":                   "memory:",
		" MEMORY: ":                 "memory:",
		"file:///var/lib/kv.json":   "file:///var/lib/kv.json",
		"file:/var/lib/../kv.json":  "file:///var/kv.json",
		"file://localhost/kv.json":  "file:///kv.json",
		"tls://n-0:4222,nats://n-1": "tls://n-0:4222,nats://n-1",
	} {
		if runtime.GOOS == "windows" && strings.HasPrefix(src, "file:") {
			continue // a path without a drive is not absolute there
		}
		cfg := hcl.ParseSource("x.hcl", []byte("settings {\n  state = "+strconv.Quote(src)+"\n}\n"), t.TempDir())
		if d := cfg.Diagnostics(); d.HasErrors() {
			t.Errorf("%q: %v", src, d)
			continue
		}
		if cfg.Settings.State != want {
			t.Errorf("%q: state %q, want %q", src, cfg.Settings.State, want)
		}
	}
}

// TestResultNamesNoFieldTwice: a declarative hook's result may not set a
// field the hook sets with its own attribute (decision = "deny" undone by
// result = { decision = "allow" }, unseen by who reads the hook).
func TestResultNamesNoFieldTwice(t *testing.T) {
	dir := writeFiles(t, map[string]string{"hooks.hcl": `hook "d" {
  event    = "PreToolUse"
  decision = "deny"
  reason   = "never"
  result   = { decision = "allow" }
}
`})
	cfg, err := hcl.Parse(filepath.Join(dir, "hooks.hcl"))
	if err == nil {
		err = cfg.Diagnostics()
	}
	if err == nil || !strings.Contains(err.Error(), "result sets decision, which the hook also sets with its own attribute (line 3)") {
		t.Fatalf("want the field set twice refused, got %v", err)
	}
}
