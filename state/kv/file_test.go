package kv_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/state/kv"
	"github.com/hookctl/hookctl/state/kv/kvtest"
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

	// The files are the documented, human-readable format: a manifest at
	// the path, one file per key under "<path>.d/<bucket>/".
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var man struct{ Version int }
	if err := json.Unmarshal(raw, &man); err != nil || man.Version != 2 {
		t.Fatalf("manifest = %s (%v)", raw, err)
	}
	files, err := filepath.Glob(filepath.Join(path+".d", "*", "k*"))
	if err != nil || len(files) != 2 {
		t.Fatalf("key files %v, %v", files, err)
	}
	docs := map[string]struct {
		Key     string
		Value   any
		Expires *time.Time
	}{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var d struct {
			Key     string
			Value   any
			Expires *time.Time
		}
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatalf("%s: %s", f, b)
		}
		if hex := filepath.Base(f)[1:]; hex != fmt.Sprintf("%x", d.Key) {
			t.Errorf("%s holds key %q", f, d.Key)
		}
		docs[d.Key] = d
	}
	if e := docs["global/flag"]; e.Value != true || e.Expires != nil {
		t.Errorf("global/flag = %+v", e)
	}
	if e := docs["session/s1/edits"]; e.Expires == nil || e.Expires.Sub(expires).Abs() > time.Second {
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
		{"future version", `{"version": 3, "entries": {}}`},
		{"entries in a version 2 manifest", `{"version": 2, "entries": {}}`},
		{"entries not an object", `{"version": 1, "entries": []}`},
		{"entry not an object", `{"version": 1, "entries": {"a": 1}}`},
		{"bad expiry", `{"version": 1, "entries": {"a": {"value": 1, "expires": "tomorrow"}}}`},
		{"empty key", `{"version": 1, "entries": {"": {"value": 1}}}`},
		{"binary", "\x00\x01\x02"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "kv.json")
			if err := os.WriteFile(path, []byte(tt.contents), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := kv.OpenFile(path)
			if !errors.Is(err, kv.ErrCorrupt) || !strings.Contains(err.Error(), path) {
				t.Errorf("OpenFile: error %v, want ErrCorrupt naming %s", err, path)
			}
			if b, _ := os.ReadFile(path); string(b) != tt.contents {
				t.Errorf("OpenFile changed the corrupt file to %q", b)
			}
		})
	}
}

// TestFileCorruptKey: a key's file that cannot be parsed fails every
// operation on that key, and Keys, naming the file and leaving it alone;
// every other key works on.
func TestFileCorruptKey(t *testing.T) {
	ctx := context.Background()
	ops := map[string]func(s kv.Store) error{
		"Get":    func(s kv.Store) error { _, _, err := s.Get(ctx, "a"); return err },
		"Set":    func(s kv.Store) error { return s.Set(ctx, "a", 1, 0) },
		"Delete": func(s kv.Store) error { return s.Delete(ctx, "a") },
		"Incr":   func(s kv.Store) error { _, err := s.Incr(ctx, "a", 1, 0); return err },
		"CAS":    func(s kv.Store) error { _, err := s.CompareAndSwap(ctx, "a", nil, 1, 0); return err },
		"Keys":   func(s kv.Store) error { _, err := s.Keys(ctx, ""); return err },
	}
	for _, contents := range []string{"hello", `{"key":"a","value":1`, `{"key":"a"}`, `{"key":"a","value":1,"expires":"tomorrow"}`, `{"key":"a","value":1} {}`, ""} {
		path := filepath.Join(t.TempDir(), "kv.json")
		s, err := kv.OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Set(ctx, "a", 1, 0); err != nil {
			t.Fatal(err)
		}
		if err := s.Set(ctx, "b", 2, 0); err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(path+".d", "*", "k61")) // "a"
		if len(files) != 1 {
			t.Fatalf("key file of a: %v", files)
		}
		if err := os.WriteFile(files[0], []byte(contents), 0o600); err != nil {
			t.Fatal(err)
		}
		for name, op := range ops {
			err := op(s)
			if !errors.Is(err, kv.ErrCorrupt) || !strings.Contains(err.Error(), files[0]) {
				t.Errorf("%q: %s: error %v, want ErrCorrupt naming %s", contents, name, err, files[0])
			}
			if b, _ := os.ReadFile(files[0]); string(b) != contents {
				t.Errorf("%s changed the corrupt file to %q", name, b)
			}
		}
		if v, ok, err := s.Get(ctx, "b"); err != nil || !ok || v != int64(2) {
			t.Errorf("another key: %v, %v, %v", v, ok, err)
		}
		if n, err := s.Incr(ctx, "c", 1, 0); err != nil || n != 1 {
			t.Errorf("another key: %v, %v", n, err)
		}
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

// keyFile returns the file of key in the store at path.
func keyFile(t *testing.T, path, key string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(path+".d", "*", fmt.Sprintf("k%x", key)))
	if len(files) != 1 {
		t.Fatalf("key file of %q: %v", key, files)
	}
	return files[0]
}

// TestFileWritesOnlyChanges checks that operations that change nothing
// leave the key's file alone (no rewrite, so the inode stays), that a
// write of an expired key removes it, and that the first write into a
// bucket an hour after its last sweep removes the bucket's expired entries
// and stale temporary files.
func TestFileWritesOnlyChanges(t *testing.T) {
	c := kvtest.NewClock()
	path := filepath.Join(t.TempDir(), "kv.json")
	s, err := kv.OpenFile(path, kv.WithClock(c.Now))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s.Set(ctx, "k", "v", 0)
	s.Set(ctx, "short", "v", time.Second)
	s.Set(ctx, "s", "text", 0)
	files := map[string]string{"k": keyFile(t, path, "k"), "s": keyFile(t, path, "s"), "short": keyFile(t, path, "short")}
	before := map[string]os.FileInfo{}
	for k, f := range files {
		before[k], _ = os.Stat(f)
	}
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
		for k, f := range files {
			if after, _ := os.Stat(f); !os.SameFile(before[k], after) {
				t.Errorf("%s rewrote the file of %s", name, k)
			}
		}
	}
	// An expired entry goes when a sweep of its bucket comes by: make every
	// bucket's last sweep two hours old, and write into the bucket.
	stale := filepath.Join(filepath.Dir(files["short"]), ".tmp-crashed")
	if err := os.WriteFile(stale, []byte(`{"key":"half wr`), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Hour)
	markers, _ := filepath.Glob(filepath.Join(path+".d", "*", ".swept"))
	for _, m := range append(markers, stale) {
		os.Chtimes(m, old, old)
	}
	if _, err := os.Stat(files["short"]); err != nil {
		t.Fatalf("expired entry removed before a sweep: %v", err)
	}
	// A write of another key of the bucket of "short" sweeps it.
	bucket := filepath.Dir(files["short"])
	for i := 0; ; i++ {
		k := fmt.Sprintf("probe%d", i)
		if _, err := s.Incr(ctx, k, 1, 0); err != nil {
			t.Fatal(err)
		}
		if filepath.Dir(keyFile(t, path, k)) == bucket {
			break
		}
	}
	if _, err := os.Stat(files["short"]); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("expired entry survived a sweep: %v", err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale temporary file survived a sweep: %v", err)
	}
	if matches, _ := filepath.Glob(filepath.Join(path+".d", "*", ".tmp-*")); len(matches) != 0 {
		t.Errorf("temporary files left behind: %v", matches)
	}
}

// TestFileMigratesVersion1: a state file of the single-document format
// (version 1) is migrated by the first operation: its live entries keep
// their values and expiries, expired ones are dropped, and the file
// becomes the version 2 manifest.
func TestFileMigratesVersion1(t *testing.T) {
	c := kvtest.NewClock()
	path := filepath.Join(t.TempDir(), "kv.json")
	exp := c.Now().Add(time.Hour).UTC().Format(time.RFC3339Nano)
	old := c.Now().Add(-time.Hour).UTC().Format(time.RFC3339Nano)
	doc := `{"version": 1, "entries": {
		"stopguard/s1": {"value": 3, "expires": "` + exp + `"},
		"global/obj": {"value": {"a": [1, 2.5, "x"]}},
		"gone": {"value": true, "expires": "` + old + `"}
	}}`
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := kv.OpenFile(path, kv.WithClock(c.Now))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if n, err := s.Incr(ctx, "stopguard/s1", 1, 0); err != nil || n != 4 {
		t.Fatalf("Incr of a migrated counter = %d, %v", n, err)
	}
	keys, err := s.Keys(ctx, "")
	if err != nil || strings.Join(keys, ",") != "global/obj,stopguard/s1" {
		t.Fatalf("Keys = %v, %v", keys, err)
	}
	v, _, _ := s.Get(ctx, "global/obj")
	if b, _ := json.Marshal(v); string(b) != `{"a":[1,2.5,"x"]}` {
		t.Errorf("global/obj = %s", b)
	}
	c.Advance(2 * time.Hour)
	if _, ok, _ := s.Get(ctx, "stopguard/s1"); ok {
		t.Error("the migrated expiry was lost")
	}
	raw, _ := os.ReadFile(path)
	if !strings.Contains(string(raw), `"version": 2`) {
		t.Errorf("state file after migration: %s", raw)
	}
	// Another process's view, opened afterwards, sees the same store.
	s2, err := kv.OpenFile(path, kv.WithClock(c.Now))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok, err := s2.Get(ctx, "global/obj"); err != nil || !ok || v == nil {
		t.Errorf("second open: %v %v %v", v, ok, err)
	}
}
