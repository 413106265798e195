package assemble_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/stdlib"
)

// fuzzMaxSource bounds the configurations FuzzLoad tries: the largest seed
// is a few KB, and a bigger file only makes each run slower.
const fuzzMaxSource = 16 << 10

// fuzzLoadDeadline is how long one load may take before FuzzLoad calls it
// a hang. Real configurations load in milliseconds.
const fuzzLoadDeadline = 10 * time.Second

// fuzzSupportFiles are copied next to the fuzzed hooks.hcl so that the
// seeds' script = "...", command = [...] and file("...") references
// resolve, and the fuzzer can reach the code past them.
var fuzzSupportFiles = map[string]string{
	"scripts/pip_to_uv.js":       "../examples/scripts/pip_to_uv.js",
	"scripts/session_context.js": "../examples/scripts/session_context.js",
	"hooks/lint.sh":              "../examples/hooks/lint.sh",
	"scripts/rewrite.js":         "testdata/good/scripts/rewrite.js",
	"scripts/who.sh":             "testdata/good/scripts/who.sh",
	"context.txt":                "testdata/good/context.txt",
	"scripts/broken.js":          "testdata/bad/scripts/broken.js",
}

// FuzzLoad loads hostile configuration files. A load never panics and
// never hangs; it returns either a configuration the engine accepts or
// *hcl.Diagnostics whose errors each carry file:line:column.
func FuzzLoad(f *testing.F) {
	var seeds []string
	for _, pattern := range []string{
		"../examples/hooks.hcl",
		"testdata/good/*.hcl",
		"testdata/good/dir/*.hcl",
		"testdata/bad/*.hcl",
		"../tests/bench/testdata/peers/*.hcl",
	} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, m...)
	}
	if len(seeds) < 15 {
		f.Fatalf("only %d seed configurations", len(seeds))
	}
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	for _, s := range []string{
		"",
		"hook",
		`hook "a" {`,
		"hook \"a\" {\n  event = \"PreToolUse\"\n  decision = \"deny\"\n}",
		"locals {\n  a = local.b\n  b = local.a\n}",
		"hook \"a\" {\n  event = \"Stop\"\n  js = \"return {decision: 'block', reason: `$${event.x}`}\"\n}",
		"hook \"a\" {\n  event = \"PreToolUse\"\n  when = <<-EOT\n    tool_name ==\n  EOT\n  decision = \"deny\"\n}",
		"hook \"a\" {\n  event = \"PreToolUse\"\n  js = <<-JS\n    return {\n  JS\n}",
		"settings {\n  default_timeout = \"-1s\"\n  max_concurrency = 0\n}",
		"event \"e\" {\n}\nhook \"a\" {\n  event = \"e\"\n  decision = \"block\"\n}",
		"event \"e\" {\n  strategy = \"modifying\"\n  merge = { a = { rule = \"restrictive\" }, b = \"chain\" }\n}",
		"hook \"a\" {\n  event = \"UserPromptSubmit\"\n  additional_context = file(\"../../etc/passwd\")\n}",
		"hook \"a\" {\n  events = [\"PreToolUse\", null]\n  matcher = \"(\"\n  decision = \"deny\"\n}",
		"builtin \"prompt-length\" {\n  max_chars = 10\n  id = \"x\"\n}\nbuiltin \"prompt-length\" {\n  id = \"x\"\n}",
		"hook \"a\" {\n  event = \"PreToolUse\"\n  http {\n    url = \"ftp://x\"\n  }\n}",
		"hook \"a\" {\n  event = \"PreToolUse\"\n  prompt {\n    text = \"x\"\n    provider = \"nope\"\n  }\n}",
		"hook \"a\" {\n  event = \"PreToolUse\"\n  agent {\n    prompt = \"x\"\n  }\n}",
		"settings {\n  required = [\"a\"]\n}\nhook \"a\" {\n  event = \"Stop\"\n  enabled = false\n  decision = \"block\"\n}",
		"hook \"a\" {\n  event = \"PreToolUse\"\n  command = \"\"\n}",
		"hook \"a\" {\n  event = \"PreToolUse\"\n  command = [1, 2]\n  on_error = \"retry\"\n  retry {\n    attempts = 99\n  }\n}",
		"hook \"a\" {\n  event = \"PreToolUse\"\n  result = { x = range(5) }\n  reason = \"${join(\",\", [for i in range(3): tostring(i)])} ${env(\"HOOKCTL_FUZZ\")}\"\n}",
	} {
		f.Add(s)
	}

	dir := f.TempDir()
	for dst, src := range fuzzSupportFiles {
		b, err := os.ReadFile(src)
		if err != nil {
			f.Fatal(err)
		}
		p := filepath.Join(dir, dst)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o755); err != nil {
			f.Fatal(err)
		}
	}
	path := filepath.Join(dir, "hooks.hcl")
	env := assemble.WithEnv(func(k string) (string, bool) {
		if k == "HOOKCTL_FUZZ" {
			return "set", true
		}
		return "", false
	})
	eng := newFuzzEngine(f)

	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > fuzzMaxSource {
			t.Skip()
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		// The load runs on its own goroutine so that a hang is reported
		// (with the input) instead of stalling the fuzzer; a panic there
		// is recovered and reported here.
		type result struct {
			cfg   *assemble.Config
			err   error
			panic string
		}
		done := make(chan result, 1)
		go func() {
			defer func() {
				if p := recover(); p != nil {
					done <- result{panic: fmt.Sprintf("%v\n%s", p, debug.Stack())}
				}
			}()
			cfg, err := assemble.Load(path, env)
			done <- result{cfg: cfg, err: err}
		}()
		var r result
		select {
		case r = <-done:
		case <-time.After(fuzzLoadDeadline):
			t.Fatalf("loading did not finish within %v:\n%s", fuzzLoadDeadline, src)
		}
		if r.panic != "" {
			t.Fatalf("loading panicked: %s", r.panic)
		}
		if r.cfg != nil {
			defer r.cfg.Close()
		}

		if r.err != nil {
			if r.cfg != nil {
				t.Fatalf("both a configuration and an error: %v", r.err)
			}
			var d *hcl.Diagnostics
			if !errors.As(r.err, &d) {
				t.Fatalf("error is %T, not *hcl.Diagnostics: %v", r.err, r.err)
			}
			if !d.HasErrors() {
				t.Fatalf("failed load without error diagnostics: %v", r.err)
			}
			checkDiagnostics(t, path, d.List)
			msg := r.err.Error()
			if !strings.HasPrefix(msg, path+":") {
				t.Fatalf("rendered diagnostics do not start with %s:line:column:\n%s", path, msg)
			}
			return
		}
		if r.cfg == nil {
			t.Fatal("neither a configuration nor an error")
		}
		if r.cfg.Warnings != nil {
			checkDiagnostics(t, path, r.cfg.Warnings.List)
			_ = r.cfg.Warnings.Error() // renders without panicking
		}
		ids := map[string]bool{}
		for _, h := range r.cfg.Engine.Hooks {
			if ids[h.ID] {
				t.Fatalf("two hooks with id %q", h.ID)
			}
			ids[h.ID] = true
		}
		// Nothing is half-loaded: what the loader accepts, the engine
		// accepts. (Without the audit log, which would create a file
		// wherever the input says.)
		ec := *r.cfg.Engine
		ec.Settings.AuditLog = ""
		if err := eng.Load(&ec); err != nil {
			t.Fatalf("the loader accepted a configuration the engine rejects: %v\n%s", err, src)
		}
		if err := eng.Load(nil); err != nil {
			t.Fatal(err)
		}
	})
}

// checkDiagnostics requires every diagnostic to have a summary and every
// error to name a position (file:line:column, 1-based) in the file.
func checkDiagnostics(t *testing.T, path string, ds []hcl.Diagnostic) {
	t.Helper()
	for _, d := range ds {
		if d.Summary == "" {
			t.Errorf("diagnostic without a summary: %+v", d)
		}
		if d.Line == 0 {
			if d.Severity == hcl.SeverityError {
				t.Errorf("error without a position: %s: %s", d.Summary, d.Detail)
			}
			continue
		}
		if d.File != path {
			t.Errorf("%s: position in %q, want %q", d.Summary, d.File, path)
		}
		if d.Line < 1 || d.Column < 1 {
			t.Errorf("%s: position %d:%d is not 1-based", d.Summary, d.Line, d.Column)
		}
		// The parser leaves the end of an expression it recovered from
		// unset (0:0); a set end must not come before the start.
		if d.EndLine > 0 && (d.EndLine < d.Line || d.EndLine == d.Line && d.EndColumn < d.Column) {
			t.Errorf("%s: range ends (%d:%d) before it starts (%d:%d)", d.Summary, d.EndLine, d.EndColumn, d.Line, d.Column)
		}
	}
}

// newFuzzEngine is the engine FuzzLoad loads accepted configurations into,
// with the condition helpers hookctl's own engine has.
func newFuzzEngine(f *testing.F) *engine.Engine {
	e, err := engine.New(engine.WithConditionOptions(conditions.WithFunctions(stdlib.ConditionFunctions()...)))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { e.Close(context.Background()) })
	return e
}

// TestBrokenLocalIsADiagnostic: an attribute that uses a local which
// failed to evaluate reads an unknown value; found by FuzzLoad, it used to
// panic the loader ("value is unknown").
func TestBrokenLocalIsADiagnostic(t *testing.T) {
	for _, attr := range []string{
		`event = "Stop"` + "\n  priority = local.a",
		`event = local.a`,
		`events = [local.a]`,
		`event = "Stop"` + "\n  enabled = local.a",
		`event = "Stop"` + "\n  timeout = local.a",
		`event = "Stop"` + "\n  reason = local.a",
	} {
		src := "locals {\n  a = nope\n}\nhook \"x\" {\n  " + attr + "\n  decision = \"block\"\n}\n"
		cfg, err := assemble.LoadSource("x.hcl", []byte(src), t.TempDir())
		if err == nil {
			cfg.Close()
			t.Fatalf("loaded:\n%s", src)
		}
		var d *hcl.Diagnostics
		if !errors.As(err, &d) {
			t.Fatalf("%T: %v", err, err)
		}
		if !strings.Contains(err.Error(), "x.hcl:2:7: error[HK1203]: Unknown variable") {
			t.Errorf("the broken local is not reported:\n%v", err)
		}
	}
}
