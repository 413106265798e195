package hcl_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
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

// TestConfigurationFilesPassTheFileCheck: every configuration file read
// from the disk passes the file check with the bytes that are then
// parsed (a file swapped after a trust check of it is refused, not
// loaded), as a file() read does; each of a directory's files, and a
// file named alone.
func TestConfigurationFilesPassTheFileCheck(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.hcl")
	b := filepath.Join(dir, "b.hcl")
	os.WriteFile(a, []byte("hook \"a\" {\n  event = \"Stop\"\n  decision = \"block\"\n}\n"), 0o600)
	os.WriteFile(b, []byte("# swapped in\n"), 0o600)
	var seen []string
	check := func(path string, content []byte) error {
		seen = append(seen, filepath.Base(path)+"="+string(content[:2]))
		if filepath.Base(path) == "b.hcl" {
			return errors.New("b.hcl changed since it was trusted")
		}
		return nil
	}
	cfg, err := hcl.Parse(dir, hcl.WithFileCheck(check))
	if err != nil {
		t.Fatal(err)
	}
	if d := cfg.Diagnostics(); !d.HasErrors() || !strings.Contains(d.Error(), "b.hcl changed since it was trusted") {
		t.Fatalf("the refused file was loaded: %v", cfg.Diagnostics())
	}
	if strings.Join(seen, " ") != "a.hcl=ho b.hcl=# " {
		t.Fatalf("checked %v", seen)
	}
	seen = nil
	if cfg := hcl.ParseFile(b, hcl.WithFileCheck(check)); !cfg.Diagnostics().HasErrors() {
		t.Fatal("a refused file named alone was loaded")
	}
	if len(seen) != 1 {
		t.Fatalf("checked %v", seen)
	}
}
