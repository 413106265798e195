package bundle

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"aead.dev/minisign"
)

// testKey returns a fresh key pair.
func testKey(t testing.TB) (minisign.PublicKey, minisign.PrivateKey) {
	t.Helper()
	pub, priv, err := GenerateKey("")
	if err != nil {
		t.Fatal(err)
	}
	var pk minisign.PublicKey
	if err := ParsePublicKey(pub, &pk); err != nil {
		t.Fatal(err)
	}
	var sk minisign.PrivateKey
	if err := sk.UnmarshalText(priv); err != nil {
		t.Fatal(err)
	}
	return pk, sk
}

// policyDir writes a configuration with a script and a module.
func policyDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"hooks.hcl": `hook "guard" {
  event   = "PreToolUse"
  matcher = "Bash"
  script  = "guard.js"
}
`,
		"guard.js":    "const lib = require('./lib/deny.js');\nmodule.exports = lib;\n",
		"lib/deny.js": "module.exports = (ctx) => ({ decision: 'deny', reason: 'no' });\n",
		"notes.txt":   "not loaded\n",
	} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func build(t testing.TB, dir string, sk minisign.PrivateKey) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Build(context.Background(), dir, sk, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writeBundle(t testing.TB, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "p.bundle")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// entries is a bundle's entries, decompressed.
type entry struct {
	hdr  tar.Header
	data []byte
}

func entries(t testing.TB, b []byte) []entry {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var out []entry
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		d, _ := io.ReadAll(tr)
		out = append(out, entry{*h, d})
	}
}

func pack(t testing.TB, es []entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range es {
		h := e.hdr
		if h.Typeflag == tar.TypeReg {
			h.Size = int64(len(e.data))
		}
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		tw.Write(e.data)
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

func TestBuildVerifyOpen(t *testing.T) {
	pk, sk := testKey(t)
	p := writeBundle(t, build(t, policyDir(t), sk))
	m, err := Verify(p, []minisign.PublicKey{pk})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range m.Files {
		paths = append(paths, f.Path)
	}
	if got := strings.Join(paths, ","); got != "guard.js,hooks.hcl,lib/deny.js" {
		t.Fatalf("files %s", got)
	}
	if at, ok := m.CreatedAt(); !ok || at.Location() != time.UTC || time.Since(at) > time.Hour {
		t.Fatalf("created %q", m.Created)
	}
	cache := t.TempDir()
	o, err := OpenVerified(context.Background(), p, []minisign.PublicKey{pk}, cache)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(o.Dir, "lib", "deny.js")); err != nil || !strings.Contains(string(b), "deny") {
		t.Fatalf("%s %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(o.Dir, "notes.txt")); err == nil {
		t.Fatal("a file the configuration does not load was bundled")
	}
	if err := o.Check(filepath.Join(o.Dir, "guard.js"), mustRead(t, filepath.Join(o.Dir, "guard.js"))); err != nil {
		t.Fatal(err)
	}
	if err := o.Check(filepath.Join(o.Dir, "guard.js"), []byte("x")); err == nil {
		t.Fatal("changed content accepted")
	}
	if err := o.Check("/etc/passwd", nil); err == nil {
		t.Fatal("a file outside accepted")
	}
	// A changed file in the cache is noticed and the directory rebuilt.
	g := filepath.Join(o.Dir, "guard.js")
	os.Chmod(g, 0o644)
	os.WriteFile(g, []byte("module.exports = () => ({decision: 'allow'})"), 0o644)
	os.WriteFile(filepath.Join(o.Dir, "extra.js"), []byte("x"), 0o644)
	o2, err := OpenVerified(context.Background(), p, []minisign.PublicKey{pk}, cache)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkDir(o2.Dir, o2.Manifest); err != nil {
		t.Fatalf("a tampered cache directory was reused: %v", err)
	}
}

func mustRead(t testing.TB, p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestVerifyRefusesTampering(t *testing.T) {
	pk, sk := testKey(t)
	good := build(t, policyDir(t), sk)
	otherPK, _ := testKey(t)
	cases := map[string]func([]entry) []entry{
		"file byte": func(es []entry) []entry { es[3].data[0] ^= 1; return es },
		"manifest byte": func(es []entry) []entry {
			es[0].data = bytes.Replace(es[0].data, []byte("guard.js"), []byte("guard.jz"), 1)
			return es
		},
		"signature byte": func(es []entry) []entry {
			lines := bytes.Split(es[1].data, []byte("\n"))
			lines[1][10] ^= 1
			es[1].data = bytes.Join(lines, []byte("\n"))
			return es
		},
		"extra file": func(es []entry) []entry {
			return append(es, entry{tar.Header{Typeflag: tar.TypeReg, Name: "files/evil.js", Mode: 0o644}, []byte("x")})
		},
		"duplicate": func(es []entry) []entry { return append(es, es[3]) },
		"missing":   func(es []entry) []entry { return es[:len(es)-1] },
		"symlink": func(es []entry) []entry {
			return append(es[:len(es)-1], entry{tar.Header{Typeflag: tar.TypeSymlink, Name: es[len(es)-1].hdr.Name, Linkname: "/etc/passwd"}, nil})
		},
		"dotdot": func(es []entry) []entry {
			return append(es, entry{tar.Header{Typeflag: tar.TypeReg, Name: "files/../../evil", Mode: 0o644}, []byte("x")})
		},
		"manifest not first": func(es []entry) []entry { es[0], es[2] = es[2], es[0]; return es },
	}
	for name, mut := range cases {
		t.Run(name, func(t *testing.T) {
			p := writeBundle(t, pack(t, mut(entries(t, good))))
			_, err := Verify(p, []minisign.PublicKey{pk})
			var se *SignatureError
			var me *ManifestError
			if !errors.As(err, &se) && !errors.As(err, &me) {
				t.Fatalf("verified: %v", err)
			}
			if _, err := Open(context.Background(), p, []minisign.PublicKey{pk}, t.TempDir()); err == nil {
				t.Fatal("opened")
			}
			// Also when the good bundle of the same manifest was opened
			// into the cache before.
			cache := t.TempDir()
			if _, err := Open(context.Background(), writeBundle(t, good), []minisign.PublicKey{pk}, cache); err != nil {
				t.Fatal(err)
			}
			if _, err := Open(context.Background(), p, []minisign.PublicKey{pk}, cache); err == nil {
				t.Fatal("opened from the cache")
			}
		})
	}
	// Bytes after the gzip member: a second member, or plain bytes.
	var junk bytes.Buffer
	zw := gzip.NewWriter(&junk)
	zw.Write(bytes.Repeat([]byte("junk"), 10))
	zw.Close()
	for name, tail := range map[string][]byte{"second gzip member": junk.Bytes(), "appended bytes": []byte("x")} {
		t.Run(name, func(t *testing.T) {
			p := writeBundle(t, append(append([]byte(nil), good...), tail...))
			var me *ManifestError
			if _, err := Verify(p, []minisign.PublicKey{pk}); !errors.As(err, &me) {
				t.Fatalf("verified: %v", err)
			}
			cache := t.TempDir()
			if _, err := Open(context.Background(), writeBundle(t, good), []minisign.PublicKey{pk}, cache); err != nil {
				t.Fatal(err)
			}
			if _, err := Open(context.Background(), p, []minisign.PublicKey{pk}, cache); err == nil {
				t.Fatal("opened from the cache")
			}
		})
	}
	t.Run("other key", func(t *testing.T) {
		_, err := Verify(writeBundle(t, good), []minisign.PublicKey{otherPK})
		var se *SignatureError
		if !errors.As(err, &se) {
			t.Fatalf("want a SignatureError, got %v", err)
		}
	})
}

func TestVerifyStopsADecompressionBomb(t *testing.T) {
	pk, sk := testKey(t)
	lim := DefaultLimits()
	lim.MaxTotal, lim.MaxFile = 1<<20, 1<<20
	// A manifest that claims a small file; the entry is 8 MiB of zeros.
	raw, sig, err := sign([]content{{File: File{Path: "hooks.hcl", Size: 10, SHA256: strings.Repeat("0", 64)}}}, sk)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range []struct {
		n string
		d []byte
	}{{ManifestName, raw}, {SignatureName, sig}} {
		tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: e.n, Size: int64(len(e.d)), Mode: 0o644})
		tw.Write(e.d)
	}
	big := int64(8 << 20)
	tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: "files/hooks.hcl", Size: big, Mode: 0o644})
	io.CopyN(tw, zeros{}, big)
	tw.Close()
	zw.Close()
	rd := &reader{name: "bomb", keys: []minisign.PublicKey{pk}, lim: lim}
	read := int64(0)
	_, err = rd.read(bytes.NewReader(buf.Bytes()), func(f File, r io.Reader) error {
		n, err := io.Copy(io.Discard, r)
		read += n
		return err
	})
	if err == nil {
		t.Fatal("an 8 MiB entry verified")
	}
	if read > 10 {
		t.Fatalf("read %d bytes of an entry the manifest says is 10", read)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func TestManifestRefusesBadPaths(t *testing.T) {
	h := strings.Repeat("a", 64)
	for _, p := range []string{"/etc/passwd", "../x", "a/../b", "a//b", "./a", "a\\b", "C:x", "", ManifestName, "a\x00b"} {
		raw := []byte(`{"version":1,"files":[{"path":` + quote(p) + `,"size":1,"sha256":"` + h + `"}]}`)
		if _, err := parseManifest(raw, DefaultLimits()); err == nil {
			t.Errorf("path %q accepted", p)
		}
	}
	dup := []byte(`{"version":1,"files":[{"path":"A.js","size":1,"sha256":"` + h + `"},{"path":"a.js","size":1,"sha256":"` + h + `"}]}`)
	if _, err := parseManifest(dup, DefaultLimits()); err == nil {
		t.Error("case-folded duplicate accepted")
	}
	badTime := []byte(`{"version":1,"created":"yesterday","files":[{"path":"a","size":1,"sha256":"` + h + `"}]}`)
	if _, err := parseManifest(badTime, DefaultLimits()); err == nil {
		t.Error("a created time that does not parse accepted")
	}
	under := []byte(`{"version":1,"files":[{"path":"a","size":1,"sha256":"` + h + `"},{"path":"a/b","size":1,"sha256":"` + h + `"}]}`)
	if _, err := parseManifest(under, DefaultLimits()); err == nil {
		t.Error("a file under a file accepted")
	}
}

func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&15])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func TestSignedDir(t *testing.T) {
	pk, sk := testKey(t)
	dir := policyDir(t)
	if err := SignDir(context.Background(), dir, sk); err != nil {
		t.Fatal(err)
	}
	if err := VerifyDir(dir, []minisign.PublicKey{pk}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "more.hcl"), []byte(`hook "pre" "x" { js = "return {}" }`), 0o644)
	if err := VerifyDir(dir, []minisign.PublicKey{pk}); err == nil {
		t.Fatal("an added configuration file verified")
	}
	os.Remove(filepath.Join(dir, "more.hcl"))
	os.WriteFile(filepath.Join(dir, "guard.js"), []byte("changed"), 0o644)
	if err := VerifyDir(dir, []minisign.PublicKey{pk}); err == nil {
		t.Fatal("a changed script verified")
	}
}

func TestKeyFiles(t *testing.T) {
	dir := t.TempDir()
	pub, priv, err := GenerateKey("")
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "org")
	if err := WriteKeyPair(name, pub, priv); err != nil {
		t.Fatal(err)
	}
	if err := WriteKeyPair(name, pub, priv); err == nil {
		t.Fatal("overwrote a key")
	}
	if fi, _ := os.Stat(name + ".key"); fi.Mode().Perm() != 0o600 {
		t.Fatalf("key mode %v", fi.Mode())
	}
	sk, err := ReadPrivateKey(name+".key", nil)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := ReadPublicKey(name + ".pub")
	if err != nil || pk.ID() != sk.ID() {
		t.Fatalf("%v %x %x", err, pk.ID(), sk.ID())
	}
}

// TestEncryptedKey: minisign's scrypt takes about a GiB and seconds per
// key, so -short skips it.
func TestEncryptedKey(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("scrypt: a GiB of memory and seconds (minutes under -race)")
	}
	dir := t.TempDir()
	pub, priv, err := GenerateKey("secret")
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "org")
	if err := WriteKeyPair(name, pub, priv); err != nil {
		t.Fatal(err)
	}
	if err := WriteKeyPair(name, pub, priv); err == nil {
		t.Fatal("overwrote a key")
	}
	if fi, _ := os.Stat(name + ".key"); fi.Mode().Perm() != 0o600 {
		t.Fatalf("key mode %v", fi.Mode())
	}
	if _, err := ReadPrivateKey(name+".key", nil); err == nil {
		t.Fatal("an encrypted key read without a password")
	}
	sk, err := ReadPrivateKey(name+".key", func() (string, error) { return "secret", nil })
	if err != nil {
		t.Fatal(err)
	}
	pk, err := ReadPublicKey(name + ".pub")
	if err != nil || pk.ID() != sk.ID() {
		t.Fatalf("%v %x %x", err, pk.ID(), sk.ID())
	}
}
