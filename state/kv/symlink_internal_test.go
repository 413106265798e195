//go:build unix

package kv

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
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

// TestFileRefusesLinkedBuckets: a bucket directory of the data directory
// that is a symbolic link (state.json.d/c4 -> elsewhere/c4, placed after
// trust) or a file is refused by every operation, with an error naming
// it, and nothing is written at the link's target; a linked data
// directory placed after OpenFile is refused the same way.
func TestFileRefusesLinkedBuckets(t *testing.T) {
	bg := context.Background()
	setup := func(t *testing.T) (*File, string, string) {
		f, err := OpenFile(filepath.Join(t.TempDir(), "state.json"))
		if err != nil {
			t.Fatal(err)
		}
		dir, _ := f.locate("k")
		target := filepath.Join(t.TempDir(), filepath.Base(dir))
		if err := os.Mkdir(target, 0o700); err != nil {
			t.Fatal(err)
		}
		return f, dir, target
	}
	ops := map[string]func(f *File) error{
		"Set":  func(f *File) error { return f.Set(bg, "k", 1, 0) },
		"Incr": func(f *File) error { _, err := f.Incr(bg, "k", 1, 0); return err },
		"Get":  func(f *File) error { _, _, err := f.Get(bg, "k"); return err },
		"Keys": func(f *File) error { _, err := f.Keys(bg, ""); return err },
	}
	for name, op := range ops {
		t.Run("linked bucket/"+name, func(t *testing.T) {
			f, dir, target := setup(t)
			if err := os.Symlink(target, dir); err != nil {
				t.Fatal(err)
			}
			err := op(f)
			if !errors.Is(err, safefile.ErrSymlink) || !strings.Contains(err.Error(), dir) {
				t.Errorf("%s through a linked bucket = %v, want ErrSymlink naming %s", name, err, dir)
			}
			if names, _ := os.ReadDir(target); len(names) != 0 {
				t.Errorf("%s wrote %d file(s) at the bucket link's target", name, len(names))
			}
		})
		t.Run("file bucket/"+name, func(t *testing.T) {
			f, dir, _ := setup(t)
			if err := os.WriteFile(dir, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := op(f); !errors.Is(err, safefile.ErrNotDir) {
				t.Errorf("%s with a file for a bucket = %v, want ErrNotDir", name, err)
			}
		})
	}
	t.Run("data directory linked after open", func(t *testing.T) {
		f, dir, target := setup(t)
		data := filepath.Dir(dir)
		if err := os.Remove(data); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Dir(target), data); err != nil {
			t.Fatal(err)
		}
		if err := f.Set(bg, "k", 1, 0); !errors.Is(err, safefile.ErrSymlink) {
			t.Errorf("Set through a data directory linked after open = %v, want ErrSymlink", err)
		}
		if names, _ := os.ReadDir(target); len(names) != 0 {
			t.Errorf("Set wrote %d file(s) through the linked data directory", len(names))
		}
	})
}
