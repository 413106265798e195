package kv

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookctl/hookctl/internal/filelock"
	"github.com/hookctl/hookctl/internal/safefile"
)

// fileVersion is the version of the state layout written by File: a
// manifest at the path, one file per key beside it (see the package doc).
const fileVersion = 2

// legacyVersion is the earlier layout, one JSON document holding every
// entry, which File migrates on first use.
const legacyVersion = 1

// DefaultLockWait is how long a File operation waits for a lock another
// process holds when its context allows longer (see WithLockWait).
const DefaultLockWait = 10 * time.Second

// Names inside the data directory and its buckets.
const (
	lockName   = ".lock"  // a bucket's lock file
	sweptName  = ".swept" // its mtime is when the bucket was last swept
	tmpPrefix  = ".tmp-"  // a file being written
	namedKey   = 'k'      // "k" + hex of the key
	hashedKey  = 'h'      // "h" + hex of sha256 of a long key
	maxNamed   = 120      // longest key kept in its file name
	sweepEvery = time.Hour
)

// maxBlockedWaiters bounds the operations of one File that wait for a lock
// asleep in the kernel; more wait by polling (see filelock.Locker).
const maxBlockedWaiters = 8

// File is a Store kept in files, shared by every process that opens the
// same path. It is safe for concurrent use by goroutines and by processes.
//
// The path holds a small manifest; the entries live in the directory
// "<path>.d", one file per key, spread over 256 buckets (subdirectories)
// by a hash of the key, each with its own lock file. An operation locks
// one bucket (exclusively to change a key, shared to read one), reads the
// key's file and, when it changed the entry, writes a synced temporary
// file in the bucket and renames it over the key's file. Its cost does not
// depend on how many keys the store holds; only Keys reads every entry.
// A read-modify-write such as Incr or CompareAndSwap is atomic across
// processes, and a crash while writing one key can lose nothing but that
// write: every other key is in a file of its own.
//
// Expired entries are removed when their key is written, and a bucket is
// swept of expired entries (and of temporary files a crashed writer left)
// by the first write into it an hour or more after its last sweep.
//
// Every wait for a lock ends with the operation's context, and after the
// lock wait (DefaultLockWait unless WithLockWait says otherwise) in any
// case, with an error matching ErrLockWait and the context error.
//
// A manifest or key file that cannot be parsed is never reset: the
// operations that need it fail with an error wrapping ErrCorrupt and naming
// the file until it is repaired or removed. A missing or empty manifest is
// an empty store.
type File struct {
	path     string // the manifest
	dataDir  string // "<path>.d"
	lockPath string // "<path>.lock", taken only to migrate a legacy file
	now      func() time.Time
	lockWait time.Duration
	locker   *filelock.Locker

	legacy  atomic.Bool // the manifest was a version 1 document at open
	migrate sync.Mutex
}

var _ Store = (*File)(nil)

// OpenFile opens the store at path, creating its parent directories
// (0700), the manifest (0600) and the data directory if needed. It fails
// if the manifest exists and cannot be parsed. It takes no lock: a state
// file of the earlier single-document format is migrated by the first
// operation, within that operation's context.
func OpenFile(path string, opts ...Option) (*File, error) {
	if path == "" {
		return nil, errors.New("kv: empty state file path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("kv: state file %s: %w", path, err)
	}
	o := buildOptions(opts)
	f := &File{path: abs, dataDir: abs + ".d", lockPath: abs + ".lock", now: o.now, lockWait: o.lockWait,
		locker: filelock.NewLocker(maxBlockedWaiters)}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("kv: state directory: %w", err)
	}
	// The state file and its data directory are never links: one placed
	// after trust would send every write elsewhere.
	if fi, err := os.Lstat(abs); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("kv: state file: %w", &safefile.SymlinkError{Path: abs, Kind: "a symbolic link"})
	}
	if err := safefile.CheckDir(f.dataDir); err != nil {
		return nil, fmt.Errorf("kv: state file: %w", err)
	}
	version, _, err := f.readManifest()
	if err != nil {
		return nil, err
	}
	switch version {
	case 0:
		if err := writeAtomic(filepath.Dir(abs), abs, manifest()); err != nil {
			return nil, fmt.Errorf("kv: writing state file: %w", err)
		}
		syncDir(filepath.Dir(abs))
	case legacyVersion:
		f.legacy.Store(true)
	}
	if err := os.MkdirAll(f.dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("kv: state directory: %w", err)
	}
	return f, nil
}

// Path returns the absolute path of the state file (the manifest).
func (f *File) Path() string { return f.path }

// Get implements Store.
func (f *File) Get(ctx context.Context, key string) (any, bool, error) {
	if err := begin(ctx, key); err != nil {
		return nil, false, err
	}
	if err := f.ready(ctx); err != nil {
		return nil, false, err
	}
	dir, file := f.locate(key)
	unlock, err := f.lock(ctx, dir, false)
	if err != nil {
		return nil, false, err
	}
	e, found, err := readEntry(file)
	unlock()
	if err != nil || !found || e.expired(f.now()) {
		return nil, false, err
	}
	return e.value, true, nil
}

// Set implements Store.
func (f *File) Set(ctx context.Context, key string, value any, ttl time.Duration) error {
	vals, err := writeArgs(ctx, key, ttl, value)
	if err != nil {
		return err
	}
	v := vals[0]
	return f.update(ctx, key, func(t table, now time.Time) (bool, error) {
		t.set(key, v, ttl, now)
		return true, nil
	})
}

// Delete implements Store.
func (f *File) Delete(ctx context.Context, key string) error {
	if err := begin(ctx, key); err != nil {
		return err
	}
	return f.update(ctx, key, func(t table, now time.Time) (bool, error) {
		return t.delete(key, now), nil
	})
}

// Incr implements Store.
func (f *File) Incr(ctx context.Context, key string, delta int64, ttl time.Duration) (int64, error) {
	if _, err := writeArgs(ctx, key, ttl); err != nil {
		return 0, err
	}
	var n int64
	err := f.update(ctx, key, func(t table, now time.Time) (bool, error) {
		var err error
		n, err = t.incr(key, delta, ttl, now)
		return err == nil, err
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// CompareAndSwap implements Store.
func (f *File) CompareAndSwap(ctx context.Context, key string, old, new any, ttl time.Duration) (bool, error) {
	vals, err := writeArgs(ctx, key, ttl, old, new)
	if err != nil {
		return false, err
	}
	o, n := vals[0], vals[1]
	var swapped bool
	err = f.update(ctx, key, func(t table, now time.Time) (bool, error) {
		swapped = t.cas(key, o, n, ttl, now)
		return swapped, nil
	})
	if err != nil {
		return false, err
	}
	return swapped, nil
}

// Keys implements Store. Unlike the other operations it reads the whole
// store: every bucket, under its shared lock, and every entry whose key
// has the prefix (or is too long to be in its file name).
func (f *File) Keys(ctx context.Context, prefix string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := f.ready(ctx); err != nil {
		return nil, err
	}
	buckets, err := os.ReadDir(f.dataDir)
	if errors.Is(err, fs.ErrNotExist) {
		return []string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("kv: reading state directory: %w", err)
	}
	now := f.now()
	ks := []string{}
	for _, b := range buckets {
		if !isBucket(b.Name()) {
			continue
		}
		if !b.IsDir() {
			// A link or a file where a bucket should be.
			if err := f.checkDirs(filepath.Join(f.dataDir, b.Name())); err != nil {
				return nil, err
			}
		}
		found, err := f.bucketKeys(ctx, filepath.Join(f.dataDir, b.Name()), prefix, now)
		if err != nil {
			return nil, err
		}
		ks = append(ks, found...)
	}
	slices.Sort(ks)
	return ks, nil
}

// bucketKeys returns the live keys with prefix of one bucket.
func (f *File) bucketKeys(ctx context.Context, dir, prefix string, now time.Time) ([]string, error) {
	unlock, err := f.lock(ctx, dir, false)
	if err != nil {
		return nil, err
	}
	defer unlock()
	names, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("kv: reading state directory: %w", err)
	}
	var ks []string
	for _, n := range names {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		name := n.Name()
		key, named := keyOfName(name)
		if named && !strings.HasPrefix(key, prefix) || !named && (name == "" || name[0] != hashedKey) {
			continue
		}
		e, found, err := readEntry(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		if !named {
			key = e.key
		}
		if found && !e.expired(now) && strings.HasPrefix(key, prefix) {
			ks = append(ks, key)
		}
	}
	return ks, nil
}

// update runs fn on a table holding key's entry (if any) under the
// bucket's exclusive lock, and writes or removes the key's file if fn
// reports a change. A write may then sweep the bucket.
func (f *File) update(ctx context.Context, key string, fn func(t table, now time.Time) (bool, error)) error {
	if err := f.ready(ctx); err != nil {
		return err
	}
	dir, file := f.locate(key)
	unlock, err := f.lock(ctx, dir, true)
	if err != nil {
		return err
	}
	synced := false
	defer func() {
		unlock()
		if synced {
			// The rename is visible to every process already; making
			// it durable need not hold the others up.
			syncDir(dir)
		}
	}()
	e, found, err := readEntry(file)
	if err != nil {
		return err
	}
	t := table{}
	if found {
		t[key] = e.entry
	}
	now := f.now()
	changed, err := fn(t, now)
	if err != nil || !changed {
		return err
	}
	if ne, ok := t[key]; ok && !ne.expired(now) {
		err = writeEntry(dir, file, key, ne)
	} else if found {
		err = removeEntry(file)
	}
	if err != nil {
		return err
	}
	synced = true
	f.maybeSweep(ctx, dir)
	return nil
}

// locate returns the bucket directory and the file of key.
func (f *File) locate(key string) (dir, file string) {
	sum := sha256.Sum256([]byte(key))
	dir = filepath.Join(f.dataDir, hex.EncodeToString(sum[:1]))
	if len(key) <= maxNamed {
		return dir, filepath.Join(dir, string(namedKey)+hex.EncodeToString([]byte(key)))
	}
	return dir, filepath.Join(dir, string(hashedKey)+hex.EncodeToString(sum[:]))
}

// keyOfName decodes the key of a "k" file name; named is false for any
// other name.
func keyOfName(name string) (key string, named bool) {
	if name == "" || name[0] != namedKey {
		return "", false
	}
	b, err := hex.DecodeString(name[1:])
	if err != nil {
		return "", false
	}
	return string(b), true
}

func isBucket(name string) bool {
	_, err := hex.DecodeString(name)
	return len(name) == 2 && err == nil
}

// ErrLockWait is matched (errors.Is) by the error of an operation that
// gave up waiting for a lock, as is the context error that ended the wait.
var ErrLockWait = errors.New("kv: gave up waiting for the state lock")

// lock takes the lock of a bucket directory, creating the directory if
// it is missing (a new bucket, or a state directory removed meanwhile).
// The wait ends with ctx, and after f.lockWait in any case.
func (f *File) lock(ctx context.Context, dir string, exclusive bool) (func(), error) {
	if err := f.checkDirs(dir); err != nil {
		return nil, err
	}
	return f.lockAt(ctx, filepath.Join(dir, lockName), exclusive)
}

// checkDirs refuses a data directory or a bucket directory that is a
// symbolic link (or anything but a directory): a link placed after trust
// (state.json.d/c4 -> elsewhere) would send the bucket's writes, lock
// and sweep elsewhere. A missing directory passes (lockAt creates it).
func (f *File) checkDirs(bucket string) error {
	for _, d := range []string{f.dataDir, bucket} {
		if err := safefile.CheckDir(d); err != nil {
			return fmt.Errorf("kv: state directory: %w", err)
		}
	}
	return nil
}

func (f *File) lockAt(ctx context.Context, path string, exclusive bool) (func(), error) {
	ctx, cancel := context.WithTimeout(ctx, f.lockWait)
	defer cancel()
	unlock, err := f.locker.Lock(ctx, path, exclusive)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("kv: state directory: %w", err)
		}
		unlock, err = f.locker.Lock(ctx, path, exclusive)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w %s: %w", ErrLockWait, path, ctx.Err())
		}
		return nil, fmt.Errorf("kv: locking %s: %w", path, err)
	}
	return unlock, nil
}

// fileEntry is an entry read from a key's file, with its key.
type fileEntry struct {
	entry
	key string
}

// keyDoc is the content of a key's file.
type keyDoc struct {
	Key     string          `json:"key"`
	Value   json.RawMessage `json:"value"`
	Expires time.Time       `json:"expires,omitzero"`
}

// readEntry reads a key's file; found is false when there is none.
func readEntry(file string) (fileEntry, bool, error) {
	h, err := safefile.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		return fileEntry{}, false, nil
	}
	if errors.Is(err, safefile.ErrNotRegular) {
		return fileEntry{}, false, fmt.Errorf("%w %s: %v", ErrCorrupt, file, err)
	}
	if err != nil {
		return fileEntry{}, false, fmt.Errorf("kv: reading state file: %w", err)
	}
	b, err := io.ReadAll(h)
	h.Close()
	if err != nil {
		return fileEntry{}, false, fmt.Errorf("kv: reading state file: %w", err)
	}
	e, err := parseEntry(b)
	if err != nil {
		return fileEntry{}, false, fmt.Errorf("%w %s: %v", ErrCorrupt, file, err)
	}
	return e, true, nil
}

func parseEntry(b []byte) (fileEntry, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc keyDoc
	if err := dec.Decode(&doc); err != nil {
		return fileEntry{}, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fileEntry{}, errors.New("unexpected data after the JSON document")
	}
	if doc.Key == "" || doc.Value == nil {
		return fileEntry{}, errors.New("an entry needs a key and a value")
	}
	v, err := DecodeValue(doc.Value)
	if err != nil {
		return fileEntry{}, err
	}
	return fileEntry{entry: entry{value: v, exp: doc.Expires}, key: doc.Key}, nil
}

// writeEntry replaces a key's file atomically.
func writeEntry(dir, file, key string, e entry) error {
	v, err := json.Marshal(e.value)
	if err != nil {
		return fmt.Errorf("kv: encoding state: %w", err)
	}
	doc := keyDoc{Key: key, Value: v}
	if !e.exp.IsZero() {
		doc.Expires = e.exp.UTC()
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return fmt.Errorf("kv: encoding state: %w", err)
	}
	if err := writeAtomic(dir, file, append(b, '\n')); err != nil {
		return fmt.Errorf("kv: writing state file: %w", err)
	}
	return nil
}

func removeEntry(file string) error {
	if err := os.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("kv: removing state file: %w", err)
	}
	return nil
}

// writeAtomic replaces file with b: a synced temporary file in dir
// (os.CreateTemp makes it 0600) renamed over it. The caller syncs dir.
func writeAtomic(dir, file string, b []byte) error {
	tmp, err := os.CreateTemp(dir, tmpPrefix+"*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(name)
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		os.Remove(name)
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return err
	}
	if err := os.Rename(name, file); err != nil {
		os.Remove(name)
		return err
	}
	return nil
}

// maybeSweep sweeps the bucket dir, whose exclusive lock the caller holds,
// when its last sweep is sweepEvery old or more. A sweep removes the
// expired entries and the temporary files older than sweepEvery; it stops
// when ctx ends, to finish another time.
func (f *File) maybeSweep(ctx context.Context, dir string) {
	marker := filepath.Join(dir, sweptName)
	fi, err := os.Stat(marker)
	if err == nil && time.Since(fi.ModTime()) < sweepEvery {
		return
	}
	names, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	now := f.now()
	for _, n := range names {
		if ctx.Err() != nil {
			return
		}
		p := filepath.Join(dir, n.Name())
		switch name := n.Name(); {
		case strings.HasPrefix(name, tmpPrefix):
			if info, err := n.Info(); err == nil && time.Since(info.ModTime()) >= sweepEvery {
				os.Remove(p)
			}
		case name[0] == namedKey || name[0] == hashedKey:
			if e, found, err := readEntry(p); err == nil && found && e.expired(now) {
				os.Remove(p)
			}
		}
	}
	syncDir(dir)
	if h, err := safefile.OpenFile(marker, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600); err == nil {
		h.Close()
		t := time.Now()
		_ = os.Chtimes(marker, t, t)
	}
}

// manifest is the content of a version 2 state file.
func manifest() []byte {
	return []byte(fmt.Sprintf("{\"version\": %d, \"layout\": \"one file per key in the directory beside this file\"}\n", fileVersion))
}

// readManifest reads the state file: its version (0 when missing or
// blank) and, for a legacy document, its entries.
func (f *File) readManifest() (int, table, error) {
	h, err := safefile.Open(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil, nil
	}
	if errors.Is(err, safefile.ErrNotRegular) {
		return 0, nil, fmt.Errorf("%w %s: %v", ErrCorrupt, f.path, err)
	}
	if err != nil {
		return 0, nil, fmt.Errorf("kv: reading state file: %w", err)
	}
	b, err := io.ReadAll(h)
	h.Close()
	if err != nil {
		return 0, nil, fmt.Errorf("kv: reading state file: %w", err)
	}
	v, t, err := parseManifest(b)
	if err != nil {
		return 0, nil, fmt.Errorf("%w %s: %v", ErrCorrupt, f.path, err)
	}
	return v, t, nil
}

// legacyDoc is the single document of version 1, which held every entry.
type legacyDoc struct {
	Version int                    `json:"version"`
	Entries map[string]legacyEntry `json:"entries"`
	Layout  string                 `json:"layout"`
}

type legacyEntry struct {
	Value   any       `json:"value"`
	Expires time.Time `json:"expires,omitzero"`
}

func parseManifest(b []byte) (int, table, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return 0, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc legacyDoc
	if err := dec.Decode(&doc); err != nil {
		return 0, nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return 0, nil, errors.New("unexpected data after the JSON document")
	}
	switch doc.Version {
	case fileVersion:
		if doc.Entries != nil {
			return 0, nil, fmt.Errorf("version %d has no entries in this file", fileVersion)
		}
		return fileVersion, nil, nil
	case legacyVersion:
	default:
		return 0, nil, fmt.Errorf("unsupported version %d (want %d)", doc.Version, fileVersion)
	}
	t := make(table, len(doc.Entries))
	for k, fe := range doc.Entries {
		if k == "" {
			return 0, nil, errors.New("entry with an empty key")
		}
		v, err := fromJSON(fe.Value)
		if err != nil {
			return 0, nil, fmt.Errorf("entry %q: %v", k, err)
		}
		t[k] = entry{value: v, exp: fe.Expires}
	}
	return legacyVersion, t, nil
}

// ready migrates a version 1 state file, once, under the store's own
// lock: every live entry goes to its key's file, then the manifest
// replaces the document. A crash midway leaves the document, and the next
// operation migrates again; no process writes a key's file before the
// manifest says version 2.
func (f *File) ready(ctx context.Context) error {
	if !f.legacy.Load() {
		return nil
	}
	f.migrate.Lock()
	defer f.migrate.Unlock()
	if !f.legacy.Load() {
		return nil
	}
	unlock, err := f.lockAt(ctx, f.lockPath, true)
	if err != nil {
		return err
	}
	defer unlock()
	version, t, err := f.readManifest()
	if err != nil {
		return err
	}
	if version == legacyVersion {
		now := f.now()
		for k, e := range t {
			if e.expired(now) {
				continue
			}
			dir, file := f.locate(k)
			if err := f.checkDirs(dir); err != nil {
				return err
			}
			if err := os.MkdirAll(dir, 0o700); err != nil {
				return fmt.Errorf("kv: state directory: %w", err)
			}
			if err := writeEntry(dir, file, k, e); err != nil {
				return err
			}
		}
	}
	if version != fileVersion {
		for _, b := range buckets(t, f) {
			syncDir(b)
		}
		if err := writeAtomic(filepath.Dir(f.path), f.path, manifest()); err != nil {
			return fmt.Errorf("kv: writing state file: %w", err)
		}
		syncDir(filepath.Dir(f.path))
	}
	f.legacy.Store(false)
	return nil
}

// buckets returns the bucket directories of the keys of t.
func buckets(t table, f *File) []string {
	seen := map[string]bool{}
	var out []string
	for k := range t {
		if dir, _ := f.locate(k); !seen[dir] {
			seen[dir] = true
			out = append(out, dir)
		}
	}
	return out
}
