package runtime

import (
	"errors"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/dirlist"
)

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDiscoverLayers: managed (its own files, then each *.d drop-in by
// name), user, project; --config replaces only the project; a project
// that is one of the other layers is loaded once; none at all is
// ErrNoConfig.
func TestDiscoverLayers(t *testing.T) {
	dir := t.TempDir()
	managed := filepath.Join(dir, "managed")
	writeFile(t, filepath.Join(managed, "a.hcl"), "")
	writeFile(t, filepath.Join(managed, "20-b.d", "b.hcl"), "")
	writeFile(t, filepath.Join(managed, "10-a.d", "a.hcl"), "")
	writeFile(t, filepath.Join(managed, "30-empty.d", "README"), "")
	writeFile(t, filepath.Join(dir, "xdg", "hookctl", "me.hcl"), "")
	writeFile(t, filepath.Join(dir, "proj", "hooks.hcl"), "")
	env := map[string]string{"HOOKCTL_MANAGED_DIR": managed, "XDG_CONFIG_HOME": filepath.Join(dir, "xdg")}
	getenv := func(k string) string { return env[k] }
	names := func(ls []Layer) []string {
		var out []string
		for _, l := range ls {
			out = append(out, l.Name+" "+strings.TrimPrefix(l.Path, dir+"/"))
		}
		return out
	}
	got, err := DiscoverLayers("", filepath.Join(dir, "proj"), getenv)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"managed managed", "managed managed/10-a.d", "managed managed/20-b.d", "user xdg/hookctl", "project hooks.hcl"}
	if !slices.Equal(names(got), want) {
		t.Errorf("got %q, want %q", names(got), want)
	}
	// Through a listing cache (the daemon's), on a settled tree: the
	// same layers, call after call, and a drop-in added is one more.
	ls := dirlist.New(dirlist.WithClock(func() time.Time { return time.Now().Add(time.Hour) }))
	for range 2 {
		cached, err := discoverLayers("", filepath.Join(dir, "proj"), getenv, ls)
		if err != nil || !slices.Equal(names(cached), want) {
			t.Errorf("through a listing cache: got %q (%v), want %q", names(cached), err, want)
		}
	}
	writeFile(t, filepath.Join(managed, "15-new.d", "n.hcl"), "")
	cached, err := discoverLayers("", filepath.Join(dir, "proj"), getenv, ls)
	if want := slices.Insert(slices.Clone(want), 2, "managed managed/15-new.d"); err != nil || !slices.Equal(names(cached), want) {
		t.Errorf("a drop-in added, through a listing cache: got %q (%v), want %q", names(cached), err, want)
	}
	if err := os.RemoveAll(filepath.Join(managed, "15-new.d")); err != nil {
		t.Fatal(err)
	}
	got, _ = DiscoverLayers(filepath.Join(dir, "xdg", "hookctl"), "", getenv)
	if want := want[:4]; !slices.Equal(names(got), want) {
		t.Errorf("--config naming the user's directory: got %q, want %q", names(got), want)
	}
	env = map[string]string{"HOOKCTL_MANAGED_DIR": filepath.Join(dir, "none"), "XDG_CONFIG_HOME": filepath.Join(dir, "none")}
	if _, err := DiscoverLayers("", t.TempDir(), getenv); !errors.Is(err, ErrNoConfig) {
		t.Errorf("no layer: %v, want ErrNoConfig", err)
	}
}

// TestManagedOwner: a managed file is refused when the user running
// hookctl owns it (root excepted) or when group or others may write it;
// a user's file when others may write it or it belongs to someone else.
func TestManagedOwner(t *testing.T) {
	if goruntime.GOOS == "windows" {
		t.Skip("Unix owners and modes; the Windows rule is TestACLWritable and TestWindowsOwnerReal")
	}
	dir := t.TempDir()
	managed := filepath.Join(dir, "managed")
	p := filepath.Join(managed, "policy.hcl")
	writeFile(t, p, "")
	me := os.Geteuid()
	other := me + 1000
	if me == 0 {
		// root: give the files to a user, then run "as" that user.
		me, other = 4242, 0
		for _, q := range []string{managed, p} {
			if err := os.Chown(q, me, me); err != nil {
				t.Fatal(err)
			}
		}
	}
	l := Layer{Name: LayerManaged, Path: managed, root: managed}
	var me2 *ManagedError
	if _, _, err := openLayer(l, me); !errors.As(err, &me2) || !strings.Contains(err.Error(), "belongs to the user running hookctl") {
		t.Errorf("managed, owned by the user running hookctl: %v", err)
	}
	// Someone else runs hookctl: the files are not theirs.
	if _, _, err := openLayer(l, other); err != nil {
		t.Errorf("managed, owned by another user: %v", err)
	}
	if err := os.Chmod(p, 0o664); err != nil {
		t.Fatal(err)
	}
	if _, _, err := openLayer(l, other); err == nil || !strings.Contains(err.Error(), "writable by its group or by others (mode 0664)") {
		t.Errorf("managed, group-writable: %v", err)
	}
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	u := Layer{Name: LayerUser, Path: managed, root: managed}
	if _, _, err := openLayer(u, me); err != nil {
		t.Errorf("user, owned by the user: %v", err)
	}
	if os.Geteuid() == 0 {
		if _, _, err := openLayer(u, 4343); err == nil || !strings.Contains(err.Error(), "neither you (uid 4343) nor root") {
			t.Errorf("user, owned by someone else: %v", err)
		}
	}
}

// TestRefusalAdvicePerPlatform: a refused layer's message gives the fix
// of the platform it runs on: file modes on Unix, ACLs on Windows.
func TestRefusalAdvicePerPlatform(t *testing.T) {
	for _, layer := range []string{LayerUser, LayerManaged} {
		e := &ManagedError{Layer: layer, Path: "P", Why: "W"}
		unix, win := e.message("linux"), e.message("windows")
		if !strings.Contains(unix, "P is refused: W") || !strings.Contains(win, "P is refused: W") {
			t.Errorf("%s: %q / %q", layer, unix, win)
		}
		if !strings.Contains(unix, "mode") && !strings.Contains(unix, "chmod") {
			t.Errorf("%s on Unix: no file-mode advice: %q", layer, unix)
		}
		if strings.Contains(win, "chmod") || strings.Contains(win, "mode without") || !strings.Contains(win, "icacls") {
			t.Errorf("%s on Windows: %q", layer, win)
		}
	}
}
