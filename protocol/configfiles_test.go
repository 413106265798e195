package protocol

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestConfigFilesBelowADirectoryWithPatternCharacters: a host's files are
// looked for below the project as named; a project directory named
// proj[1] never lists a sibling proj1's settings (doctor would show
// another project's hooks as this one's).
func TestConfigFilesBelowADirectoryWithPatternCharacters(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"proj[1]/.claude/settings.json", "proj1/.claude/settings.json", "proj[1]/.github/hooks/a.json", "proj1/.github/hooks/b.json", "home/.claude/settings.json"} {
		p = filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tab := &Table{ProjectFiles: []string{".claude/settings.json", ".github/hooks/*.json"}, UserFiles: []string{".claude/settings.json"}}
	got := tab.ConfigFiles(filepath.Join(root, "proj[1]"), filepath.Join(root, "home"))
	want := []string{
		filepath.Join(root, "proj[1]", ".claude", "settings.json"),
		filepath.Join(root, "proj[1]", ".github", "hooks", "a.json"),
		filepath.Join(root, "home", ".claude", "settings.json"),
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
}
