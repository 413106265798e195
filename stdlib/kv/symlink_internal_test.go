//go:build unix

package kv

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/safefile"
)

// TestFileRefusesSymlinks: the files the store writes are never written
// through a symbolic link placed beside them (a later git pull can carry
// one): the state file and its data directory are refused at open, naming
// the link; a bucket's sweep marker and lock file that are links leave
// their targets untouched (not created, not truncated).
func TestFileRefusesSymlinks(t *testing.T) {
	outside := t.TempDir()
	keep := filepath.Join(outside, "keep")
	if err := os.WriteFile(keep, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}

	t.Run("state file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "kv.json")
		if err := os.Symlink(keep, path); err != nil {
			t.Fatal(err)
		}
		_, err := OpenFile(path)
		if !errors.Is(err, safefile.ErrSymlink) {
			t.Fatalf("OpenFile through a linked state file = %v, want ErrSymlink", err)
		}
	})
	t.Run("data directory", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "kv.json")
		if err := os.Symlink(outside, path+".d"); err != nil {
			t.Fatal(err)
		}
		_, err := OpenFile(path)
		if !errors.Is(err, safefile.ErrSymlink) {
			t.Fatalf("OpenFile with a linked data directory = %v, want ErrSymlink", err)
		}
	})
	t.Run("sweep marker", func(t *testing.T) {
		f, err := OpenFile(filepath.Join(t.TempDir(), "kv.json"))
		if err != nil {
			t.Fatal(err)
		}
		bg := context.Background()
		if err := f.Set(bg, "k", 1, 0); err != nil {
			t.Fatal(err)
		}
		dir, _ := f.locate("k")
		marker := filepath.Join(dir, sweptName)
		if err := os.Remove(marker); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(keep, marker); err != nil {
			t.Fatal(err)
		}
		// An old target: the next write sweeps, and rewrites the marker.
		old := time.Now().Add(-2 * sweepEvery)
		if err := os.Chtimes(keep, old, old); err != nil {
			t.Fatal(err)
		}
		if err := f.Set(bg, "k", 2, 0); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(keep); string(b) != "keep" {
			t.Errorf("the marker's link target was truncated: %q", b)
		}
	})
	t.Run("lock file", func(t *testing.T) {
		f, err := OpenFile(filepath.Join(t.TempDir(), "kv.json"))
		if err != nil {
			t.Fatal(err)
		}
		bg := context.Background()
		if err := f.Set(bg, "k", 1, 0); err != nil {
			t.Fatal(err)
		}
		dir, _ := f.locate("k")
		lock := filepath.Join(dir, lockName)
		if err := os.Remove(lock); err != nil {
			t.Fatal(err)
		}
		created := filepath.Join(outside, "created-by-lock")
		if err := os.Symlink(created, lock); err != nil {
			t.Fatal(err)
		}
		if err := f.Set(bg, "k", 2, 0); err == nil {
			t.Errorf("Set with a linked lock file succeeded")
		}
		if _, err := os.Lstat(created); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the lock's link target was created: %v", err)
		}
	})
}
