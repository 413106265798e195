package trust

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/filestamp"
)

// trustedTree is a trusted configuration directory and its trust file
// (in $HOOKCTL_TRUST_FILE).
func trustedTree(t testing.TB, files map[string]string) (dir, tf string) {
	t.Helper()
	tf = filepath.Join(t.TempDir(), "trusted.json")
	t.Setenv(FileEnv, tf)
	d, err := Canonical(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range files {
		p := filepath.Join(d, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Trust(tf, d); err != nil {
		t.Fatal(err)
	}
	return d, tf
}

// rewriteInPlace replaces the record's digest in the trust file tf with
// one of the same length, writing the file in place (same inode) and
// setting its modification time back: only its change time tells.
func rewriteInPlace(t *testing.T, tf string) {
	t.Helper()
	fi, err := os.Stat(tf)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(tf)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, []byte(`"sha256": "`))
	if i < 0 {
		t.Fatalf("no digest in %s", b)
	}
	i += len(`"sha256": "`)
	if b[i] == '0' {
		b[i] = '1'
	} else {
		b[i] = '0'
	}
	f, err := os.OpenFile(tf, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(b, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(tf, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
}

func wantChanged(t *testing.T, err error) {
	t.Helper()
	var ue *UntrustedError
	if !errors.As(err, &ue) || ue.Code() != hcl.CodeTrustChanged {
		t.Fatalf("want the trust record not to match, got %v", err)
	}
}

// TestIndexReadsRewriteInPlace: a trust file the index holds (settled,
// as the clock says long after it was written), rewritten in place with
// the same size and its modification time set back, is read again on the
// next check: its change time differs.
func TestIndexReadsRewriteInPlace(t *testing.T) {
	dir, tf := trustedTree(t, map[string]string{"hooks.hcl": "hook \"a\" {\n  event = \"Stop\"\n  decision = \"allow\"\n}\n"})
	ix := NewIndex()
	ix.now = func() time.Time { return time.Now().Add(time.Hour) }
	if err := ix.Check(dir); err != nil {
		t.Fatal(err)
	}
	a, _ := ix.Store(tf)
	if b, _ := ix.Store(tf); a != b {
		t.Fatal("a settled trust file is read again on every call")
	}
	old := filestamp.Of(tf)
	rewriteInPlace(t, tf)
	// The change time moves with the clock's tick: rewrite until it did
	// (the tick of the kernel's coarse clock).
	for filestamp.Of(tf).Equal(old) {
		rewriteInPlace(t, tf)
		rewriteInPlace(t, tf)
	}
	wantChanged(t, ix.Check(dir))
}

// TestIndexRereadsWithinTick: a trust file written within the clock's tick
// of the read can be written again without its stamp changing; the index
// reads it again until it settles.
func TestIndexRereadsWithinTick(t *testing.T) {
	dir, tf := trustedTree(t, map[string]string{"hooks.hcl": "hook \"a\" {\n  event = \"Stop\"\n  decision = \"allow\"\n}\n"})
	ix := NewIndex()
	now := time.Now()
	// The same stamp before and after the rewrite, as two writes within
	// one tick of a coarse clock leave it.
	same := filestamp.Of(tf)
	same.ModTime = now
	ix.stamp = func(string) filestamp.Stamp { return same }
	ix.now = func() time.Time { return now }
	if err := ix.Check(dir); err != nil {
		t.Fatal(err)
	}
	rewriteInPlace(t, tf)
	wantChanged(t, ix.Check(dir))
}

// TestIndexChecksContent: the configuration is hashed on every check: a
// changed file is seen on the next call, whatever the index holds.
func TestIndexChecksContent(t *testing.T) {
	dir, _ := trustedTree(t, map[string]string{"hooks.hcl": "hook \"a\" {\n  event = \"Stop\"\n  decision = \"allow\"\n}\n"})
	ix := NewIndex()
	ix.now = func() time.Time { return time.Now().Add(time.Hour) }
	if err := ix.Check(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hooks.hcl"), []byte("hook \"a\" {\n  event = \"Stop\"\n  decision = \"deny\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wantChanged(t, ix.Check(dir))
}

// TestIndexUntrustAndMissing: a revoked configuration (a new trust file
// renamed over the old) is refused on the next call; a missing trust file
// trusts nothing.
func TestIndexUntrustAndMissing(t *testing.T) {
	dir, tf := trustedTree(t, map[string]string{"hooks.hcl": "hook \"a\" {\n  event = \"Stop\"\n  decision = \"allow\"\n}\n"})
	ix := NewIndex()
	ix.now = func() time.Time { return time.Now().Add(time.Hour) }
	if err := ix.Check(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := Revoke(tf, dir); err != nil {
		t.Fatal(err)
	}
	var ue *UntrustedError
	if err := ix.Check(dir); !errors.As(err, &ue) || ue.Code() != hcl.CodeUntrusted {
		t.Fatalf("revoked: %v", err)
	}
	os.Remove(tf)
	if err := ix.Check(dir); !errors.As(err, &ue) || ue.Code() != hcl.CodeUntrusted {
		t.Fatalf("no trust file: %v", err)
	}
}

// BenchmarkIndexCheck is a trust check of one configuration through the
// index (as the daemon does per call) and without (as hookctl claude
// does), with 6 and 1,000 trusted configurations in the trust file.
func BenchmarkIndexCheck(b *testing.B) {
	for _, n := range []int{6, 1000} {
		dir, tf := trustedTree(b, map[string]string{"hooks.hcl": "hook \"a\" {\n  event = \"Stop\"\n  decision = \"allow\"\n}\n"})
		addRecords(b, tf, n-1)
		ix := NewIndex()
		ix.now = func() time.Time { return time.Now().Add(time.Hour) }
		b.Run(fmt.Sprintf("indexed/trusted=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := ix.Check(dir); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("read/trusted=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Check(dir); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// addRecords adds n records of other configurations to the trust file tf.
func addRecords(t testing.TB, tf string, n int) {
	t.Helper()
	st, err := ReadStore(tf)
	if err != nil {
		t.Fatal(err)
	}
	var rec *Record
	for _, r := range st.Configs {
		rec = r
	}
	for i := range n {
		st.Configs[fmt.Sprintf("/home/user/project-%d/.claude/hooks.hcl", i)] = rec
	}
	if err := WriteStore(tf, st); err != nil {
		t.Fatal(err)
	}
}

// TestIndexVerify: the verifier Verify returns is the checked record's:
// it accepts the pinned file as it is and refuses another.
func TestIndexVerify(t *testing.T) {
	dir, _ := trustedTree(t, map[string]string{"hooks.hcl": "hook \"a\" {\n  event = \"Stop\"\n  script = \"a.js\"\n}\n", "a.js": "module.exports = () => {};"})
	v, err := NewIndex().Verify(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Check(filepath.Join(dir, "a.js"), []byte("module.exports = () => {};")); err != nil {
		t.Fatal(err)
	}
	if err := v.Check(filepath.Join(dir, "a.js"), []byte("module.exports = () => ({decision: 'allow'});")); err == nil {
		t.Fatal("a changed file is accepted")
	}
	if err := v.Check(filepath.Join(dir, "b.js"), []byte("")); err == nil {
		t.Fatal("a file the record does not pin is accepted")
	}
}
