package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writeJSHooks writes n JS hooks (a heredoc of five lines each, as
// assemble's BenchmarkLoad writes them) into dir, perFile to a file.
func writeJSHooks(tb testing.TB, dir string, n, perFile int) {
	tb.Helper()
	var b strings.Builder
	file := 0
	for i := range n {
		fmt.Fprintf(&b, `hook "h%d" {
  event    = "PreToolUse"
  matcher  = "Bash"
  priority = %d
  js       = <<-JS
    const c = event.tool_input.command || "";
    if (/^rm\s+-rf\s+\//.test(c)) return { decision: "deny", reason: "rm -rf of an absolute path" };
    if (/\bsudo\b/.test(c)) return { decision: "deny", reason: "sudo" };
    if (/curl[^|]*\|\s*(ba)?sh/.test(c)) return { decision: "deny", reason: "curl | sh" };
    return { additional_context: "hook %d: ok" };
  JS
}

`, i, -i, i)
		if (i+1)%perFile == 0 || i == n-1 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("hooks%03d.hcl", file)), []byte(b.String()), 0o600); err != nil {
				tb.Fatal(err)
			}
			b.Reset()
			file++
		}
	}
}

// BenchmarkFireProcess is `hookctl fire` of one event, a whole process,
// against 10 and 1,000 JS hooks in one file and 1,000 in ten files of
// 100: its peak resident memory (maxrss-MB, the median of the runs) and
// the CPU it used (cpu-ms, user and system, per run) beside the wall time.
// Run with -count: the rounds interleave.
func BenchmarkFireProcess(b *testing.B) {
	bin := buildHookctl(b)
	payload := filepath.Join(b.TempDir(), "payload.json")
	if err := os.WriteFile(payload, []byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la"}}`), 0o600); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		n, perFile int
	}{{"js/one-file/10", 10, 10}, {"js/one-file/1000", 1000, 1000}, {"js/files-of-100/1000", 1000, 100}} {
		b.Run(c.name, func(b *testing.B) {
			dir := b.TempDir()
			writeJSHooks(b, dir, c.n, c.perFile)
			env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
				return strings.HasPrefix(kv, "GOGC=") || strings.HasPrefix(kv, "GOMEMLIMIT=")
			})
			var rss []int64
			var cpu time.Duration
			for b.Loop() {
				cmd := exec.Command(bin, "fire", "--config", dir, "--payload", payload, "PreToolUse")
				cmd.Env = env
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %s", err, out)
				}
				ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
				rss = append(rss, ru.Maxrss) // KiB on Linux
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			slices.Sort(rss)
			b.ReportMetric(float64(rss[len(rss)/2])/1024, "maxrss-MB")
			b.ReportMetric(float64(cpu.Milliseconds())/float64(len(rss)), "cpu-ms")
		})
	}
}
