//go:build darwin

package paths

import (
	"os"
	"path/filepath"
	"testing"
)

// TestHostFoldsAsTheVolumeDoes: on a Mac a file created as .env is read
// as .ENV (the default volume ignores case), and the host's rules agree:
// Match, Inside and Equal see one name where the file system opens one
// file. They compared byte for byte, so secret-files' ".env" did not
// match the path a command read it by.
func TestHostFoldsAsTheVolumeDoes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("K=v\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	upper := filepath.Join(dir, ".ENV")
	if _, err := os.ReadFile(upper); err != nil {
		t.Skipf("this volume is case-sensitive: %v", err)
	}
	if !Host.FoldsCase() || !Match(".env", upper) || !Inside(upper, filepath.Join(dir, ".env")) || !Host.Equal(".ENV", ".env") {
		t.Errorf("the host's rules read %s as another file than .env", upper)
	}
}
