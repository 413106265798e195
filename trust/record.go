package trust

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/dirs"
	"github.com/hookctl/hookctl/internal/safefile"
	"github.com/hookctl/hookctl/internal/shquote"
)

// AllowUntrustedEnv lets a configuration run without trust (for
// `hookctl claude`, which Claude Code starts from settings.json).
const AllowUntrustedEnv = "HOOKCTL_ALLOW_UNTRUSTED"

// FileEnv names the trust file instead of the default.
const FileEnv = "HOOKCTL_TRUST_FILE"

// Version is the version of the trust file format.
const Version = 1

// Store is the trust file.
type Store struct {
	Version int `json:"version"`
	// Configs maps a configuration's canonical absolute path (a file or
	// a directory) to its record.
	Configs map[string]*Record `json:"configs"`
	// Keys are the public keys whose signed bundles and directories are
	// trusted (TrustKey).
	Keys []*KeyRecord `json:"keys,omitempty"`
}

// Record is one trusted configuration.
type Record struct {
	// SHA256 is the digest of Files (see digest).
	SHA256    string    `json:"sha256"`
	TrustedAt time.Time `json:"trusted_at"`
	// Walk pins every file under the configuration directory (the
	// configuration names files by computed names).
	Walk bool `json:"walk,omitempty"`
	// Files maps each pinned file (relative to the configuration
	// directory, or absolute outside it) to the hex SHA-256 of its
	// content, or "absent" for a file that must not appear.
	Files map[string]string `json:"files"`
}

// present counts the pinned files that exist.
func (r *Record) Present() int {
	n := 0
	for _, h := range r.Files {
		if h != Absent {
			n++
		}
	}
	return n
}

// Option sets the environment a trust call reads.
type Option func(*options)

type options struct{ getenv func(string) string }

// WithGetenv makes the call read HOOKCTL_ALLOW_UNTRUSTED,
// HOOKCTL_TRUST_FILE and the variables that locate the user's
// configuration directory (XDG_CONFIG_HOME, HOME, AppData) with getenv
// instead of the process's environment: the environment of the request
// being answered.
func WithGetenv(getenv func(string) string) Option {
	return func(o *options) { o.getenv = getenv }
}

func optionsOf(opts []Option) options {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// AllowUntrusted reports whether --allow-untrusted or
// HOOKCTL_ALLOW_UNTRUSTED (1, true, yes) lets an untrusted configuration run.
func AllowUntrusted(flag bool, opts ...Option) bool {
	if flag {
		return true
	}
	getenv := os.Getenv
	if o := optionsOf(opts); o.getenv != nil {
		getenv = o.getenv
	}
	v := strings.TrimSpace(getenv(AllowUntrustedEnv))
	if b, err := strconv.ParseBool(v); err == nil {
		return b
	}
	return strings.EqualFold(v, "yes") || strings.EqualFold(v, "on")
}

// File is the trust file: $HOOKCTL_TRUST_FILE, else trusted.json in the
// user's hookctl configuration directory (internal/dirs.Config:
// $XDG_CONFIG_HOME/hookctl where set, else ~/.config/hookctl on Linux,
// ~/Library/Application Support/hookctl on macOS).
func File(opts ...Option) (string, error) {
	o := optionsOf(opts)
	getenv := os.Getenv
	if o.getenv != nil {
		getenv = o.getenv
	}
	if p := getenv(FileEnv); p != "" {
		return filepath.Abs(p)
	}
	dir, err := dirs.Config(getenv)
	if err != nil {
		return "", fmt.Errorf("no trust file: set $%s or $HOME: %w", FileEnv, err)
	}
	return filepath.Join(dir, "trusted.json"), nil
}

// ReadStore reads the trust file; a missing one is empty. A trust
// file other users can write is refused: they could trust for you.
func ReadStore(path string) (*Store, error) {
	st := &Store{Version: Version, Configs: map[string]*Record{}}
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, fmt.Errorf("trust file: %w", err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o022 != 0 {
		return nil, fmt.Errorf("trust file %s is writable by other users (mode %04o); run chmod 600 %s", path, fi.Mode().Perm(), shquote.Quote(path))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("trust file: %w", err)
	}
	if err := json.Unmarshal(b, st); err != nil {
		return nil, fmt.Errorf("trust file %s: %w", path, err)
	}
	if st.Version != Version {
		return nil, fmt.Errorf("trust file %s: version %d, this hookctl reads version %d", path, st.Version, Version)
	}
	if st.Configs == nil {
		st.Configs = map[string]*Record{}
	}
	return st, nil
}

// WriteStore replaces the trust file atomically (a temporary file in
// the same directory, renamed over it), readable by its owner only.
func WriteStore(path string, st *Store) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".trusted-*.json")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename there is nothing to remove
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// UntrustedError is a configuration that may not run: never trusted, or
// changed since.
type UntrustedError struct {
	// Path is the configuration's canonical path.
	Path string
	// Changed lists what changed ("a.js modified"); nil when it was never
	// trusted.
	Changed []string
	// Err is why the check itself failed (nil when it ran).
	Err error
}

// Code is the error's stable diagnostic code: hcl.CodeUntrusted,
// hcl.CodeTrustChanged or hcl.CodeTrustUnchecked.
func (e *UntrustedError) Code() hcl.Code {
	switch {
	case e.Err != nil:
		return hcl.CodeTrustUnchecked
	case e.Changed != nil:
		return hcl.CodeTrustChanged
	}
	return hcl.CodeUntrusted
}

func (e *UntrustedError) Error() string {
	how := fmt.Sprintf("review it, then run `hookctl trust --config %s`", shquote.Quote(e.Path))
	switch {
	case e.Err != nil:
		return fmt.Sprintf("configuration %s cannot be checked for trust: %v", e.Path, e.Err)
	case e.Changed != nil:
		return fmt.Sprintf("configuration %s changed since it was trusted (%s); %s", e.Path, Summarize(e.Changed, 3), how)
	}
	return fmt.Sprintf("configuration %s is not trusted (%s)", e.Path, how)
}

func (e *UntrustedError) Unwrap() error { return e.Err }

// summarize joins the first n items and counts the rest.
func Summarize(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}

// Current hashes now what rec pins for the configuration at the
// canonical path key: its pinned files, its *.hcl files as they are now
// (an added one is a change) and, for a walk record, every file under
// its directory.
func Current(key string, rec *Record) (map[string]string, error) {
	_, cur, err := current(key, rec, nil)
	return cur, err
}

// current is Current that also returns the configuration's directory
// (configRoot), from the same look at the path. pre, when not nil, is the
// configuration at key already opened (resolve): it is read through its
// descriptor instead of by name.
func current(key string, rec *Record, pre *opened) (root string, _ map[string]string, _ error) {
	var hcls []string
	var err error
	switch {
	case pre == nil:
		root, hcls, err = layout(key)
	case pre.fi.IsDir():
		root = key
		hcls, err = hcl.ConfigFiles(key)
	default:
		root, hcls = filepath.Dir(key), []string{key}
	}
	if err != nil {
		return root, nil, err
	}
	files := make([]string, 0, len(rec.Files)+len(hcls))
	for k := range rec.Files {
		files = append(files, pinPath(root, k))
	}
	files = append(files, hcls...)
	if rec.Walk {
		all, err := walkFiles(root)
		if err != nil {
			return root, nil, err
		}
		files = append(files, all...)
	}
	hash := hashFile
	if pre != nil && !pre.fi.IsDir() {
		hash = func(p string) (string, error) {
			if p == key {
				return pre.hash()
			}
			return hashFile(p)
		}
	}
	cur, err := hashSet(root, files, hash)
	return root, cur, err
}

// opened is a configuration file or directory opened by resolve.
type opened struct {
	f  io.ReadCloser
	fi fs.FileInfo
	h  string // its content's hash, once read
}

// hash is hashFile of the opened file, read once.
func (o *opened) hash() (string, error) {
	if o.h == "" {
		h, err := hashReader(o.f)
		if err != nil {
			return "", err
		}
		o.h = h
	}
	return o.h, nil
}

// resolve is Canonical(path), and the configuration opened when that
// took one system call: a path with no symbolic link on the way
// (safefile.OpenNoLinks) is its own canonical form, and its file is then
// read through that descriptor. Any other path is resolved link by link
// (filepath.EvalSymlinks), as Canonical does, and pre is nil. The key is
// the same either way (TestResolveIsCanonical); only the number of
// system calls differs, which a daemon call pays on every call.
func resolve(path string) (key string, pre *opened, err error) {
	// Only a path that is already absolute and clean as written: one
	// with "..", ".", or doubled separators is resolved link by link,
	// since cleaning it first would drop a link before a "..".
	if abs, err := Absolute(path); err == nil {
		if f, fi, err := safefile.OpenNoLinks(abs); err == nil {
			return abs, &opened{f: f, fi: fi}, nil
		}
	}
	key, err = Canonical(path)
	return key, nil, err
}

// Diff lists what changed from old to cur: "a.js modified", ...
func Diff(old, cur map[string]string) []string {
	keys := make([]string, 0, len(cur))
	for k := range cur {
		keys = append(keys, k)
	}
	for k := range old {
		if _, ok := cur[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []string
	for _, k := range keys {
		o, inOld := old[k]
		c, inCur := cur[k]
		if !inOld {
			o = Absent
		}
		if !inCur {
			c = Absent
		}
		switch {
		case o == c:
		case o == Absent:
			out = append(out, k+" added")
		case c == Absent:
			out = append(out, k+" removed")
		default:
			out = append(out, k+" modified")
		}
	}
	return out
}

// Check returns nil when the configuration at path is trusted and
// unchanged, else an *UntrustedError saying why. The trust file is File's
// in the process's environment (see Checker for another).
func Check(path string) error { return check(path, nil) }

// Checker returns Check reading the trust file File(opts...) names: the
// check of a request whose environment opts give.
func Checker(opts ...Option) func(path string) error {
	return func(path string) error { return check(path, opts) }
}

func check(path string, opts []Option) error { return checkIn(path, opts, ReadStore) }

// checkIn is check with the trust file read by read.
func checkIn(path string, opts []Option, read func(string) (*Store, error)) error {
	_, err := checkRecord(path, opts, read, nil)
	return err
}

// checkRecord is checkIn that returns the verifier of the record the
// configuration was checked against.
//
// With a memo (the daemon's Index), a configuration that is one file
// pinning only itself is checked by the memo (see memo): the same answer,
// without hashing content that matched the same record before.
func checkRecord(path string, opts []Option, read func(string) (*Store, error), m *memo) (*Verifier, error) {
	key, pre, err := resolve(path)
	if err != nil {
		return nil, &UntrustedError{Path: path, Err: err}
	}
	if pre != nil {
		defer pre.f.Close()
	}
	tf, err := File(opts...)
	if err != nil {
		return nil, &UntrustedError{Path: key, Err: err}
	}
	st, err := read(tf)
	if err != nil {
		return nil, &UntrustedError{Path: key, Err: err}
	}
	rec := st.Configs[key]
	if rec == nil {
		return nil, &UntrustedError{Path: key}
	}
	if m != nil && pre != nil && !pre.fi.IsDir() && single(filepath.Dir(key), key, rec) {
		trusted, hash, err := m.check(filepath.Dir(key), key, rec, pre.f)
		if err != nil {
			return nil, &UntrustedError{Path: key, Err: err}
		}
		if trusted {
			return &Verifier{key: key, root: filepath.Dir(key), files: rec.Files, fi: pre.fi}, nil
		}
		pre.h = hash
	}
	root, cur, err := current(key, rec, pre)
	if err != nil {
		return nil, &UntrustedError{Path: key, Err: err}
	}
	if Digest(cur) == rec.SHA256 {
		v := &Verifier{key: key, root: root, files: rec.Files}
		if pre != nil && !pre.fi.IsDir() {
			v.fi = pre.fi
		}
		return v, nil
	}
	changed := Diff(rec.Files, cur)
	if len(changed) == 0 {
		changed = []string{"its trust record does not match"}
	}
	return nil, &UntrustedError{Path: key, Changed: changed}
}

// WatchFiles lists the files a trust check of path reads: the trust
// file and the files the configuration's record pins, so that hookctl
// serve retries a refused reload once the configuration is trusted.
func WatchFiles(path string, opts ...Option) func() []string {
	return func() []string {
		tf, err := File(opts...)
		if err != nil {
			return nil
		}
		files := []string{tf}
		key, err := Canonical(path)
		if err != nil {
			return files
		}
		st, err := ReadStore(tf)
		if err != nil || st.Configs[key] == nil {
			return files
		}
		root := configRoot(key)
		for k := range st.Configs[key].Files {
			files = append(files, pinPath(root, k))
		}
		return files
	}
}

func ShortHash(h string) string {
	if len(h) > 12 {
		h = h[:12]
	}
	return "sha256:" + h
}

// openRecord returns the key of the configuration at path and the
// records of the trust file tf.
func openRecord(tf, path string) (string, *Store, error) {
	key, err := Canonical(path)
	if err != nil {
		return "", nil, err
	}
	st, err := ReadStore(tf)
	if err != nil {
		return "", nil, err
	}
	return key, st, nil
}

// Trusted is what Trust recorded.
type Trusted struct {
	// Key is the configuration's canonical path, the record's key.
	Key string
	// Record is the new record; Previous the one it replaced (nil if
	// none).
	Record, Previous *Record
	// Pins is what was pinned.
	Pins *Pins
}

// Trust pins the configuration at path and records it in the trust file
// tf. It decodes the configuration but runs none of it. A configuration
// whose files do not parse is refused (*hcl.Diagnostics).
func Trust(tf, path string) (*Trusted, error) {
	key, st, err := openRecord(tf, path)
	if err != nil {
		return nil, err
	}
	pins, err := Collect(key)
	if err != nil {
		return nil, err
	}
	files, err := HashSet(pins.Root, pins.Files)
	if err != nil {
		return nil, err
	}
	rec := &Record{SHA256: Digest(files), TrustedAt: time.Now().UTC().Truncate(time.Second), Walk: pins.Walk, Files: files}
	old := st.Configs[key]
	st.Configs[key] = rec
	if err := WriteStore(tf, st); err != nil {
		return nil, fmt.Errorf("trust file: %w", err)
	}
	return &Trusted{Key: key, Record: rec, Previous: old, Pins: pins}, nil
}

// Revoke forgets the trust of the configuration at path; it returns the
// record's key.
func Revoke(tf, path string) (string, error) {
	key, st, err := openRecord(tf, path)
	if err != nil {
		return "", err
	}
	if st.Configs[key] == nil {
		return key, fmt.Errorf("%s is not trusted", key)
	}
	delete(st.Configs, key)
	if err := WriteStore(tf, st); err != nil {
		return key, fmt.Errorf("trust file: %w", err)
	}
	return key, nil
}

// Listed is one trusted configuration and its state now.
type Listed struct {
	Key    string
	Record *Record
	// State is "trusted", "missing", "changed: ..." or "unreadable: ...".
	State string
}

// List returns the records of the trust file tf, by key, each with its
// state now.
func List(tf string) ([]Listed, error) {
	st, err := ReadStore(tf)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(st.Configs))
	for k := range st.Configs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]Listed, 0, len(keys))
	for _, k := range keys {
		rec := st.Configs[k]
		state := "trusted"
		if _, err := os.Stat(k); err != nil {
			state = "missing"
		} else if cur, err := Current(k, rec); err != nil {
			state = "unreadable: " + err.Error()
		} else if Digest(cur) != rec.SHA256 {
			state = "changed: " + Summarize(Diff(rec.Files, cur), 3)
		}
		out = append(out, Listed{Key: k, Record: rec, State: state})
	}
	return out, nil
}

// Verifier checks the files a trusted configuration loads against its
// trust record, as they are loaded: a file the record does not pin, or
// whose content changed, is refused. It is what makes trust hold for files
// no scan could foresee (a require() reached by a computed name, through
// a symbolic link, or spelled with escapes). A Verifier is immutable and
// safe for concurrent use.
type Verifier struct {
	key   string
	root  string
	files map[string]string
	// fi is the configuration file's stat as it was checked, when the
	// check opened it (Opened).
	fi fs.FileInfo
}

// Opened returns the configuration file the check read, as its fstat(2)
// said when it was opened, so that a caller that stamps the file (an
// engine cache) need not stat it again; fi is nil when the check did not
// open one file (a directory, a path with a link on the way).
func (v *Verifier) Opened() (path string, fi fs.FileInfo) {
	if v.fi == nil {
		return "", nil
	}
	return v.key, v.fi
}

// UntrustedFileError is a file a trusted configuration tried to load that
// its trust record does not pin as it is.
type UntrustedFileError struct {
	Config, File string
	// Changed is set when the record pins the file with other content.
	Changed bool
}

// Code is the error's stable diagnostic code, hcl.CodeUntrustedFile.
func (e *UntrustedFileError) Code() hcl.Code { return hcl.CodeUntrustedFile }

func (e *UntrustedFileError) Error() string {
	what := "is not pinned by its trust record"
	if e.Changed {
		what = "changed since it was trusted"
	}
	return fmt.Sprintf("%s, loaded by configuration %s, %s; review it, then run `hookctl trust --config %s`", e.File, e.Config, what, shquote.Quote(e.Config))
}

// NewVerifier returns the verifier of the configuration at path from the
// trust file tf; the configuration must be trusted.
func NewVerifier(tf, path string) (*Verifier, error) {
	key, st, err := openRecord(tf, path)
	if err != nil {
		return nil, err
	}
	return verifierOf(st, key)
}

// verifierOf is the verifier of the record of key in st.
func verifierOf(st *Store, key string) (*Verifier, error) {
	rec := st.Configs[key]
	if rec == nil {
		return nil, &UntrustedError{Path: key}
	}
	return &Verifier{key: key, root: configRoot(key), files: rec.Files}, nil
}

// Check accepts file (a real path) with content only if the record pins
// it with that content.
func (v *Verifier) Check(file string, content []byte) error {
	want, ok := v.lookup(file)
	if !ok || want == Absent {
		return &UntrustedFileError{Config: v.key, File: file}
	}
	if ContentHash(content) != want {
		return &UntrustedFileError{Config: v.key, File: file, Changed: true}
	}
	return nil
}

// lookup is the record's hash of file, named as the loader named it: as
// given, absolute, then with its links resolved (a relative
// configuration path, or one through a linked directory). Whichever name
// finds a pinned file, the content must then hash as that file was
// trusted: what is loaded is trusted bytes.
func (v *Verifier) lookup(file string) (string, bool) {
	if h, ok := v.files[pinKey(v.root, filepath.Clean(file))]; ok {
		return h, true
	}
	if abs, err := filepath.Abs(file); err == nil {
		if h, ok := v.files[pinKey(v.root, abs)]; ok {
			return h, true
		}
	}
	if key, err := Canonical(file); err == nil {
		if h, ok := v.files[pinKey(v.root, key)]; ok {
			return h, true
		}
	}
	return "", false
}
