package kv_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/stdlib/kv"
)

func TestOpenFileCreates(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a", "b", "kv.json")
	f, err := kv.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Path() != path {
		t.Errorf("Path() = %s, want %s", f.Path(), path)
	}
	if runtime.GOOS == "windows" {
		return
	}
	for _, c := range []struct {
		path string
		mode os.FileMode
	}{
		{filepath.Join(root, "a"), 0o700 | os.ModeDir},
		{filepath.Join(root, "a", "b"), 0o700 | os.ModeDir},
		{path, 0o600},
		{path + ".lock", 0o600}, // where flock is used, the lock file stays
	} {
		fi, err := os.Stat(c.path)
		if errors.Is(err, os.ErrNotExist) && strings.HasSuffix(c.path, ".lock") {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != c.mode {
			t.Errorf("%s: mode %v, want %v", c.path, fi.Mode(), c.mode)
		}
	}
	if err := f.Set(context.Background(), "k", 1, 0); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode() != 0o600 {
		t.Errorf("rewritten file: mode %v, want 0600", fi.Mode())
	}
}

func TestOpenFileRelativePath(t *testing.T) {
	t.Chdir(t.TempDir())
	f, err := kv.OpenFile("kv.json")
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(f.Path()) {
		t.Errorf("Path() = %s, want an absolute path", f.Path())
	}
}

func TestFilePersistsAcrossOpens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kv.json")
	ctx := context.Background()
	a, err := kv.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	expires := time.Now().Add(time.Hour).Truncate(time.Second)
	if err := a.Set(ctx, "session/s1/edits", map[string]any{"n": 3}, time.Until(expires)); err != nil {
		t.Fatal(err)
	}
	if err := a.Set(ctx, "global/flag", true, 0); err != nil {
		t.Fatal(err)
	}
	b, err := kv.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok, err := b.Get(ctx, "session/s1/edits"); err != nil || !ok || v.(map[string]any)["n"] != int64(3) {
		t.Errorf("second open: Get = %v, %v, %v", v, ok, err)
	}

	// The file is the documented, human-readable format.
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Version int
		Entries map[string]struct {
			Value   any
			Expires *time.Time
		}
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != 1 || len(doc.Entries) != 2 {
		t.Fatalf("file = %s", raw)
	}
	if e := doc.Entries["global/flag"]; e.Value != true || e.Expires != nil {
		t.Errorf("global/flag = %+v", e)
	}
	if e := doc.Entries["session/s1/edits"]; e.Expires == nil || e.Expires.Sub(expires).Abs() > time.Second {
		t.Errorf("session/s1/edits expires %v, want about %v", e.Expires, expires)
	}
}

func TestFileCorrupt(t *testing.T) {
	tests := []struct {
		name, contents string
	}{
		{"not JSON", "hello"},
		{"truncated", `{"version": 1, "entries": {"a": {"value": 1`},
		{"trailing data", `{"version": 1, "entries": {}} {}`},
		{"null", "null"},
		{"array", "[]"},
		{"missing version", `{"entries": {}}`},
		{"future version", `{"version": 2, "entries": {}}`},
		{"entries not an object", `{"version": 1, "entries": []}`},
		{"entry not an object", `{"version": 1, "entries": {"a": 1}}`},
		{"bad expiry", `{"version": 1, "entries": {"a": {"value": 1, "expires": "tomorrow"}}}`},
		{"empty key", `{"version": 1, "entries": {"": {"value": 1}}}`},
		{"binary", "\x00\x01\x02"},
	}
	ctx := context.Background()
	ops := map[string]func(s kv.Store) error{
		"Get":    func(s kv.Store) error { _, _, err := s.Get(ctx, "a"); return err },
		"Set":    func(s kv.Store) error { return s.Set(ctx, "a", 1, 0) },
		"Delete": func(s kv.Store) error { return s.Delete(ctx, "a") },
		"Incr":   func(s kv.Store) error { _, err := s.Incr(ctx, "a", 1, 0); return err },
		"CAS":    func(s kv.Store) error { _, err := s.CompareAndSwap(ctx, "a", nil, 1, 0); return err },
		"Keys":   func(s kv.Store) error { _, err := s.Keys(ctx, ""); return err },
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "kv.json")
			checkErr := func(what string, err error) {
				t.Helper()
				if !errors.Is(err, kv.ErrCorrupt) {
					t.Errorf("%s: error %v, want ErrCorrupt", what, err)
				} else if !strings.Contains(err.Error(), path) {
					t.Errorf("%s: error %q does not name %s", what, err, path)
				}
				if b, _ := os.ReadFile(path); string(b) != tt.contents {
					t.Errorf("%s changed the corrupt file to %q", what, b)
				}
			}
			if err := os.WriteFile(path, []byte(tt.contents), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := kv.OpenFile(path)
			checkErr("OpenFile", err)

			// Corrupted after a successful open: every operation fails.
			if err := os.WriteFile(path, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := kv.OpenFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(tt.contents), 0o600); err != nil {
				t.Fatal(err)
			}
			for name, op := range ops {
				checkErr(name, op(s))
			}
		})
	}
}

func TestFileEmptyOrMissing(t *testing.T) {
	ctx := context.Background()
	for _, contents := range []string{"", " \n\t"} {
		path := filepath.Join(t.TempDir(), "kv.json")
		os.WriteFile(path, []byte(contents), 0o600)
		s, err := kv.OpenFile(path)
		if err != nil {
			t.Fatalf("blank file %q: %v", contents, err)
		}
		if n, err := s.Incr(ctx, "n", 1, 0); err != nil || n != 1 {
			t.Errorf("Incr on blank file = %d, %v", n, err)
		}
	}

	// Removing the state file, even the whole directory, resets the store.
	dir := filepath.Join(t.TempDir(), "state")
	s, err := kv.OpenFile(filepath.Join(dir, "kv.json"))
	if err != nil {
		t.Fatal(err)
	}
	s.Set(ctx, "k", 1, 0)
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Get(ctx, "k"); ok || err != nil {
		t.Errorf("after removal Get = %v, %v", ok, err)
	}
	if n, err := s.Incr(ctx, "n", 1, 0); err != nil || n != 1 {
		t.Errorf("after removal Incr = %d, %v", n, err)
	}
}

// TestFileWritesOnlyChanges checks that operations that change nothing
// leave the file alone (no rewrite, so the inode stays), and that a
// rewrite drops expired entries.
func TestFileWritesOnlyChanges(t *testing.T) {
	c := newClock()
	path := filepath.Join(t.TempDir(), "kv.json")
	s, err := kv.OpenFile(path, kv.WithClock(c.Now))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s.Set(ctx, "k", "v", 0)
	s.Set(ctx, "short", "v", time.Second)
	s.Set(ctx, "s", "text", 0)
	before, _ := os.Stat(path)
	c.Advance(time.Second)
	noops := map[string]func(){
		"Get":           func() { s.Get(ctx, "k") },
		"Get expired":   func() { s.Get(ctx, "short") },
		"Keys":          func() { s.Keys(ctx, "") },
		"Delete absent": func() { s.Delete(ctx, "absent") },
		"CAS mismatch":  func() { s.CompareAndSwap(ctx, "k", "other", "x", 0) },
		"Incr error":    func() { s.Incr(ctx, "s", 1, 0) },
	}
	for name, op := range noops {
		op()
		if after, _ := os.Stat(path); !os.SameFile(before, after) {
			t.Errorf("%s rewrote the file", name)
		}
	}
	s.Set(ctx, "k2", "v", 0)
	raw, _ := os.ReadFile(path)
	if strings.Contains(string(raw), `"short"`) {
		t.Errorf("expired entry survived a rewrite:\n%s", raw)
	}
	if matches, _ := filepath.Glob(path + ".tmp-*"); len(matches) != 0 {
		t.Errorf("temporary files left behind: %v", matches)
	}
}
