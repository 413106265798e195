package hcl_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hookctl/hookctl/hcl"
)

// TestConfigFilesOfADirectoryWithPatternCharacters: a configuration
// directory is listed as named, never read as a glob pattern: proj[1]
// lists its own files, not those of a sibling proj1 (or of proj*, or of
// another directory that a pattern would match).
func TestConfigFilesOfADirectoryWithPatternCharacters(t *testing.T) {
	root := t.TempDir()
	write := func(p string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(`hook "h" { event = "Stop" }`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range []string{"proj[1]", "proj*", "pr?j"} {
		write(filepath.Join(root, dir, "own.hcl"))
		write(filepath.Join(root, dir, "own_test.hcl"))
	}
	write(filepath.Join(root, "proj1", "other.hcl"))
	write(filepath.Join(root, "projX", "other.hcl"))
	write(filepath.Join(root, "proj", "other.hcl"))
	for _, dir := range []string{"proj[1]", "proj*", "pr?j"} {
		got, err := hcl.ConfigFiles(filepath.Join(root, dir))
		if want := []string{filepath.Join(root, dir, "own.hcl")}; err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: %v, %v; want %v", dir, got, err, want)
		}
	}
	// Sorted; test files and other names left out; an absent directory
	// lists nothing.
	write(filepath.Join(root, "many", "b.hcl"))
	write(filepath.Join(root, "many", "a.hcl"))
	write(filepath.Join(root, "many", "c.txt"))
	got, err := hcl.ConfigFiles(filepath.Join(root, "many"))
	if want := []string{filepath.Join(root, "many", "a.hcl"), filepath.Join(root, "many", "b.hcl")}; err != nil || !slices.Equal(got, want) {
		t.Errorf("many: %v, %v; want %v", got, err, want)
	}
	if got, err := hcl.ConfigFiles(filepath.Join(root, "absent")); err != nil || len(got) != 0 {
		t.Errorf("absent: %v, %v", got, err)
	}
}
