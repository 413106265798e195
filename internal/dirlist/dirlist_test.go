package dirlist_test

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/dirlist"
	"github.com/hookctl/hookctl/internal/filestamp"
)

// coarseFS plays the clock of a file system with coarse times over a real
// directory: every change to the directory sets its modification and
// change time to the fake clock's time truncated to grain, and a change
// whose truncated time is the one the directory has keeps its stamp as
// it was (as two changes within one tick of a FAT or ext3 clock do). The
// size stays a block's, as a directory's does on most file systems.
type coarseFS struct {
	dir   string
	now   time.Time
	grain time.Duration
	st    filestamp.Stamp
	// during, when set, runs once on the call's duringAt-th stamp: a
	// change made while the cache lists the directory.
	during   func()
	duringAt int
	stamps   int
}

func (f *coarseFS) changed() {
	t := f.now.Truncate(f.grain)
	f.st.ModTime = t
	setCtime(&f.st.ID, t)
}

func (f *coarseFS) stamp(dir string) filestamp.Stamp {
	f.stamps++
	if d := f.during; d != nil && f.stamps == f.duringAt {
		f.during = nil
		d()
	}
	if dir != f.dir {
		return filestamp.Of(dir)
	}
	if _, err := os.Stat(dir); err != nil {
		return filestamp.Stamp{}
	}
	return f.st
}

// entries are the names the random changes play with: configuration
// files, files that are not (another extension, a test file) and
// subdirectories, one named as a configuration file.
var entries = []string{"a.hcl", "b.hcl", "notes.txt", "x_test.hcl", "sub", "d.hcl", ".hidden.hcl"}

// change makes one random change to f's directory: add, remove, rename or
// replace an entry, or remove the directory and make it again.
func (f *coarseFS) change(t *testing.T, r *rand.Rand) string {
	t.Helper()
	name := entries[r.IntN(len(entries))]
	p := filepath.Join(f.dir, name)
	_, err := os.Lstat(p)
	exists := err == nil
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(f.dir); err != nil {
		must(os.Mkdir(f.dir, 0o700))
		anotherID(&f.st.ID) // another directory
		f.changed()
		return "mkdir"
	}
	switch op := r.IntN(10); {
	case op == 0:
		must(os.RemoveAll(f.dir))
		return "rmdir"
	case !exists && (name == "sub" || name == "d.hcl"):
		must(os.Mkdir(p, 0o700))
		f.changed()
		return "mkdir " + name
	case !exists:
		must(os.WriteFile(p, []byte("# "+name), 0o600))
		f.changed()
		return "add " + name
	case op < 4:
		must(os.RemoveAll(p))
		f.changed()
		return "remove " + name
	case op < 7:
		to := entries[r.IntN(len(entries))]
		if _, err := os.Lstat(filepath.Join(f.dir, to)); err == nil {
			return "nothing"
		}
		must(os.Rename(p, filepath.Join(f.dir, to)))
		f.changed()
		return "rename " + name + " " + to
	case op < 9:
		// A file written beside and renamed over the entry (an editor's
		// save): the names are as they were, the directory changed.
		if fi, _ := os.Lstat(p); fi.IsDir() {
			must(os.RemoveAll(p))
		}
		tmp := filepath.Join(f.dir, ".tmp")
		must(os.WriteFile(tmp, []byte("# new"), 0o600))
		must(os.Rename(tmp, p))
		f.changed()
		return "replace " + name
	default:
		// A change inside a subdirectory: the directory is as it was.
		if fi, _ := os.Lstat(p); fi.IsDir() {
			must(os.WriteFile(filepath.Join(p, "inner.hcl"), []byte("#"), 0o600))
		}
		return "touch inside " + name
	}
}

// TestDifferential: under random changes to a directory (entries added,
// removed, renamed and replaced, the directory removed and made again),
// changes within one tick of a coarse clock that keep its stamp as it
// was, and changes made while the cache lists it, the cache's listing is
// a fresh listing's every time: the names os.ReadDir gives and the
// configuration files hcl.ConfigFiles gives. And it does keep listings:
// calls on a settled directory stat it only.
func TestDifferential(t *testing.T) {
	steps := []time.Duration{0, 0, time.Millisecond, 300 * time.Millisecond, 900 * time.Millisecond, 2 * time.Second, 3 * time.Second, 5 * time.Second}
	for seed := range uint64(6) {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 28))
			dir := filepath.Join(t.TempDir(), "hookctl")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			f := &coarseFS{dir: dir, now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), grain: time.Second,
				st: filestamp.Stamp{Exists: true, Size: 4096, ID: firstID()}}
			f.changed()
			c := dirlist.New(dirlist.WithStamp(f.stamp), dirlist.WithClock(func() time.Time { return f.now }))
			var log []string
			hits := 0
			for i := range 2000 {
				f.now = f.now.Add(steps[r.IntN(len(steps))])
				if r.IntN(3) == 0 {
					for range 1 + r.IntN(2) {
						log = append(log, f.change(t, r))
					}
				}
				// A change made while the cache lists: before its first
				// stamp or between the listing and the stamp after it.
				mid := false
				if r.IntN(8) == 0 {
					f.duringAt = 1 + r.IntN(2)
					f.during = func() { mid = true; log = append(log, "while listing: "+f.change(t, r)) }
				}
				f.stamps = 0
				got, err := c.Names(dir)
				f.during = nil
				if f.stamps == 1 && err == nil {
					hits++
				}
				if mid {
					// The answer is the directory as it was listed; the
					// next call's must be as it is.
					continue
				}
				entries, rerr := os.ReadDir(dir)
				var want []string
				for _, e := range entries {
					want = append(want, e.Name())
				}
				if (err != nil) != (rerr != nil) || !slices.Equal(got, want) {
					t.Fatalf("step %d: got %q (%v), a fresh listing %q (%v); changes %q", i, got, err, want, rerr, log[max(0, len(log)-8):])
				}
				files, _ := hcl.ConfigFiles(dir)
				var gotFiles []string
				for _, n := range got {
					if hcl.IsConfigFile(n) {
						gotFiles = append(gotFiles, filepath.Join(dir, n))
					}
				}
				if !slices.Equal(gotFiles, files) {
					t.Fatalf("step %d: configuration files %q, hcl.ConfigFiles %q", i, gotFiles, files)
				}
				if err != nil && !errors.Is(err, fs.ErrNotExist) {
					t.Fatalf("step %d: %v", i, err)
				}
			}
			if hits < 200 {
				t.Fatalf("%d calls of 2000 were answered from the cache", hits)
			}
			t.Logf("%d of 2000 calls answered from the cache", hits)
		})
	}
}

// TestMissingDirectoryIsNotListed: a directory that is not there is
// answered from its stat (fs.ErrNotExist), without a listing's system
// call on every call; one that appears is listed.
func TestMissingDirectoryIsNotListed(t *testing.T) {
	reads := 0
	c := dirlist.New(dirlist.WithReadDir(func(dir string) ([]string, error) {
		reads++
		entries, err := os.ReadDir(dir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names, err
	}))
	dir := filepath.Join(t.TempDir(), "hookctl")
	for range 3 {
		if names, err := c.Names(dir); !errors.Is(err, fs.ErrNotExist) || names != nil {
			t.Fatalf("missing: %v %v", names, err)
		}
	}
	if reads != 0 {
		t.Fatalf("a missing directory listed %d times", reads)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.hcl"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if names, err := c.Names(dir); err != nil || !slices.Equal(names, []string{"a.hcl"}) || reads != 1 {
		t.Fatalf("appeared: %v %v (%d reads)", names, err, reads)
	}
}
