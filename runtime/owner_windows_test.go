//go:build windows

package runtime

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/windows"
)

// TestWindowsOwnerReal: on a real Windows system, a directory the user
// created under their temp directory is theirs: accepted as a user
// layer, refused as a managed one (the user owns it) unless the test
// runs elevated.
func TestWindowsOwnerReal(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "layer")
	writeFile(t, filepath.Join(dir, "policy.hcl"), "")
	u := Layer{Name: LayerUser, Path: dir, root: dir}
	if _, _, err := openLayer(u, -1); err != nil {
		t.Errorf("user layer the user created: %v", err)
	}
	if windows.GetCurrentProcessToken().IsElevated() {
		return // an elevated administrator's files belong to Administrators
	}
	m := Layer{Name: LayerManaged, Path: dir, root: dir}
	if _, _, err := openLayer(m, -1); err == nil || !strings.Contains(err.Error(), "belongs to") {
		t.Errorf("managed layer the user created: %v", err)
	}
}
