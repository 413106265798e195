package protocol_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/protocol"
)

// TestInstallTargetStaysInTheProject: links inside the project are
// followed; a link out of it, or to nothing, is a *LinkError; a project
// that does not exist yet is fine.
func TestInstallTargetStaysInTheProject(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	project, outside := filepath.Join(root, "p"), filepath.Join(root, "out")
	for _, d := range []string{filepath.Join(project, "conf"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.Symlink(filepath.Join(outside, "x.json"), filepath.Join(project, "crush.json"))
	os.Symlink("conf", filepath.Join(project, ".cursor"))
	os.Symlink(outside, filepath.Join(project, ".gemini"))
	os.Symlink("nothing-here", filepath.Join(project, "dangling.json"))
	for rel, out := range map[string]bool{"crush.json": true, ".gemini/settings.json": true, "dangling.json": true, ".cursor/hooks.json": false, ".claude/settings.json": false} {
		got, err := protocol.InstallTarget(project, rel)
		var le *protocol.LinkError
		if out != errors.As(err, &le) {
			t.Errorf("%s: %q, %v", rel, got, err)
		}
	}
	if got, err := protocol.InstallTarget(filepath.Join(root, "new", "proj"), ".claude/settings.json"); err != nil || got != filepath.Join(root, "new", "proj", ".claude", "settings.json") {
		t.Errorf("a new project: %q, %v", got, err)
	}
}
