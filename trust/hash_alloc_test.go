package trust

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestHashFileBytes: hashing a configuration file, which every daemon
// call does, allocates about its read buffer, not io.Copy's 32 KiB.
func TestHashFileBytes(t *testing.T) {
	p := filepath.Join(t.TempDir(), "hooks.hcl")
	if err := os.WriteFile(p, []byte(strings.Repeat("hook \"h\" { event = \"Stop\" }\n", 200)), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := hashFile(p)
	if err != nil {
		t.Fatal(err)
	}
	const n = 200
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		if got, err := hashFile(p); err != nil || got != want {
			t.Fatalf("hashFile: %s, %v; want %s", got, err, want)
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 12<<10 {
		t.Fatalf("hashFile allocates %d bytes a call, want at most %d", per, 12<<10)
	}
}
