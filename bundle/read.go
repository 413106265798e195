package bundle

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"

	"aead.dev/minisign"
)

// Limits bound what reading a bundle holds and writes.
type Limits struct {
	// MaxFile is the largest file, MaxTotal the largest sum of the files
	// (both decompressed), MaxFiles the most files.
	MaxFile, MaxTotal int64
	MaxFiles          int
	// MaxManifest is the largest manifest.
	MaxManifest int64
}

// DefaultLimits are the limits of Verify and Open: 16 MiB per file,
// 64 MiB in all, 10,000 files and a 4 MiB manifest.
func DefaultLimits() Limits {
	return Limits{MaxFile: 16 << 20, MaxTotal: 64 << 20, MaxFiles: 10000, MaxManifest: 4 << 20}
}

// maxSignature bounds the signature entry (a minisign signature is
// about 300 bytes plus its comments).
const maxSignature = 8 << 10

// stream is the budget of the decompressed stream: the manifest, the
// signature, the files and the tar headers (with room for long-name
// records) of them all, so that a decompression bomb stops there.
func (l Limits) stream() int64 {
	return l.MaxManifest + maxSignature + l.MaxTotal + int64(l.MaxFiles+3)*8192 + 1024
}

// errTooBig is the decompressed stream past its budget.
var errTooBig = errors.New("the bundle decompresses to more than its limits allow")

// budget is an io.Reader that fails once n bytes were read.
type budget struct {
	r io.Reader
	n int64
}

func (b *budget) Read(p []byte) (int, error) {
	if b.n <= 0 {
		return 0, errTooBig
	}
	if int64(len(p)) > b.n {
		p = p[:b.n]
	}
	n, err := b.r.Read(p)
	b.n -= int64(n)
	return n, err
}

// verified is a bundle's manifest, checked against a key.
type verified struct {
	manifest *Manifest
	raw      []byte // the manifest as signed
	keyID    uint64
}

// reader reads one bundle.
type reader struct {
	name string
	keys []minisign.PublicKey
	lim  Limits
	// src and zr are the compressed and decompressed streams of the
	// bundle head opened, for the check that nothing follows the archive.
	src *bufio.Reader
	zr  *gzip.Reader
}

func (rd *reader) manifestErr(entry, format string, args ...any) error {
	return &ManifestError{Path: rd.name, Entry: entry, Reason: fmt.Sprintf(format, args...)}
}

// head opens the archive and reads and verifies its first two entries,
// the manifest and its signature.
func (rd *reader) head(r io.Reader) (*tar.Reader, *verified, error) {
	// A bufio.Reader is an io.ByteReader, so gzip reads no byte past
	// its member and what follows it stays in src for end to see.
	rd.src = bufio.NewReader(r)
	zr, err := gzip.NewReader(rd.src)
	if err != nil {
		return nil, nil, rd.manifestErr("", "not a gzip-compressed bundle: %v", err)
	}
	zr.Multistream(false)
	rd.zr = zr
	tr := tar.NewReader(&budget{r: zr, n: rd.lim.stream()})
	raw, err := rd.entry(tr, ManifestName, rd.lim.MaxManifest)
	if err != nil {
		return nil, nil, err
	}
	sig, err := rd.entry(tr, SignatureName, maxSignature)
	if err != nil {
		return nil, nil, err
	}
	v, err := verifySignature(rd.name, raw, sig, rd.keys)
	if err != nil {
		return nil, nil, err
	}
	m, err := parseManifest(raw, rd.lim)
	if err != nil {
		return nil, nil, rd.manifestErr(ManifestName, "%v", err)
	}
	v.manifest = m
	return tr, v, nil
}

// verifySignature checks sig over the manifest raw with each key.
func verifySignature(name string, raw, sig []byte, keys []minisign.PublicKey) (*verified, error) {
	if len(keys) == 0 {
		return nil, &SignatureError{Path: name, Reason: "no trusted public key (hookctl trust --pub KEY.pub, or --bundle-pub)"}
	}
	var s minisign.Signature
	if err := s.UnmarshalText(sig); err != nil {
		return nil, &SignatureError{Path: name, Reason: "the signature does not decode: " + err.Error()}
	}
	for _, k := range keys {
		if minisign.Verify(k, raw, sig) {
			return &verified{raw: raw, keyID: k.ID()}, nil
		}
	}
	ids := make([]string, len(keys))
	for i, k := range keys {
		ids[i] = KeyID(k.ID())
	}
	return nil, &SignatureError{Path: name, Reason: fmt.Sprintf("signed by key %s, which does not verify it against the trusted key(s) %s: the bundle was changed or signed by another key", KeyID(s.KeyID), strings.Join(ids, ", "))}
}

// KeyID is the form a key's ID is shown in: 16 upper-case hex digits, as
// minisign prints it.
func KeyID(id uint64) string { return fmt.Sprintf("%016X", id) }

// entry reads the next entry, which must be a regular file named name of
// at most max bytes.
func (rd *reader) entry(tr *tar.Reader, name string, max int64) ([]byte, error) {
	hdr, err := tr.Next()
	if err != nil {
		return nil, rd.manifestErr("", "reading %s: %v", name, readErr(err))
	}
	if hdr.Name != name || hdr.Typeflag != tar.TypeReg {
		return nil, rd.manifestErr(hdr.Name, "want %s here, as a regular file", name)
	}
	if hdr.Size < 0 || hdr.Size > max {
		return nil, rd.manifestErr(name, "size %d is past the limit of %d bytes", hdr.Size, max)
	}
	b := make([]byte, hdr.Size)
	if _, err := io.ReadFull(tr, b); err != nil {
		return nil, rd.manifestErr(name, "%v", readErr(err))
	}
	return b, nil
}

func readErr(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// files reads the file entries after the head: each must be a regular
// file the manifest lists, once, with its size and hash; every file of
// the manifest must be there. emit (nil: none) gets each file's content
// as it is read; what it wrote must be discarded unless files returns
// nil, since a file's hash is checked only once it was read.
func (rd *reader) files(tr *tar.Reader, m *Manifest, emit func(File, io.Reader) error) error {
	seen := make(map[string]bool, len(m.Files))
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return rd.manifestErr("", "%v", err)
		}
		if hdr.Typeflag != tar.TypeReg {
			return rd.manifestErr(hdr.Name, "not a regular file (tar type %q): links, devices and directories are refused", hdr.Typeflag)
		}
		p, ok := strings.CutPrefix(hdr.Name, filesPrefix)
		if !ok {
			return rd.manifestErr(hdr.Name, "not under %s", filesPrefix)
		}
		f, ok := m.Lookup(p)
		if !ok {
			return rd.manifestErr(hdr.Name, "not in the manifest")
		}
		if seen[p] {
			return rd.manifestErr(hdr.Name, "appears twice")
		}
		seen[p] = true
		if hdr.Size != f.Size {
			return rd.manifestErr(hdr.Name, "%d bytes, the manifest says %d", hdr.Size, f.Size)
		}
		h := sha256.New()
		var r io.Reader = io.TeeReader(io.LimitReader(tr, f.Size), h)
		if emit != nil {
			if err := emit(f, r); err != nil {
				return err
			}
		}
		// What emit left unread.
		if _, err := io.Copy(io.Discard, r); err != nil {
			return rd.manifestErr(hdr.Name, "%v", readErr(err))
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != f.SHA256 {
			return rd.manifestErr(hdr.Name, "its SHA-256 is %s, the manifest says %s", got, f.SHA256)
		}
	}
	if len(seen) != len(m.Files) {
		for _, f := range m.Files {
			if !seen[f.Path] {
				return rd.manifestErr(filesPrefix+f.Path, "in the manifest but not in the bundle")
			}
		}
	}
	return rd.end()
}

// end checks that nothing follows the archive: after the tar's end only
// zero padding up to the end of the one gzip member (read through, so its
// checksum is checked), and no byte after that member (a second member or
// appended data), so one verified identity is one file.
func (rd *reader) end() error {
	rest := &budget{r: rd.zr, n: 1 << 20}
	buf := make([]byte, 32<<10)
	for {
		n, err := rest.Read(buf)
		for _, b := range buf[:n] {
			if b != 0 {
				return rd.manifestErr("", "data after the end of the archive")
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return rd.manifestErr("", "after the end of the archive: %v", readErr(err))
		}
	}
	if _, err := rd.src.ReadByte(); err != io.EOF {
		if err != nil {
			return rd.manifestErr("", "after the end of the compressed stream: %v", err)
		}
		return rd.manifestErr("", "data after the end of the compressed stream (a second gzip member or appended bytes)")
	}
	return nil
}

// read reads a whole bundle from r, verifying it (emit: see files).
func (rd *reader) read(r io.Reader, emit func(File, io.Reader) error) (*verified, error) {
	tr, v, err := rd.head(r)
	if err != nil {
		return nil, err
	}
	if err := rd.files(tr, v.manifest, emit); err != nil {
		if errors.Is(err, errTooBig) {
			return nil, rd.manifestErr("", "%v", errTooBig)
		}
		return nil, err
	}
	return v, nil
}
