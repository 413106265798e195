package hosts_test

import (
	"testing"

	"github.com/hookctl/hookctl/protocol/hosts"
)

// BenchmarkNewAndDetect is what a one-shot hook call spends on the
// registry: making it and detecting a payload's host.
func BenchmarkNewAndDetect(b *testing.B) {
	raw := map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "session_id": "s"}
	env := func(string) string { return "" }
	b.ReportAllocs()
	for b.Loop() {
		reg := hosts.New()
		if p, _ := reg.Detect(raw, env); p == nil {
			b.Fatal("no host")
		}
	}
}
