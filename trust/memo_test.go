package trust

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/filestamp"
)

// trustedFile is a trusted one-file configuration (in a trust file in
// $HOOKCTL_TRUST_FILE).
func trustedFile(t testing.TB, src string) (file, tf string) {
	t.Helper()
	tf = filepath.Join(t.TempDir(), "trusted.json")
	t.Setenv(FileEnv, tf)
	d, err := Canonical(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	file = filepath.Join(d, "hooks.hcl")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Trust(tf, file); err != nil {
		t.Fatal(err)
	}
	return file, tf
}

// writeKeepingTimes writes src to file and sets its times back, as a
// same-size edit within one clock tick leaves them.
func writeKeepingTimes(t testing.TB, file, src string) {
	t.Helper()
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(file, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
}

const (
	allowSrc = "hook \"a\" {\n  event = \"Stop\"\n  decision = \"allow\"\n}\n"
	denySrc  = "hook \"a\" {\n  event = \"Stop\"\n  decision = \"deny!\"\n}\n" // same size
)

// TestMemoHostile: the memo answers only for the same record and the
// same bytes. A same-size edit with the times set back is refused on the
// next check through the index; the original bytes are trusted again; and
// once the edited content is trusted in its place (a new version of the
// trust file), the original bytes are refused although the memo once
// matched them.
func TestMemoHostile(t *testing.T) {
	file, tf := trustedFile(t, allowSrc)
	ix := NewIndex()
	ix.now = func() time.Time { return time.Now().Add(time.Hour) }
	for range 3 {
		if err := ix.Check(file); err != nil {
			t.Fatal(err)
		}
	}
	if len(ix.memo.entries) != 1 {
		t.Fatalf("memo holds %d entries after trusted checks, want 1", len(ix.memo.entries))
	}
	writeKeepingTimes(t, file, denySrc)
	wantChanged(t, ix.Check(file))
	writeKeepingTimes(t, file, allowSrc)
	if err := ix.Check(file); err != nil {
		t.Fatalf("the trusted bytes again: %v", err)
	}
	writeKeepingTimes(t, file, denySrc)
	if _, err := Trust(tf, file); err != nil {
		t.Fatal(err)
	}
	if err := ix.Check(file); err != nil {
		t.Fatalf("the newly trusted bytes: %v", err)
	}
	writeKeepingTimes(t, file, allowSrc)
	wantChanged(t, ix.Check(file))
}

// TestMemoSparesHashing: a check the memo answers allocates no read or
// hash buffer, and no pinned set: far less than a check that hashes.
func TestMemoSparesHashing(t *testing.T) {
	file, _ := trustedFile(t, strings.Repeat("# padding to a real configuration's size\n", 150)+allowSrc)
	ix := NewIndex()
	ix.now = func() time.Time { return time.Now().Add(time.Hour) }
	if err := ix.Check(file); err != nil {
		t.Fatal(err)
	}
	memoed := testing.AllocsPerRun(50, func() {
		if err := ix.Check(file); err != nil {
			t.Fatal(err)
		}
	})
	hashed := testing.AllocsPerRun(50, func() {
		if _, err := checkRecord(file, nil, ix.Store, nil); err != nil {
			t.Fatal(err)
		}
	})
	if memoed >= hashed-3 {
		t.Errorf("a check the memo answers makes %.0f allocations, one that hashes %.0f: the memo spares nothing", memoed, hashed)
	}
}

// TestMemoDifferential: over random steps (the configuration rewritten
// with one of a few contents of one size, its times set back or not;
// trusted as it is now; revoked; grown past what the memo keeps), a check
// through the index (memo and all) answers what a plain check answers,
// error code included.
func TestMemoDifferential(t *testing.T) {
	small := []string{allowSrc, denySrc, strings.Replace(allowSrc, "a", "b", 1)}
	big := strings.Repeat("#", memoFile+10) + "\n" + allowSrc
	file, tf := trustedFile(t, small[0])
	ix := NewIndex()
	ix.now = func() time.Time { return time.Now().Add(time.Hour) }
	rng := rand.New(rand.NewPCG(1, 2))
	code := func(err error) string {
		var ue *UntrustedError
		if errors.As(err, &ue) {
			return string(ue.Code())
		}
		if err != nil {
			return "error: " + err.Error()
		}
		return "trusted"
	}
	steps := 400
	if testing.Short() {
		steps = 100
	}
	seen := map[string]int{}
	for i := range steps {
		switch op := rng.IntN(10); {
		case op < 5:
			writeKeepingTimes(t, file, small[rng.IntN(len(small))])
		case op < 6:
			if err := os.WriteFile(file, []byte(small[rng.IntN(len(small))]), 0o644); err != nil {
				t.Fatal(err)
			}
		case op < 8:
			if _, err := Trust(tf, file); err != nil {
				t.Fatal(err)
			}
		case op < 9:
			Revoke(tf, file)
		default:
			writeKeepingTimes(t, file, big)
		}
		fast, plain := code(ix.Check(file)), code(Check(file))
		if fast != plain {
			t.Fatalf("step %d: through the index %s, plainly %s", i, fast, plain)
		}
		seen[plain]++
	}
	if seen["trusted"] == 0 || seen[string(hcl.CodeTrustChanged)] == 0 {
		t.Fatalf("the steps never reached both answers: %v", seen)
	}
}

// TestVerifierOpened: a one-file configuration's check hands out the
// stat of the file it read, the same stamp a stat of the path gives; a
// directory's hands out none.
func TestVerifierOpened(t *testing.T) {
	file, _ := trustedFile(t, allowSrc)
	ix := NewIndex()
	for range 2 { // hashed, then from the memo
		v, err := ix.Verify(file)
		if err != nil {
			t.Fatal(err)
		}
		p, fi := v.Opened()
		if p != file || fi == nil {
			t.Fatalf("Opened() = %q, %v; want %q and its stat", p, fi, file)
		}
		if !filestamp.OfInfo(p, fi).Equal(filestamp.Of(file)) {
			t.Errorf("the stamp of the opened file differs from the path's")
		}
	}
	dir, _ := trustedTree(t, map[string]string{"hooks.hcl": allowSrc})
	v, err := ix.Verify(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, fi := v.Opened(); fi != nil {
		t.Errorf("a directory's check hands out a file's stat")
	}
}
