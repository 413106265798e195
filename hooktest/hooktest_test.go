package hooktest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/hooktest"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreCurrent())
}

// writeConfig writes files into a new directory and returns it.
func writeConfig(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func run(t *testing.T, path string, opts ...hooktest.Option) *hooktest.Report {
	t.Helper()
	rep, err := hooktest.Run(t.Context(), path, opts...)
	if err != nil {
		t.Fatalf("run %s:\n%v", path, err)
	}
	return rep
}

func result(t *testing.T, rep *hooktest.Report, name string) hooktest.Result {
	t.Helper()
	for _, r := range rep.Tests {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no test %q", name)
	return hooktest.Result{}
}

func failures(r hooktest.Result) []string {
	var out []string
	for _, f := range r.Failures {
		out = append(out, f.Field+": want "+f.Want+", got "+f.Got)
	}
	return out
}

const guards = `hook "no-rm" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "hasCommand(tool_input.command, 'rm')"
  priority = 10
  decision = "deny"
  reason   = "rm is not allowed"
}

hook "rewrite" {
  event = "PreToolUse"
  js    = <<-JS
    ctx.state.seen = (ctx.state.seen || 0) + 1;
    if (event.tool_input.command === "pip install x")
      return { decision: "allow", updated_input: { command: "uv pip install x", n: 4 }, additional_context: "rewritten" };
  JS
}

hook "deploy" {
  event  = "deploy.pre"
  result = { replicas = 3, notes = "scaled" }
}

event "deploy.pre" {
  strategy = "modifying"
  merge    = { replicas = "last", notes = "concat" }
}
`

// TestFailuresSayWhatDiffered: every kind of expectation, met and not
// met; a failure names the field, what was wanted and what the outcome
// had, at the line the expectation is written on, in source order.
func TestFailuresSayWhatDiffered(t *testing.T) {
	dir := writeConfig(t, map[string]string{"hooks.hcl": guards, "guards_test.hcl": `test "all met" {
  event   = "PreToolUse"
  payload = { tool_name = "Bash", tool_input = { command = "pip install x" } }
  expect {
    decision           = "allow"
    blocked            = false
    reason_contains    = ""
    additional_context = "rewritten"
    updated_input      = { command = "uv pip install x", n = 4.0 }
    output             = { decision = "allow", nothing = null }
    state              = { seen = 1 }
    hooks              = { no-rm = "skipped", rewrite = "decided" }
  }
}

test "none met" {
  event   = "PreToolUse"
  payload = { tool_name = "Bash", tool_input = { command = "rm -rf /" } }
  expect {
    hooks              = { rewrite = "decided", no-rm = "ran" }
    decision           = "ask"
    blocked            = false
    reason_contains    = "rm -rf"
    additional_context = "rewritten"
    updated_input      = { command = "x" }
    output             = { decision = "deny", reason = "other", extra = { a = 1 } }
    state              = { seen = 1 }
  }
}

test "rewrites" {
  event   = "PreToolUse"
  payload = { tool_name = "Bash", tool_input = { command = "pip install x" } }
  expect {
    updated_input = { command = "pip install x", n = 4, gone = null, extra = "y" }
    output        = { decision = null }
  }
}

test "no rewrite expected" {
  event   = "PreToolUse"
  payload = { tool_name = "Bash", tool_input = { command = "pip install x" } }
  expect { updated_input = null }
}

test "custom event" {
  event = "deploy.pre"
  expect {
    decision = ""
    output   = { replicas = 3, notes = "scaled" }
    hooks    = { deploy = "decided" }
  }
}
`})
	rep := run(t, dir)
	passed, failed := rep.Counts()
	if passed != 2 || failed != 3 || rep.Passed() {
		t.Fatalf("passed %d, failed %d", passed, failed)
	}
	if r := result(t, rep, "all met"); !r.Passed || r.Event != "PreToolUse" || r.Line != 1 || r.Outcome == nil {
		t.Fatalf("%+v", r)
	}
	if r := result(t, rep, "custom event"); !r.Passed {
		t.Fatalf("%v", failures(r))
	}
	none := result(t, rep, "none met")
	want := []string{
		`hooks.no-rm: want ran, got decided (deny)`,
		`hooks.rewrite: want decided, got skipped (chain stopped by no-rm)`,
		`decision: want "ask", got "deny"`,
		`blocked: want false, got true`,
		`reason: want it to contain "rm -rf", got "rm is not allowed"`,
		`additional_context: want "rewritten", got ""`,
		`updated_input: want {"command":"x"}, got null (no rewrite)`,
		`output.extra: want {"a":1}, got absent`,
		`output.reason: want "other", got "rm is not allowed"`,
		`state.seen: want 1, got absent`,
	}
	if got := failures(none); !slices.Equal(got, want) {
		t.Fatalf("failures:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if at := none.Failures[0].At; at != filepath.Join(dir, "guards_test.hcl")+":20" {
		t.Fatalf("at %s", at)
	}
	want = []string{
		`updated_input.command: want "pip install x", got "uv pip install x"`,
		`updated_input.extra: want "y", got absent`,
		`output.decision: want absent, got "allow"`,
	}
	if got := failures(result(t, rep, "rewrites")); !slices.Equal(got, want) {
		t.Fatalf("failures:\n%s", strings.Join(got, "\n"))
	}
	want = []string{`updated_input: want null (no rewrite), got {"command":"uv pip install x","n":4}`}
	if got := failures(result(t, rep, "no rewrite expected")); !slices.Equal(got, want) {
		t.Fatalf("failures:\n%s", strings.Join(got, "\n"))
	}
}

// TestTestsAreIsolated: each test has its own kv store and Stop loop
// guard count, so a test passes alone and after any other: with the cap
// at 1, the second Stop block in a row of one session would be released.
func TestTestsAreIsolated(t *testing.T) {
	dir := writeConfig(t, map[string]string{"hooks.hcl": `settings { stop_block_cap = 1 }

hook "keep-going" {
  event    = "Stop"
  decision = "block"
  reason   = "not yet"
}

hook "count" {
  event = "UserPromptSubmit"
  js    = <<-JS
    const kv = require("hookctl/kv");
    return { additional_context: String(kv.incr("prompts")) };
  JS
}
`, "a_test.hcl": `test "first stop" {
  event   = "Stop"
  payload = { session_id = "s" }
  expect { decision = "block" }
}
test "second stop" {
  event   = "Stop"
  payload = { session_id = "s" }
  expect { decision = "block" }
}
test "first prompt" {
  event   = "UserPromptSubmit"
  payload = { session_id = "s", prompt = "a" }
  expect { additional_context = "1" }
}
test "second prompt" {
  event   = "UserPromptSubmit"
  payload = { session_id = "s", prompt = "b" }
  expect { additional_context = "1" }
}
`})
	rep := run(t, dir)
	for _, r := range rep.Tests {
		if !r.Passed {
			t.Errorf("%s: %v %s", r.Name, failures(r), r.Error)
		}
	}
}

// TestEnvReachesCommandHooks: a test's env is its command hooks'
// environment, and only that test's; the process environment is not
// changed.
func TestEnvReachesCommandHooks(t *testing.T) {
	dir := writeConfig(t, map[string]string{"hooks.hcl": `hook "level" {
  event   = "SessionStart"
  command = "printf '%s' \"level=$LINT_LEVEL\""
}
`, "env_test.hcl": `test "strict" {
  event   = "SessionStart"
  payload = { cwd = "." }
  env     = { LINT_LEVEL = "strict" }
  expect { additional_context = "level=strict" }
}
test "default" {
  event   = "SessionStart"
  payload = { cwd = "." }
  expect { additional_context = "level=" }
}
`})
	t.Setenv("LINT_LEVEL", "")
	os.Unsetenv("LINT_LEVEL")
	rep := run(t, dir)
	for _, r := range rep.Tests {
		if !r.Passed {
			t.Errorf("%s: %v %s", r.Name, failures(r), r.Error)
		}
	}
	if _, set := os.LookupEnv("LINT_LEVEL"); set {
		t.Fatal("the process environment changed")
	}
}

// TestHookFailuresFailTests: a hook that throws fails every test it runs
// in, unless the test expects it to; a timeout likewise.
func TestHookFailuresFailTests(t *testing.T) {
	dir := writeConfig(t, map[string]string{"hooks.hcl": `hook "broken" {
  event = "UserPromptSubmit"
  js    = "throw new Error('boom')"
}
hook "slow" {
  event   = "Stop"
  timeout = "50ms"
  js      = "while (true) {}"
}
`, "f_test.hcl": `test "unexpected" {
  event = "UserPromptSubmit"
  expect { blocked = false }
}
test "expected" {
  event = "UserPromptSubmit"
  expect { hooks = { broken = "error" } }
}
test "no expect block" {
  event = "UserPromptSubmit"
}
test "timeout" {
  event = "Stop"
  expect { hooks = { slow = "timeout" } }
}
`})
	rep := run(t, dir)
	r := result(t, rep, "unexpected")
	if r.Passed || len(r.Failures) != 1 || r.Failures[0].Field != "hooks.broken" || !strings.Contains(r.Failures[0].Got, "error: ") || !strings.Contains(r.Failures[0].Got, "boom") {
		t.Fatalf("%v", failures(r))
	}
	if !strings.HasSuffix(r.Failures[0].At, "f_test.hcl:1") {
		t.Fatalf("at %s", r.Failures[0].At)
	}
	if r := result(t, rep, "no expect block"); r.Passed {
		t.Fatal("a hook error passed a test with no expect block")
	}
	for _, name := range []string{"expected", "timeout"} {
		if r := result(t, rep, name); !r.Passed {
			t.Errorf("%s: %v", name, failures(r))
		}
	}
}

// TestProblemsAreDiagnostics: what is wrong in the test files, checked
// against the loaded configuration, is reported at once with
// file:line:column before any test runs: unknown events (with a
// suggestion), hooks that are not on the test's event, decisions the event
// does not take, a test with no event at all; and the configuration's own
// problems with them.
func TestProblemsAreDiagnostics(t *testing.T) {
	dir := writeConfig(t, map[string]string{"hooks.hcl": guards, "bad_test.hcl": `test "typo" {
  event = "PreToolUs"
}
test "wrong hook" {
  event  = "PreToolUse"
  expect { hooks = { deploy = "ran", no_rm = "ran" } }
}
test "wrong decision" {
  event  = "deploy.pre"
  expect { decision = "deny" }
}
test "no event" {
  payload = { tool_name = "Bash" }
}
test "from the payload" {
  payload = { hook_event_name = "Stopp" }
}
`})
	_, err := hooktest.Run(t.Context(), dir)
	var d *hcl.Diagnostics
	if !errors.As(err, &d) {
		t.Fatalf("err %v", err)
	}
	text := d.Error()
	for _, want := range []string{
		`bad_test.hcl:2:11: error[HK1301]: Unknown event`, `Did you mean "PreToolUse"?`,
		`bad_test.hcl:6:31: error[HK1211]: Unknown hook`, `"deploy" is not a hook of PreToolUse; its hooks are no-rm, rewrite.`,
		`bad_test.hcl:6:46: error[HK1211]: Unknown hook`, `Did you mean "no-rm"?`,
		`bad_test.hcl:10:23: error[HK1804]: Invalid decision`, `deploy.pre takes no decision`,
		`bad_test.hcl:12:1: error[HK1302]: Missing event`,
		`bad_test.hcl:16:13: error[HK1301]: Unknown event`, `"Stopp" is not an event`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}

	// The configuration's problems and the test files' come together.
	dir = writeConfig(t, map[string]string{
		"hooks.hcl":  "hook \"x\" {\n  event   = \"PreToolUse\"\n  matchr  = \"Bash\"\n  decision = \"deny\"\n}\n",
		"x_test.hcl": "test \"t\" {\n  evnt = \"Stop\"\n}\n",
	})
	_, err = hooktest.Run(t.Context(), dir)
	if !errors.As(err, &d) {
		t.Fatalf("err %v", err)
	}
	text = d.Error()
	for _, want := range []string{`hooks.hcl:3:3: error[HK1202]: Unsupported argument`, `x_test.hcl:2:3: error[HK1202]: Unsupported argument`, `Did you mean "event"?`} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}

	// No test files at all.
	dir = writeConfig(t, map[string]string{"hooks.hcl": guards})
	var nt *hooktest.NoTestsError
	if _, err := hooktest.Run(t.Context(), filepath.Join(dir, "hooks.hcl")); !errors.As(err, &nt) || nt.Dir != dir {
		t.Fatalf("err %v", err)
	}
}

// TestEventFromThePayload: a test without event fires its payload's
// hook_event_name; a test whose event differs from it is warned about.
func TestEventFromThePayload(t *testing.T) {
	dir := writeConfig(t, map[string]string{"hooks.hcl": guards, "p_test.hcl": `test "payload names it" {
  payload = { hook_event_name = "before_tool_call", tool_name = "Bash", tool_input = { command = "rm x" } }
  expect { decision = "deny" }
}
test "alias is no mismatch" {
  event   = "PreToolUse"
  payload = { hook_event_name = "before_tool_call", tool_name = "Bash", tool_input = { command = "ls" } }
}
test "mismatch" {
  event   = "deploy.pre"
  payload = { hook_event_name = "PreToolUse" }
}
`})
	rep := run(t, dir)
	if r := result(t, rep, "payload names it"); !r.Passed || r.Event != "PreToolUse" {
		t.Fatalf("%+v", r)
	}
	if rep.Warnings == nil || len(rep.Warnings.List) != 1 || !strings.Contains(rep.Warnings.Error()+rep.Warnings.List[0].Detail, `fires deploy.pre, but its payload's hook_event_name is "PreToolUse"`) {
		t.Fatalf("warnings %+v", rep.Warnings)
	}
}

// TestCoverage: a hook is reached when it ran in a test (skipped for any
// reason is not reached), decided when its status was decided; observers
// cannot decide and are not counted as never deciding.
func TestCoverage(t *testing.T) {
	dir := writeConfig(t, map[string]string{"hooks.hcl": guards + `
hook "watch" {
  event   = "PreToolUse"
  observe = true
  js      = "return"
}
hook "off" {
  event    = "Stop"
  enabled  = false
  decision = "block"
}
`, "c_test.hcl": `test "rm" {
  event   = "PreToolUse"
  payload = { tool_name = "Bash", tool_input = { command = "rm x" } }
}
`})
	rep := run(t, dir)
	c := rep.Coverage
	byID := map[string]*hooktest.HookCoverage{}
	for _, h := range c.Hooks {
		byID[h.ID] = h
	}
	if h := byID["no-rm"]; !h.Reached || !h.Decided || !h.CanDecide || h.Tests != 1 || !slices.Equal(h.Events, []string{"PreToolUse"}) || !strings.HasSuffix(h.Source, "hooks.hcl:1") {
		t.Fatalf("no-rm %+v", h)
	}
	if h := byID["rewrite"]; h.Reached || h.Decided { // the chain stopped before it
		t.Fatalf("rewrite %+v", h)
	}
	if h := byID["watch"]; !h.Reached || h.CanDecide {
		t.Fatalf("watch %+v", h)
	}
	if h := byID["off"]; !h.Disabled || h.Reached {
		t.Fatalf("off %+v", h)
	}
	var notReached []string
	for _, h := range c.NotReached() {
		notReached = append(notReached, h.ID)
	}
	if !slices.Equal(notReached, []string{"rewrite", "deploy", "off"}) || len(c.NeverDecided()) != 0 {
		t.Fatalf("not reached %v, never decided %v", notReached, c.NeverDecided())
	}
}

// TestRunSelects: --run runs the tests whose name matches, and coverage
// counts only those.
func TestRunSelects(t *testing.T) {
	rep := run(t, "testdata/example", hooktest.WithRun(regexp.MustCompile(`^rm`)))
	if len(rep.Tests) != 1 || rep.Tests[0].Name != "rm is denied" || !rep.Passed() {
		t.Fatalf("%+v", rep.Tests)
	}
	if len(rep.Coverage.NotReached()) != 2 { // pip-to-uv and greet
		t.Fatal("coverage counts tests that did not run")
	}
}

var durations = regexp.MustCompile(`\d+(\.\d+)?(µs|ms|s)\b`)

// TestTextGolden: go test's output shape, durations aside.
func TestTextGolden(t *testing.T) {
	rep := run(t, "testdata/example")
	for _, verbose := range []bool{false, true} {
		var b bytes.Buffer
		if err := rep.WriteText(&b, verbose); err != nil {
			t.Fatal(err)
		}
		got := durations.ReplaceAllString(b.String(), "DUR")
		golden := "testdata/text.golden"
		if verbose {
			golden = "testdata/text_verbose.golden"
		}
		if *update {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s differs:\n%s", golden, got)
		}
	}
}

// TestJUnitParses: the JUnit XML decodes with encoding/xml into the shape
// CI systems read, one suite per test file, the failure text naming what
// differed.
func TestJUnitParses(t *testing.T) {
	rep := run(t, "testdata/example")
	var b bytes.Buffer
	if err := rep.WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Tests int    `xml:"tests,attr"`
			Cases []struct {
				Name    string  `xml:"name,attr"`
				Time    float64 `xml:"time,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if doc.Tests != 2 || doc.Failures != 1 || len(doc.Suites) != 1 || doc.Suites[0].Name != "testdata/example/hooks_test.hcl" || len(doc.Suites[0].Cases) != 2 {
		t.Fatalf("%+v", doc)
	}
	c := doc.Suites[0].Cases
	if c[0].Name != "rm is denied" || c[0].Failure != nil || c[0].Time <= 0 {
		t.Fatalf("%+v", c[0])
	}
	if f := c[1].Failure; f == nil || f.Message != "hooks.no-rm: want decided, got skipped (condition was false)" ||
		f.Text != "testdata/example/hooks_test.hcl:16: hooks.no-rm: want decided, got skipped (condition was false)" {
		t.Fatalf("%+v", c[1].Failure)
	}
}

// TestJSON: the machine output decodes, with the counts, each test's
// failures and outcome, and the coverage lists.
func TestJSON(t *testing.T) {
	rep := run(t, "testdata/example")
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Passed, Failed int
		Tests          []struct {
			Name     string
			Passed   bool
			Failures []hooktest.Failure
			Outcome  struct {
				Decision string
				Hooks    []struct{ ID, Status string }
			}
		}
		Coverage struct {
			NotReached   []string `json:"not_reached"`
			NeverDecided []string `json:"never_decided"`
			Hooks        []hooktest.HookCoverage
		}
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Passed != 1 || doc.Failed != 1 || len(doc.Tests) != 2 || doc.Tests[0].Outcome.Decision != "deny" || len(doc.Tests[0].Outcome.Hooks) != 2 {
		t.Fatalf("%+v", doc)
	}
	if f := doc.Tests[1].Failures; len(f) != 1 || f[0].Field != "hooks.no-rm" || f[0].At != "testdata/example/hooks_test.hcl:16" {
		t.Fatalf("%+v", f)
	}
	if !slices.Equal(doc.Coverage.NotReached, []string{"greet"}) || len(doc.Coverage.NeverDecided) != 0 || len(doc.Coverage.Hooks) != 3 {
		t.Fatalf("%+v", doc.Coverage)
	}
}

// TestCancelled: a cancelled context stops the run.
func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := hooktest.Run(ctx, "testdata/example"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
}

// TestBackgroundHookFailuresFailTests: a background hook cannot decide
// (the outcome says queued), but the test waits for it and a failure of
// it fails the test unless the test expects that status; one that ran
// well passes with "queued" or "ran" expected.
func TestBackgroundHookFailuresFailTests(t *testing.T) {
	dir := writeConfig(t, map[string]string{"hooks.hcl": `hook "bg" {
  event      = "PreToolUse"
  matcher    = "Bash"
  background = true
  js         = "if (event.tool_input.command.includes('bg')) throw new Error('bg boom')"
}
`, "f_test.hcl": `test "unexpected" {
  event   = "PreToolUse"
  payload = { tool_name = "Bash", tool_input = { command = "bg" } }
  expect { blocked = false }
}
test "queued is not its error" {
  event   = "PreToolUse"
  payload = { tool_name = "Bash", tool_input = { command = "bg" } }
  expect { hooks = { bg = "queued" } }
}
test "expected" {
  event   = "PreToolUse"
  payload = { tool_name = "Bash", tool_input = { command = "bg" } }
  expect { hooks = { bg = "error" } }
}
test "fine" {
  event   = "PreToolUse"
  payload = { tool_name = "Bash", tool_input = { command = "ls" } }
  expect { hooks = { bg = "queued" } }
}
test "fine ran" {
  event   = "PreToolUse"
  payload = { tool_name = "Bash", tool_input = { command = "ls" } }
  expect { hooks = { bg = "ran" } }
}
`})
	rep := run(t, dir)
	for _, name := range []string{"unexpected", "queued is not its error"} {
		r := result(t, rep, name)
		if r.Passed || len(r.Failures) != 1 || r.Failures[0].Field != "hooks.bg" || !strings.Contains(r.Failures[0].Got, "bg boom") {
			t.Errorf("%s: %v", name, failures(r))
		}
	}
	for _, name := range []string{"expected", "fine", "fine ran"} {
		if r := result(t, rep, name); !r.Passed {
			t.Errorf("%s: %v", name, failures(r))
		}
	}
	if r := result(t, rep, "fine"); len(r.Background) != 1 || r.Background[0].Status != "ran" {
		t.Errorf("background traces %+v", r.Background)
	}
}
