package bundle

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aead.dev/minisign"
)

// FuzzRead feeds arbitrary bytes to the bundle reader and to Open: no
// panic, no hang, nothing written outside the cache directory, and
// anything that verifies holds exactly the manifest's files.
func FuzzRead(f *testing.F) {
	pk, sk := testKey(f)
	good := build(f, policyDir(f), sk)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte{0x1f, 0x8b})
	keys := []minisign.PublicKey{pk}
	f.Fuzz(func(t *testing.T, b []byte) {
		rd := &reader{name: "fuzz", keys: keys, lim: Limits{MaxFile: 1 << 16, MaxTotal: 1 << 18, MaxFiles: 64, MaxManifest: 1 << 16}}
		v, err := rd.read(bytes.NewReader(b), func(f File, r io.Reader) error {
			if validPath(f.Path) != nil {
				t.Fatalf("emitted a bad path %q", f.Path)
			}
			_, err := io.Copy(io.Discard, r)
			return err
		})
		if err == nil && v.manifest == nil {
			t.Fatal("no manifest")
		}
		root := t.TempDir()
		cache := filepath.Join(root, "cache")
		p := filepath.Join(root, "f.bundle")
		os.WriteFile(p, b, 0o644)
		o, err := OpenVerified(context.Background(), p, keys, cache)
		filepath.WalkDir(root, func(q string, d os.DirEntry, err error) error {
			if err == nil && q != root && q != p && !strings.HasPrefix(q, cache) {
				t.Fatalf("wrote %s outside the cache", q)
			}
			return nil
		})
		if err == nil {
			if cerr := checkDir(o.Dir, o.Manifest); cerr != nil {
				t.Fatal(cerr)
			}
		}
	})
}
