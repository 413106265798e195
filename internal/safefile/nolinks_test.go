//go:build unix

package safefile_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/ostest"
	"github.com/hookctl/hookctl/internal/safefile"
)

// TestOpenNoLinks: a path free of links opens in one call (on Linux);
// any link on the way, a relative or unclean path, and anything Open
// refuses give ErrLinks, never a file, and a FIFO never blocks.
func TestOpenNoLinks(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "real", "hooks.hcl")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("hook {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	must(t, os.Symlink("real", filepath.Join(dir, "dirlink")))
	must(t, os.Symlink(file, filepath.Join(dir, "real", "filelink.hcl")))
	must(t, os.Symlink("/proc/self/cwd", filepath.Join(dir, "magic")))
	free := []string{file, filepath.Join(dir, "real")}
	linked := []string{
		filepath.Join(dir, "dirlink", "hooks.hcl"), // a link on the way
		filepath.Join(dir, "real", "filelink.hcl"), // a link at the end
		filepath.Join(dir, "magic"),                // a link to a magic link
		dir + "/real/../real/hooks.hcl",            // not clean
		"real/hooks.hcl",                           // not absolute
		dir + "//real/hooks.hcl",                   // not clean
		filepath.Join(dir, "absent.hcl"),           // not there
		"/proc/self/status",                        // a magic link on the way
		"/proc/cpuinfo",                            // a pseudo file system
		"/dev/null",                                // a device
	}
	linked = append(linked, ostest.Mkfifo(t, filepath.Join(dir, "fifo.hcl")))
	for _, p := range linked {
		done := make(chan struct{})
		go func() {
			defer close(done)
			f, fi, err := safefile.OpenNoLinks(p)
			if !errors.Is(err, safefile.ErrLinks) || f != nil || fi != nil {
				t.Errorf("OpenNoLinks(%s) = %v, %v, %v; want ErrLinks", p, f, fi, err)
				if f != nil {
					f.Close()
				}
			}
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("OpenNoLinks(%s) blocked", p)
		}
	}
	for _, p := range free {
		f, fi, err := safefile.OpenNoLinks(p)
		if runtime.GOOS != "linux" {
			if !errors.Is(err, safefile.ErrLinks) {
				t.Errorf("OpenNoLinks(%s) on %s = %v, want ErrLinks", p, runtime.GOOS, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("OpenNoLinks(%s): %v", p, err)
		}
		if (p == file) == fi.IsDir() {
			t.Errorf("OpenNoLinks(%s): IsDir = %v", p, fi.IsDir())
		}
		if p == file {
			b, err := io.ReadAll(f)
			if err != nil || string(b) != "hook {}\n" {
				t.Errorf("read %q, %v", b, err)
			}
		}
		f.Close()
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
