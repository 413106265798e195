package bundle

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"aead.dev/minisign"

	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/safefile"
	"github.com/hookctl/hookctl/trust"
)

// IsBundle reports whether path names a bundle: a regular file (a
// symbolic link to one too) whose name ends in ".bundle".
func IsBundle(path string) bool {
	if filepath.Ext(path) != ".bundle" {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// content is one file to bundle.
type content struct {
	File
	data []byte
}

// collect reads the files of the configuration directory dir that a
// bundle of it holds: those package trust pins for it (trust.Collect),
// present, each a regular file inside dir. A file outside dir, or a
// symbolic link, is an error: a bundle is self-contained.
func collect(ctx context.Context, dir string, lim Limits) ([]content, error) {
	root, err := trust.Canonical(dir)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(root); err != nil {
		return nil, err
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory: a bundle is built from a configuration directory", dir)
	}
	if hcls, err := hcl.ConfigFiles(root); err != nil {
		return nil, err
	} else if len(hcls) == 0 {
		return nil, fmt.Errorf("%s has no *.hcl file", dir)
	}
	pins, err := trust.Collect(root)
	if err != nil {
		return nil, err
	}
	// The configuration's tests (hookctl test) travel with it.
	tests, err := hcl.TestFiles(root)
	if err != nil {
		return nil, err
	}
	files := append(slices.Clone(pins.Files), tests...)
	slices.Sort(files)
	files = slices.Compact(files)
	var out []content
	var total int64
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(root, f)
		if err != nil || !filepath.IsLocal(rel) {
			return nil, fmt.Errorf("%s, which the configuration loads, is outside %s: a bundle holds only its directory's files", f, dir)
		}
		fi, err := os.Lstat(f)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			continue // pinned as absent: absent from the bundle too
		}
		if err != nil {
			return nil, err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s is a symbolic link: copy the file it names into the configuration directory", f)
		}
		if !fi.Mode().IsRegular() {
			continue // not a file the configuration can load
		}
		data, err := safefile.ReadRegular(f)
		if err != nil {
			return nil, err
		}
		p := filepath.ToSlash(rel)
		if p == ManifestName || p == SignatureName {
			continue // a signed directory's own
		}
		if err := validPath(p); err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		if int64(len(data)) > lim.MaxFile {
			return nil, fmt.Errorf("%s: %d bytes, past the limit of %d per file", f, len(data), lim.MaxFile)
		}
		if total += int64(len(data)); total > lim.MaxTotal {
			return nil, fmt.Errorf("the files add up to more than the limit of %d bytes", lim.MaxTotal)
		}
		out = append(out, content{File: File{Path: p, Size: int64(len(data)), SHA256: trust.ContentHash(data), Exec: fi.Mode()&0o111 != 0}, data: data})
	}
	if len(out) > lim.MaxFiles {
		return nil, fmt.Errorf("%d files, more than the limit of %d", len(out), lim.MaxFiles)
	}
	return out, nil
}

// sign returns the manifest of files, encoded, and its signature.
func sign(files []content, key minisign.PrivateKey) (raw, sig []byte, err error) {
	m := &Manifest{Version: ManifestVersion, Created: time.Now().UTC().Format(time.RFC3339Nano), Files: make([]File, len(files))}
	for i, f := range files {
		m.Files[i] = f.File
	}
	if raw, err = m.marshal(); err != nil {
		return nil, nil, err
	}
	if _, err := parseManifest(raw, DefaultLimits()); err != nil {
		return nil, nil, err
	}
	return raw, minisign.SignWithComments(key, raw, "hookctl bundle manifest", "signature from hookctl bundle key "+KeyID(key.ID())), nil
}

// Build writes the bundle of the configuration directory dir, signed
// with key, to w: its manifest, the signature and the files the
// configuration loads (see collect). It runs none of the configuration.
func Build(ctx context.Context, dir string, key minisign.PrivateKey, w io.Writer) error {
	files, err := collect(ctx, dir, DefaultLimits())
	if err != nil {
		return err
	}
	raw, sig, err := sign(files, key)
	if err != nil {
		return err
	}
	zw := gzip.NewWriter(w)
	tw := tar.NewWriter(zw)
	put := func(name string, mode int64, data []byte) error {
		// Fixed owner and time: the same configuration and key make the
		// same bundle.
		hdr := &tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: mode, Size: int64(len(data)), ModTime: time.Unix(0, 0), Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		_, err := tw.Write(data)
		return err
	}
	if err := put(ManifestName, 0o644, raw); err != nil {
		return err
	}
	if err := put(SignatureName, 0o644, sig); err != nil {
		return err
	}
	for _, f := range files {
		mode := int64(0o644)
		if f.Exec {
			mode = 0o755
		}
		if err := put(filesPrefix+f.Path, mode, f.data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}

// SignDir writes the manifest of the configuration directory dir (the
// files a bundle of it would hold) and its signature with key into dir,
// as ManifestName and SignatureName: a signed directory (VerifyDir).
func SignDir(ctx context.Context, dir string, key minisign.PrivateKey) error {
	files, err := collect(ctx, dir, DefaultLimits())
	if err != nil {
		return err
	}
	raw, sig, err := sign(files, key)
	if err != nil {
		return err
	}
	if err := safefile.WriteFile(filepath.Join(dir, ManifestName), raw, 0o644); err != nil {
		return err
	}
	return safefile.WriteFile(filepath.Join(dir, SignatureName), sig, 0o644)
}
