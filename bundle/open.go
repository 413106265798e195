package bundle

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"aead.dev/minisign"

	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/safefile"
	"github.com/hookctl/hookctl/trust"
)

// maxBundle bounds the size of a bundle file (compressed).
const maxBundle = 128 << 20

// Verify reads the bundle at path and verifies it against keys: its
// manifest's signature by one of them, then every file against the
// manifest (see the package comment). It writes nothing. The error is a
// *SignatureError or a *ManifestError (or the file's own).
func Verify(path string, keys []minisign.PublicKey) (*Manifest, error) {
	v, err := verifyFile(path, keys, nil)
	if err != nil {
		return nil, err
	}
	return v.manifest, nil
}

// verifyFile reads and verifies the bundle file at path (emit: see
// reader.files).
func verifyFile(path string, keys []minisign.PublicKey, emit func(File, io.Reader) error) (*verified, error) {
	f, err := openBundle(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rd := &reader{name: path, keys: keys, lim: DefaultLimits()}
	return rd.read(f, emit)
}

// openBundle opens a bundle file for reading: a regular file within
// maxBundle bytes.
func openBundle(path string) (*os.File, error) {
	f, err := safefile.Open(path)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil {
		f.Close()
		return nil, err
	} else if fi.Size() > maxBundle {
		f.Close()
		return nil, &ManifestError{Path: path, Reason: fmt.Sprintf("%d bytes, past the limit of %d", fi.Size(), maxBundle)}
	}
	return f, nil
}

// Opened is a verified bundle's files in a directory (OpenVerified).
type Opened struct {
	// Dir holds exactly the manifest's files; Manifest lists them.
	Dir      string
	Manifest *Manifest
	// KeyID is the ID of the key that verified the manifest.
	KeyID uint64
}

// Open is OpenVerified returning the directory only.
func Open(ctx context.Context, path string, keys []minisign.PublicKey, cacheDir string) (string, error) {
	o, err := OpenVerified(ctx, path, keys, cacheDir)
	if err != nil {
		return "", err
	}
	return o.Dir, nil
}

// OpenVerified verifies the bundle at path against keys, then returns a
// directory holding exactly its manifest's files, for assemble.Load. The
// directory is cacheDir/<SHA-256 of the manifest>: files are written
// read-only, only inside a new directory under cacheDir, and renamed
// into place once the whole bundle verified; a directory already there
// (an earlier Open of the same manifest) is used only if its files are
// still exactly the manifest's (else it is replaced), and only once the
// whole bundle verified again. Load it with
// Opened.Check as the file check (assemble.WithFileCheck), so that every
// file the configuration loads is one the manifest signs.
func OpenVerified(ctx context.Context, path string, keys []minisign.PublicKey, cacheDir string) (*Opened, error) {
	f, err := openBundle(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rd := &reader{name: path, keys: keys, lim: DefaultLimits()}
	tr, v, err := rd.head(f)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cacheDir, 0o700); err != nil {
		return nil, err
	}
	if cacheDir, err = trust.Canonical(cacheDir); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(v.raw)
	target := filepath.Join(cacheDir, hex.EncodeToString(sum[:16]))
	o := &Opened{Dir: target, Manifest: v.manifest, KeyID: v.keyID}
	if checkDir(target, v.manifest) == nil {
		// The files there are the signed ones; the bundle is still read
		// through, so that a tampered bundle is refused even then.
		if err := rd.files(tr, v.manifest, nil); err != nil {
			return nil, err
		}
		return o, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(cacheDir, ".open-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	if _, err := rd.read(f, func(fl File, r io.Reader) error { return extract(tmp, fl, r) }); err != nil {
		return nil, err
	}
	if _, err := os.Lstat(target); err == nil {
		// Not as the manifest says: moved aside, then removed.
		old := tmp + ".old"
		if err := os.Rename(target, old); err != nil {
			return nil, err
		}
		defer os.RemoveAll(old)
	}
	if err := os.Rename(tmp, target); err != nil {
		// Another process opened the same bundle at the same moment.
		if checkDir(target, v.manifest) == nil {
			return o, nil
		}
		return nil, err
	}
	return o, nil
}

// extract writes one file of a bundle under dir (a directory this
// process made): a new file, read-only, at a path the manifest checked.
func extract(dir string, f File, r io.Reader) error {
	dst := filepath.Join(dir, filepath.FromSlash(f.Path))
	if rel, err := filepath.Rel(dir, dst); err != nil || !filepath.IsLocal(rel) {
		return fmt.Errorf("%s: outside the directory", f.Path)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	mode := fs.FileMode(0o444)
	if f.Exec {
		mode = 0o555
	}
	out, err := safefile.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, r); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// checkDir checks that dir holds exactly the manifest's files, as it
// says: regular files with its hashes, and no other file.
func checkDir(dir string, m *Manifest) error {
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		f, ok := m.Lookup(filepath.ToSlash(rel))
		if !ok || !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a file of the manifest", p)
		}
		if err := checkFile(p, f); err != nil {
			return err
		}
		n++
		return nil
	})
	if err != nil {
		return err
	}
	if n != len(m.Files) {
		return errors.New("files of the manifest are missing")
	}
	return nil
}

// checkFile checks the file at p against f.
func checkFile(p string, f File) error {
	b, err := safefile.ReadRegular(p)
	if err != nil {
		return err
	}
	if int64(len(b)) != f.Size || trust.ContentHash(b) != f.SHA256 {
		return fmt.Errorf("%s is not as the manifest says", p)
	}
	return nil
}

// FileError is a file a bundle's configuration tried to load that its
// signed manifest does not list with that content.
type FileError struct {
	File, Reason string
}

func (e *FileError) Error() string {
	return fmt.Sprintf("%s: %s; a signed configuration loads only the files its manifest signs", e.File, e.Reason)
}

// Check accepts file (a real path) with content only if it is inside
// the directory and the manifest lists it with that content: the file
// check of a configuration loaded from an opened bundle or a signed
// directory.
func (o *Opened) Check(file string, content []byte) error {
	rel, err := filepath.Rel(o.Dir, filepath.Clean(file))
	if err != nil || !filepath.IsLocal(rel) {
		return &FileError{File: file, Reason: "outside the signed configuration's directory"}
	}
	f, ok := o.Manifest.Lookup(filepath.ToSlash(rel))
	if !ok {
		return &FileError{File: file, Reason: "not in the signed manifest"}
	}
	if trust.ContentHash(content) != f.SHA256 {
		return &FileError{File: file, Reason: "changed since it was signed"}
	}
	return nil
}

// VerifyDir verifies the signed directory dir against keys (OpenDir,
// for the answer only).
func VerifyDir(dir string, keys []minisign.PublicKey) error {
	_, err := OpenDir(dir, keys)
	return err
}

// OpenDir verifies the signed directory dir against keys: its
// manifest's signature (SignatureName) by one of them, every file the
// manifest lists as it says, and every *.hcl file of the directory
// listed (a configuration file added later would be loaded). It returns
// the directory as opened, whose Check is the file check of its loads.
func OpenDir(dir string, keys []minisign.PublicKey) (*Opened, error) {
	real, err := trust.Canonical(dir)
	if err != nil {
		return nil, err
	}
	raw, err := readSmall(filepath.Join(real, ManifestName), DefaultLimits().MaxManifest)
	if err != nil {
		return nil, &SignatureError{Path: dir, Reason: "no manifest: " + err.Error()}
	}
	sig, err := readSmall(filepath.Join(real, SignatureName), maxSignature)
	if err != nil {
		return nil, &SignatureError{Path: dir, Reason: "no signature: " + err.Error()}
	}
	v, err := verifySignature(dir, raw, sig, keys)
	if err != nil {
		return nil, err
	}
	m, err := parseManifest(raw, DefaultLimits())
	if err != nil {
		return nil, &ManifestError{Path: dir, Entry: ManifestName, Reason: err.Error()}
	}
	for _, f := range m.Files {
		if err := checkFile(filepath.Join(real, filepath.FromSlash(f.Path)), f); err != nil {
			return nil, &ManifestError{Path: dir, Entry: f.Path, Reason: err.Error()}
		}
	}
	hcls, err := hcl.ConfigFiles(real)
	if err != nil {
		return nil, err
	}
	for _, h := range hcls {
		if _, ok := m.Lookup(filepath.Base(h)); !ok {
			return nil, &ManifestError{Path: dir, Entry: filepath.Base(h), Reason: "a configuration file the manifest does not list"}
		}
	}
	return &Opened{Dir: real, Manifest: m, KeyID: v.keyID}, nil
}

// IsSignedDir reports whether dir is a directory carrying a manifest
// signature (SignatureName).
func IsSignedDir(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, SignatureName))
	return err == nil && fi.Mode().IsRegular()
}

func readSmall(p string, max int64) ([]byte, error) {
	return safefile.ReadFile(context.Background(), p, max)
}
