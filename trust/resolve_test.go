//go:build unix

package trust

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// TestResolveIsCanonical is the differential test of resolve's one-call
// path against Canonical's resolution link by link: over trees of
// directories, files and links (relative, absolute, chained, to
// directories, dangling, looping, through ".."), every path resolves to
// the same key and error either way, the key names the file the system
// opens for the path, and a file resolve opened is the file at that key.
func TestResolveIsCanonical(t *testing.T) {
	opened := 0
	for seed := range uint64(40) {
		root, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 7))
		names := []string{"a", "b", "c", "hooks.hcl", "l1", "l2", "l3", "..", "."}
		dirs := []string{root}
		for range 12 { // directories and files
			d := dirs[rng.IntN(len(dirs))]
			p := filepath.Join(d, names[rng.IntN(3)])
			if rng.IntN(3) == 0 {
				os.WriteFile(filepath.Join(d, "hooks.hcl"), []byte(p), 0o644)
			} else if os.Mkdir(p, 0o755) == nil {
				dirs = append(dirs, p)
			}
		}
		for range 10 { // links
			d := dirs[rng.IntN(len(dirs))]
			var target string
			switch rng.IntN(4) {
			case 0: // absolute
				target = filepath.Join(dirs[rng.IntN(len(dirs))], names[rng.IntN(len(names))])
			case 1: // relative, maybe through ".."
				target = filepath.Join(names[rng.IntN(len(names))], names[rng.IntN(len(names))])
			case 2: // to another link (chains, loops)
				target = names[4+rng.IntN(3)]
			default:
				target = "../" + names[rng.IntN(len(names))]
			}
			os.Symlink(target, filepath.Join(d, names[4+rng.IntN(3)]))
		}
		for range 60 {
			parts := []string{root}
			for range 1 + rng.IntN(4) {
				parts = append(parts, names[rng.IntN(len(names))])
			}
			p := strings.Join(parts, "/")
			if rng.IntN(4) == 0 { // relative to the working directory
				if rel, err := filepath.Rel(mustWd(t), p); err == nil {
					p = rel
				}
			}
			want, werr := Canonical(p)
			got, pre, gerr := resolve(p)
			if got != want || (werr == nil) != (gerr == nil) {
				t.Fatalf("seed %d: resolve(%q) = %q, %v; Canonical = %q, %v", seed, p, got, gerr, want, werr)
			}
			// The key names the file the system opens for the path:
			// a link before a ".." is followed first.
			if sys, err := os.Stat(p); err == nil {
				if kfi, err := os.Stat(want); err != nil || !os.SameFile(sys, kfi) {
					t.Fatalf("seed %d: %q opens another file than its key %q (%v)", seed, p, want, err)
				}
			}
			if pre == nil {
				continue
			}
			opened++
			fi, err := os.Stat(want)
			if err != nil || !sameFile(fi, pre.fi) {
				t.Fatalf("seed %d: resolve(%q) opened another file than %q (%v)", seed, p, want, err)
			}
			pre.f.Close()
		}
	}
	if runtime.GOOS == "linux" && opened == 0 {
		t.Error("no path was resolved in one call: the one-call path is not taken")
	}
}

func mustWd(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}

// slowCheck is checkRecord as it was before resolve: the path resolved
// link by link and every file hashed by name.
func slowCheck(path, tf string) bool {
	key, err := Canonical(path)
	if err != nil {
		return false
	}
	st, err := ReadStore(tf)
	if err != nil || st.Configs[key] == nil {
		return false
	}
	cur, err := Current(key, st.Configs[key])
	return err == nil && Digest(cur) == st.Configs[key].SHA256
}

// TestCheckMatchesTheSlowPath is the differential test of the trust
// check through resolve against the check by name: a trusted file and a
// trusted directory, then each change an attacker or a user makes —
// content edited, a file swapped for a link to the trusted content or
// for a FIFO, a directory swapped for a link, an *.hcl added, a required
// file edited — gets the same verdict both ways.
func TestCheckMatchesTheSlowPath(t *testing.T) {
	type step struct {
		name string
		do   func(t *testing.T, d string)
	}
	write := func(rel, src string) func(*testing.T, string) {
		return func(t *testing.T, d string) {
			if err := os.WriteFile(filepath.Join(d, rel), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	const hooks = "hook \"x\" {\n  event = \"Stop\"\n  js = <<-JS\n    return require(\"./lib.js\").ok()\n  JS\n}\n"
	steps := []step{
		{"unchanged", func(*testing.T, string) {}},
		{"required file edited", write("lib.js", "exports.ok = () => ({decision: 'allow'})\n")},
		{"required file restored", write("lib.js", "exports.ok = () => ({})\n")},
		{"config edited", write("hooks.hcl", hooks+"# more\n")},
		{"config restored", write("hooks.hcl", hooks)},
		{"config a link to its trusted copy", func(t *testing.T, d string) {
			copyTo := filepath.Join(t.TempDir(), "hooks.hcl")
			os.WriteFile(copyTo, []byte(hooks), 0o644)
			os.Remove(filepath.Join(d, "hooks.hcl"))
			must(t, os.Symlink(copyTo, filepath.Join(d, "hooks.hcl")))
		}},
		{"config a FIFO", func(t *testing.T, d string) {
			os.Remove(filepath.Join(d, "hooks.hcl"))
			if err := mkfifo(filepath.Join(d, "hooks.hcl")); err != nil {
				t.Skip(err)
			}
		}},
		{"config back", func(t *testing.T, d string) {
			os.Remove(filepath.Join(d, "hooks.hcl"))
			write("hooks.hcl", hooks)(t, d)
		}},
		{"an hcl file added", write("more.hcl", "# nothing\n")},
		{"it is gone", func(t *testing.T, d string) { os.Remove(filepath.Join(d, "more.hcl")) }},
	}
	for _, asDir := range []bool{false, true} {
		d, tf := trustedTree(t, map[string]string{"hooks.hcl": hooks, "lib.js": "exports.ok = () => ({})\n"})
		path := d
		if !asDir {
			path = filepath.Join(d, "hooks.hcl")
			if _, err := Trust(tf, path); err != nil {
				t.Fatal(err)
			}
		}
		// The same configuration reached through a link to its
		// directory: resolved link by link either way.
		link := filepath.Join(t.TempDir(), "via")
		must(t, os.Symlink(d, link))
		linked := filepath.Join(link, strings.TrimPrefix(path, d))
		for _, s := range steps {
			s.do(t, d)
			for _, p := range []string{path, linked} {
				_, err := checkRecord(p, nil, ReadStore, nil)
				if fast, slow := err == nil, slowCheck(p, tf); fast != slow {
					t.Errorf("dir=%v, %s, %s: trusted %v through resolve, %v by name (%v)", asDir, s.name, p, fast, slow, err)
				}
			}
		}
		if _, err := checkRecord(path, nil, ReadStore, nil); err != nil {
			t.Errorf("dir=%v: the restored configuration is not trusted: %v", asDir, err)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func mkfifo(p string) error { return syscall.Mkfifo(p, 0o600) }

// sameFile is os.SameFile for any fs.FileInfo whose Sys is a
// *syscall.Stat_t.
func sameFile(a, b fs.FileInfo) bool {
	sa, ok1 := a.Sys().(*syscall.Stat_t)
	sb, ok2 := b.Sys().(*syscall.Stat_t)
	return ok1 && ok2 && sa.Dev == sb.Dev && sa.Ino == sb.Ino
}
