package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReplaceFileKeepsMode: the rewritten file keeps its permissions, and
// no temporary file is left beside it.
func TestReplaceFileKeepsMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no permission bits")
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "hooks.hcl")
	if err := os.WriteFile(name, []byte("a=1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(name, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := replaceFile(name, []byte("a=1\n"), []byte("a = 1\n")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", fi.Mode().Perm())
	}
	if b, _ := os.ReadFile(name); string(b) != "a = 1\n" {
		t.Errorf("content %q", b)
	}
	onlyFile(t, dir, "hooks.hcl")
}

// TestReplaceFileRefusesChangedFile: a file edited between the read and
// the write keeps the edit; the temporary file is removed.
func TestReplaceFileRefusesChangedFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "hooks.hcl")
	if err := os.WriteFile(name, []byte("a=2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := replaceFile(name, []byte("a=1\n"), []byte("a = 1\n"))
	if err == nil || !strings.Contains(err.Error(), "changed while it was formatted") {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "a=2\n" {
		t.Errorf("content %q, want the edit kept", b)
	}
	onlyFile(t, dir, "hooks.hcl")
}

// TestReplaceFileRefusesSymlink: a symbolic link is neither replaced nor
// written through.
func TestReplaceFileRefusesSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.hcl")
	if err := os.WriteFile(target, []byte("a=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.hcl")
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	if err := replaceFile(link, []byte("a=1\n"), []byte("a = 1\n")); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("err = %v", err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link replaced: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(target); string(b) != "a=1\n" {
		t.Errorf("target written through the link: %q", b)
	}
}

// onlyFile fails unless dir holds the one file name.
func onlyFile(t *testing.T, dir, name string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() != name {
			t.Errorf("left in %s: %s", dir, e.Name())
		}
	}
}
