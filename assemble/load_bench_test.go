package assemble_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
)

// writeHooks writes n hooks into dir, perFile to a file (all in one file
// when perFile <= 0), and returns the configuration directory. kind is
// "js" (a heredoc body of five lines, as tests/bench's peers have), "ts"
// (the same as TypeScript) or "declarative" (a condition and a
// decision).
func writeHooks(tb testing.TB, dir, kind string, n, perFile int) string {
	tb.Helper()
	if perFile <= 0 {
		perFile = n
	}
	var b strings.Builder
	file := 0
	flush := func() {
		if b.Len() == 0 {
			return
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("hooks%03d.hcl", file)), []byte(b.String()), 0o600); err != nil {
			tb.Fatal(err)
		}
		b.Reset()
		file++
	}
	for i := range n {
		switch kind {
		case "js", "ts":
			typ := ""
			if kind == "ts" {
				typ = ": string"
			}
			fmt.Fprintf(&b, `hook "h%d" {
  event    = "PreToolUse"
  matcher  = "Bash"
  priority = %d
  %s       = <<-JS
    const c%s = event.tool_input.command || "";
    if (/^rm\s+-rf\s+\//.test(c)) return { decision: "deny", reason: "rm -rf of an absolute path" };
    if (/\bsudo\b/.test(c)) return { decision: "deny", reason: "sudo" };
    if (/curl[^|]*\|\s*(ba)?sh/.test(c)) return { decision: "deny", reason: "curl | sh" };
    return { additional_context: "hook %d: ok" };
  JS
}

`, i, -i, kind, typ, i)
		default:
			fmt.Fprintf(&b, `hook "h%d" {
  event    = "PreToolUse"
  matcher  = "Bash"
  priority = %d
  when     = "tool_input.command contains \"sudo %d\""
  decision = "deny"
  reason   = "hook %d: sudo"
}

`, i, -i, i, i)
		}
		if (i+1)%perFile == 0 {
			flush()
		}
	}
	flush()
	return dir
}

// loadHooks loads the configuration in dir and closes it.
func loadHooks(tb testing.TB, dir string) {
	tb.Helper()
	cfg, err := assemble.Load(dir)
	if err != nil {
		tb.Fatal(err)
	}
	cfg.Close()
}

// BenchmarkLoad loads n JS or declarative hooks from one file and the
// same hooks split into files of 100: a load costs the total source, so
// one file of 1,000 hooks costs what ten files of 100 do, and 1,000
// hooks ten times 100. live-MB is the heap the loaded configuration holds
// (in use after a collection, less what was in use before the load).
func BenchmarkLoad(b *testing.B) {
	for _, kind := range []string{"js", "declarative"} {
		for _, n := range []int{1, 10, 100, 1000} {
			layouts := []struct {
				name    string
				perFile int
			}{{"one-file", 0}}
			if n > 100 {
				layouts = append(layouts, struct {
					name    string
					perFile int
				}{"files-of-100", 100})
			}
			for _, lay := range layouts {
				b.Run(fmt.Sprintf("%s/%s/%d", kind, lay.name, n), func(b *testing.B) {
					dir := writeHooks(b, b.TempDir(), kind, n, lay.perFile)
					b.ReportAllocs()
					var before, after runtime.MemStats
					runtime.GC()
					runtime.ReadMemStats(&before)
					var cfg *assemble.Config
					for b.Loop() {
						if cfg != nil {
							cfg.Close()
						}
						var err error
						if cfg, err = assemble.Load(dir); err != nil {
							b.Fatal(err)
						}
					}
					b.StopTimer()
					runtime.GC()
					runtime.ReadMemStats(&after)
					b.ReportMetric(float64(int64(after.HeapInuse)-int64(before.HeapInuse))/(1<<20), "live-MB")
					cfg.Close()
				})
			}
		}
	}
}

// TestLoadGrowsLinearly: loading 1,000 JS or TS hooks from one file allocates,
// per hook, what loading 100 does (within 1.3×), and what the same 1,000
// hooks in ten files of 100 do. Positions inside inline bodies were once
// mapped by copying and splitting the whole file per body, and each body
// was compiled padded with a blank line per line of the file before it:
// bytes per hook grew with the file.
func TestLoadGrowsLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 4,200 hooks")
	}
	allocated := func(dir string) uint64 {
		loadHooks(t, dir) // warm: the standard library, the lockdown
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		loadHooks(t, dir)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	for _, kind := range []string{"js", "ts"} {
		t.Run(kind, func(t *testing.T) {
			base := allocated(writeHooks(t, t.TempDir(), kind, 1, 0))
			perHook := func(n, perFile int) float64 {
				return float64(allocated(writeHooks(t, t.TempDir(), kind, n, perFile))-base) / float64(n)
			}
			small, big, split := perHook(100, 0), perHook(1000, 0), perHook(1000, 100)
			t.Logf("bytes per hook: 100 in one file %.0f, 1,000 in one file %.0f, 1,000 in files of 100 %.0f", small, big, split)
			if big > 1.3*small {
				t.Errorf("1,000 hooks in one file allocate %.0f bytes a hook, 100 allocate %.0f: more than 1.3×", big, small)
			}
			if big > 1.3*split {
				t.Errorf("1,000 hooks in one file allocate %.0f bytes a hook, in files of 100 %.0f: more than 1.3×", big, split)
			}
		})
	}
}

// TestPositionsDeepInABigFile: an error of a JS body written after a
// thousand hooks of the same file (heredoc and quoted, on the body's
// first line and on a later one, thrown and in the stack, a syntax
// error) is reported at the file's line and column.
func TestPositionsDeepInABigFile(t *testing.T) {
	const hooks = 1000 // 13 lines each: the bodies below start after line 13,000
	dir := writeHooks(t, t.TempDir(), "js", hooks, 0)
	name := filepath.Join(dir, "hooks000.hcl")
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	first := strings.Count(string(src), "\n") + 1 // the line the hooks below start on
	deep := `hook "deep" {
  event   = "PreToolUse"
  matcher = "Deep"
  js      = <<-JS
    function inner(c) {
      return c.nope.deeper;
    }
    const x = 1; inner(event.tool_input);
  JS
}

hook "quoted" {
  event   = "PreToolUse"
  matcher = "Quoted"
  js      = "const y = 2; undefinedFunction(y);"
}

hook "typed" {
  event   = "PreToolUse"
  matcher = "Typed"
  ts      = <<-TS
    const n: number = 1;
    const o: any = event.tool_input;
    return o.nope.deeper;
  TS
}
`
	if err := os.WriteFile(name, append(src, deep...), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := assemble.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cfg.Close)
	e := newEngine(t)
	if err := e.Load(cfg.Engine); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tool, hook string
		want       []string // in the error, then in the stack
	}{
		// c.nope.deeper: on line 6 of the hook, column 21 ("deeper",
		// the heredoc's indentation counted); called from line 8, where
		// goja places a call at its "(" (column 23).
		{"Deep", "deep", []string{fmt.Sprintf("%s:%d:21", name, first+5), fmt.Sprintf("%s:%d:21", name, first+5), fmt.Sprintf("%s:%d:23", name, first+7)}},
		// undefinedFunction(: the "(" is column 44 of the quoted
		// string's line, the body's first (the header goja compiled in
		// front of it taken off).
		{"Quoted", "quoted", []string{fmt.Sprintf("%s:%d:44", name, first+14), fmt.Sprintf("%s:%d:44", name, first+14)}},
		// A TypeScript body, through esbuild's source map: o.nope.deeper
		// on its third line, "deeper" at column 19.
		{"Typed", "typed", []string{fmt.Sprintf("%s:%d:19", name, first+23), fmt.Sprintf("%s:%d:19", name, first+23)}},
	} {
		out := fire(t, e, "PreToolUse", map[string]any{"tool_name": tc.tool, "tool_input": map[string]any{}})
		var tr *engine.HookTrace
		for i := range out.Hooks {
			if out.Hooks[i].ID == tc.hook {
				tr = &out.Hooks[i]
			}
		}
		if tr == nil || tr.Error == "" {
			t.Fatalf("%s: no error: %+v", tc.hook, out.Hooks)
		}
		if !strings.Contains(tr.Error, tc.want[0]) {
			t.Errorf("%s: error %q, want it at %s", tc.hook, tr.Error, tc.want[0])
		}
		for _, at := range tc.want[1:] {
			if !strings.Contains(tr.Stack, at+"\n") && !strings.Contains(tr.Stack, at+")") {
				t.Errorf("%s: stack\n%s\nlacks %s", tc.hook, tr.Stack, at)
			}
		}
	}

	// Syntax errors there: in a JS heredoc's later line, on a TS body's
	// first.
	bad := strings.Replace(deep, "const x = 1;", "const x = 1 2;", 1)
	bad = strings.Replace(bad, "const n: number = 1;", "const n: number = ;", 1)
	if err := os.WriteFile(name, append(src, bad...), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = assemble.Load(dir)
	for _, want := range []string{fmt.Sprintf("%s:%d:17: error", name, first+7), fmt.Sprintf("%s:%d:23: error", name, first+21)} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("syntax errors reported as %v, want one at %s", err, want)
		}
	}
}
