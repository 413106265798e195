package lint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
)

// TestCheckGrowsLinearly: checking the scripts of 1,000 inline JS hooks
// of one file allocates, per hook, what checking 100 does (within 1.3×).
// Each body was once parsed padded with a blank line per line of the
// file before it, and split into lines whole.
func TestCheckGrowsLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("checks 1,100 hooks")
	}
	eng, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	perHook := func(n int) float64 {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "hook \"h%d\" {\n  event = \"PreToolUse\"\n  js    = <<-JS\n    const c = event.tool_input.command || \"\";\n    if (/sudo/.test(c)) return { decision: \"deny\", reason: \"hook %d\" };\n  JS\n}\n\n", i, i)
		}
		path := filepath.Join(t.TempDir(), "hooks.hcl")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := hcl.Parse(path, hcl.WithCatalog(eng))
		if err != nil {
			t.Fatal(err)
		}
		Check(cfg, eng) // warm
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		Check(cfg, eng)
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
	}
	small, big := perHook(100), perHook(1000)
	t.Logf("bytes per hook: 100 hooks %.0f, 1,000 hooks %.0f", small, big)
	if big > 1.3*small {
		t.Errorf("checking 1,000 hooks allocates %.0f bytes a hook, 100 %.0f: more than 1.3×", big, small)
	}
}
