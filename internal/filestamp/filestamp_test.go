package filestamp_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/filestamp"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestChanges: a set notices a change of size, a change of the
// modification time alone, a rewrite that kept both, a removal and a file
// appearing, and nothing when nothing changed.
func TestChanges(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.hcl"), filepath.Join(dir, "b.js")
	write(t, a, "hook {}")
	past := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(a, past, past); err != nil {
		t.Fatal(err)
	}
	files := []string{a, b} // b does not exist yet
	s := filestamp.Take(files)
	if s.Changed() || !s.Equal(filestamp.Take(files)) {
		t.Fatal("a set changed with no change")
	}
	if !s[a].Exists || s[a].Size != 7 || s[b].Exists {
		t.Fatalf("stamps %+v", s)
	}

	for _, tc := range []struct {
		name   string
		change func()
	}{
		{"size", func() {
			write(t, a, "hook {} ")
			if err := os.Chtimes(a, past, past); err != nil { // the time alone would not tell
				t.Fatal(err)
			}
		}},
		{"mtime", func() {
			later := past.Add(time.Second)
			if err := os.Chtimes(a, later, later); err != nil {
				t.Fatal(err)
			}
		}},
		{"rewritten, size and time kept (sed -i, then touch -d)", func() {
			fi, err := os.Stat(a)
			if err != nil {
				t.Fatal(err)
			}
			tmp := a + ".tmp"
			write(t, tmp, "HOOK {} ")
			if err := os.Rename(tmp, a); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(a, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
		}},
		{"written in place, size and time kept (cp -p)", func() {
			fi, err := os.Stat(a)
			if err != nil {
				t.Fatal(err)
			}
			write(t, a, "hook {}!")
			if err := os.Chtimes(a, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
		}},
		{"appeared", func() { write(t, b, "x") }},
		{"removed", func() {
			if err := os.Remove(b); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		before := filestamp.Take(files)
		tc.change()
		if !before.Changed() {
			t.Errorf("%s: change not seen", tc.name)
		}
		after := filestamp.Take(files)
		if before.Equal(after) || after.Equal(before) {
			t.Errorf("%s: sets equal", tc.name)
		}
		if after.Changed() {
			t.Errorf("%s: a fresh set is changed", tc.name)
		}
	}
}

// TestEqualSets: sets of other files differ; two absent files are equal.
func TestEqualSets(t *testing.T) {
	dir := t.TempDir()
	x, y := filepath.Join(dir, "x"), filepath.Join(dir, "y")
	if !filestamp.Of(x).Equal(filestamp.Of(y)) {
		t.Fatal("two missing files differ")
	}
	if filestamp.Take([]string{x}).Equal(filestamp.Take([]string{y})) {
		t.Fatal("sets of different files are equal")
	}
	if filestamp.Take([]string{x}).Equal(filestamp.Take([]string{x, y})) {
		t.Fatal("sets of different sizes are equal")
	}
	if got := filestamp.Take([]string{y, x}).Files(); len(got) != 2 || got[0] != x {
		t.Fatalf("files %v", got)
	}
}

// TestSettled: a file just written is not settled (a write within the
// clock's tick could keep its stamp); an hour later it is; a missing file
// never is.
func TestSettled(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := filestamp.Of(p)
	if s.Settled(time.Now(), time.Second) {
		t.Error("a file written now is settled")
	}
	if !s.Settled(time.Now().Add(time.Hour), time.Second) {
		t.Error("a file written an hour ago is not settled")
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	if s := filestamp.Of(p); s.Settled(time.Now(), time.Second) && runtime.GOOS != "windows" {
		t.Error("a modification time set back settles a file changed now")
	}
	if filestamp.Of(p+".missing").Settled(time.Now().Add(time.Hour), time.Second) {
		t.Error("a missing file is settled")
	}
}
