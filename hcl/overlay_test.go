package hcl_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/hcl"
)

// TestOverlay: a directory configuration reads an overlaid file from
// memory instead of the disk, and loads an overlaid file not on disk yet;
// test files read their overlay too.
func TestOverlay(t *testing.T) {
	dir := t.TempDir()
	onDisk := filepath.Join(dir, "a.hcl")
	if err := os.WriteFile(onDisk, []byte("hook \"a\" {\n  event = \"Nope\"\n  decision = \"deny\"\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	newFile := filepath.Join(dir, "b.hcl")
	cfg, err := hcl.Parse(dir, hcl.WithOverlay(map[string][]byte{
		onDisk:  []byte("hook \"a\" {\n  event = \"Stop\"\n  decision = \"block\"\n}\n"),
		newFile: []byte("hook \"b\" {\n  event = \"Stop\"\n  decision = \"block\"\n}\n"),
	}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cfg.Diagnostics(); d.HasErrors() || len(cfg.Hooks) != 2 {
		t.Errorf("hooks %d, diagnostics %v", len(cfg.Hooks), d)
	}

	test := filepath.Join(dir, "a_test.hcl")
	tests := hcl.ParseTests([]string{test}, hcl.WithOverlay(map[string][]byte{test: []byte("test \"x\" {\n  event = \"Stop\"\n}\n")}))
	if d := tests.Diagnostics(); d.HasErrors() || len(tests.Tests) != 1 {
		t.Errorf("tests %d, diagnostics %v", len(tests.Tests), d)
	}
}
