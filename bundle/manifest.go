package bundle

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"
)

// ManifestName and SignatureName are the names of the manifest and its
// signature: the first two entries of a bundle, and the two files of a
// signed directory.
const (
	ManifestName  = "hookctl-manifest.json"
	SignatureName = ManifestName + ".minisig"
	// filesPrefix is the directory of a bundle's file entries.
	filesPrefix = "files/"
)

// ManifestVersion is the version of the manifest format.
const ManifestVersion = 1

// Manifest lists a bundle's files.
type Manifest struct {
	Version int `json:"version"`
	// Created is when bundle build signed it (UTC, RFC 3339 with
	// nanoseconds); empty in bundles built before it was added. serve
	// --bundle refuses a bundle created before the one in force.
	Created string `json:"created,omitempty"`
	Files   []File `json:"files"`
}

// CreatedAt is the manifest's signed creation time; ok is false when it
// has none.
func (m *Manifest) CreatedAt() (t time.Time, ok bool) {
	t, err := time.Parse(time.RFC3339Nano, m.Created)
	return t, m.Created != "" && err == nil
}

// File is one file of a bundle.
type File struct {
	// Path is the file's path relative to the configuration directory,
	// with forward slashes.
	Path string `json:"path"`
	// Size is its length in bytes; SHA256 the hex SHA-256 of its content.
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	// Exec is set for a file with an executable bit (a program a command
	// handler runs).
	Exec bool `json:"exec,omitempty"`
}

// Lookup returns the file of the manifest at p.
func (m *Manifest) Lookup(p string) (File, bool) {
	i := sort.Search(len(m.Files), func(i int) bool { return m.Files[i].Path >= p })
	if i < len(m.Files) && m.Files[i].Path == p {
		return m.Files[i], true
	}
	return File{}, false
}

// marshal is the manifest's canonical encoding: the bytes signed.
func (m *Manifest) marshal() ([]byte, error) {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// parseManifest decodes and checks a manifest against lim: known fields
// only, valid and distinct paths (also when compared case-insensitively,
// since a case-insensitive file system would fold them into one), no file
// under another file's path, sizes and hashes well formed and within the
// limits. The files come out sorted by path.
func parseManifest(b []byte, lim Limits) (*Manifest, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("the manifest does not decode: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("the manifest has data after its object")
	}
	if m.Version != ManifestVersion {
		return nil, fmt.Errorf("manifest version %d, this hookctl reads version %d", m.Version, ManifestVersion)
	}
	if m.Created != "" {
		if _, err := time.Parse(time.RFC3339Nano, m.Created); err != nil {
			return nil, fmt.Errorf("the manifest's created time %q: %v", m.Created, err)
		}
	}
	if len(m.Files) > lim.MaxFiles {
		return nil, fmt.Errorf("the manifest lists %d files, more than the limit of %d", len(m.Files), lim.MaxFiles)
	}
	sort.Slice(m.Files, func(i, j int) bool { return m.Files[i].Path < m.Files[j].Path })
	folded := make(map[string]bool, len(m.Files))
	var total int64
	for _, f := range m.Files {
		if err := validPath(f.Path); err != nil {
			return nil, err
		}
		low := strings.ToLower(f.Path)
		if folded[low] {
			return nil, fmt.Errorf("the manifest lists %q twice (or twice but for case)", f.Path)
		}
		folded[low] = true
		if f.Size < 0 || f.Size > lim.MaxFile {
			return nil, fmt.Errorf("%s: size %d is past the limit of %d bytes per file", f.Path, f.Size, lim.MaxFile)
		}
		if total += f.Size; total > lim.MaxTotal {
			return nil, fmt.Errorf("the files add up to more than the limit of %d bytes", lim.MaxTotal)
		}
		if h, err := hex.DecodeString(f.SHA256); err != nil || len(h) != 32 || strings.ToLower(f.SHA256) != f.SHA256 {
			return nil, fmt.Errorf("%s: %q is not a hex SHA-256", f.Path, f.SHA256)
		}
	}
	// A file cannot also be a directory of another.
	for _, f := range m.Files {
		for d := path.Dir(f.Path); d != "."; d = path.Dir(d) {
			if folded[strings.ToLower(d)] {
				return nil, fmt.Errorf("%s is under %s, which is a file", f.Path, d)
			}
		}
	}
	return &m, nil
}

// validPath refuses a path that is not a plain relative path with
// forward slashes: absolute, empty, with "." or ".." elements, doubled or
// trailing slashes, backslashes, control characters, or one of the names
// a signed directory reserves.
func validPath(p string) error {
	switch {
	case p == "" || len(p) > 1024:
		return fmt.Errorf("path %q: empty or too long", p)
	case strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || (len(p) > 1 && p[1] == ':'):
		return fmt.Errorf("path %q: not a relative path with forward slashes", p)
	case path.Clean(p) != p:
		return fmt.Errorf("path %q: not in clean form", p)
	case p == ManifestName || p == SignatureName:
		return fmt.Errorf("path %q: a reserved name", p)
	}
	for _, el := range strings.Split(p, "/") {
		if el == "." || el == ".." || el == "" {
			return fmt.Errorf("path %q: has a %q element", p, el)
		}
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("path %q: has a control character", p)
		}
	}
	return nil
}
