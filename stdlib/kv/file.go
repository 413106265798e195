package kv

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/hookctl/hookctl/internal/filelock"
)

// fileVersion is the version of the state file format written by File.
const fileVersion = 1

// File is a Store kept in one JSON file, shared by every process that
// opens the same path. It is safe for concurrent use by goroutines and by
// processes.
//
// Every operation locks the sibling lock file "<path>.lock" (exclusively
// to change the store, shared to read it), reads and parses the whole
// file, and, when it changed something, writes the new contents to a
// temporary file in the same directory, syncs it and renames it over the
// state file. Readers therefore always see a complete file, and a
// read-modify-write such as Incr or CompareAndSwap is atomic across
// processes. Expired entries are dropped whenever the file is rewritten.
//
// The cost of an operation grows with the size of the file: File is meant
// for the small state of hooks (counters, flags, a few records per
// session), not for bulk data.
//
// A state file that cannot be parsed is never reset: every operation
// fails with an error wrapping ErrCorrupt and naming the path until the
// file is repaired or removed. A missing or empty file is an empty store.
//
// The file looks like
//
//	{
//	  "version": 1,
//	  "entries": {
//	    "session/abc/edits": {"value": 3, "expires": "2025-01-02T03:04:05Z"}
//	  }
//	}
type File struct {
	path     string
	lockPath string
	now      func() time.Time
}

var _ Store = (*File)(nil)

// OpenFile opens the store kept in the file at path, creating its parent
// directories (0700) and an empty file (0600) if needed. It fails if the
// file exists and cannot be parsed.
func OpenFile(path string, opts ...Option) (*File, error) {
	if path == "" {
		return nil, errors.New("kv: empty state file path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("kv: state file %s: %w", path, err)
	}
	o := buildOptions(opts)
	f := &File{path: abs, lockPath: abs + ".lock", now: o.now}
	unlock, err := f.lock(context.Background(), true)
	if err != nil {
		return nil, err
	}
	defer unlock()
	h, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("kv: state file: %w", err)
	}
	if err := h.Close(); err != nil {
		return nil, fmt.Errorf("kv: state file: %w", err)
	}
	if _, err := f.read(); err != nil {
		return nil, err
	}
	return f, nil
}

// Path returns the absolute path of the state file.
func (f *File) Path() string { return f.path }

// Get implements Store.
func (f *File) Get(ctx context.Context, key string) (any, bool, error) {
	if err := begin(ctx, key); err != nil {
		return nil, false, err
	}
	var (
		e  entry
		ok bool
	)
	err := f.view(ctx, func(t table, now time.Time) {
		e, ok = t.lookup(key, now)
	})
	if err != nil || !ok {
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
	return f.update(ctx, func(t table, now time.Time) (bool, error) {
		t.set(key, v, ttl, now)
		return true, nil
	})
}

// Delete implements Store.
func (f *File) Delete(ctx context.Context, key string) error {
	if err := begin(ctx, key); err != nil {
		return err
	}
	return f.update(ctx, func(t table, now time.Time) (bool, error) {
		return t.delete(key, now), nil
	})
}

// Incr implements Store.
func (f *File) Incr(ctx context.Context, key string, delta int64, ttl time.Duration) (int64, error) {
	if _, err := writeArgs(ctx, key, ttl); err != nil {
		return 0, err
	}
	var n int64
	err := f.update(ctx, func(t table, now time.Time) (bool, error) {
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
	err = f.update(ctx, func(t table, now time.Time) (bool, error) {
		swapped = t.cas(key, o, n, ttl, now)
		return swapped, nil
	})
	if err != nil {
		return false, err
	}
	return swapped, nil
}

// Keys implements Store.
func (f *File) Keys(ctx context.Context, prefix string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var ks []string
	err := f.view(ctx, func(t table, now time.Time) {
		ks = t.keys(prefix, now)
	})
	if err != nil {
		return nil, err
	}
	return ks, nil
}

// lock takes the lock file, recreating the state directory if it was
// removed since the store was opened.
func (f *File) lock(ctx context.Context, exclusive bool) (func(), error) {
	unlock, err := filelock.Lock(ctx, f.lockPath, exclusive)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o700); err != nil {
			return nil, fmt.Errorf("kv: state directory: %w", err)
		}
		unlock, err = filelock.Lock(ctx, f.lockPath, exclusive)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("kv: locking %s: %w", f.lockPath, err)
	}
	return unlock, nil
}

// view runs fn on the current contents under a shared lock.
func (f *File) view(ctx context.Context, fn func(t table, now time.Time)) error {
	unlock, err := f.lock(ctx, false)
	if err != nil {
		return err
	}
	defer unlock()
	t, err := f.read()
	if err != nil {
		return err
	}
	fn(t, f.now())
	return nil
}

// update runs fn on the current contents under an exclusive lock and
// writes the result back if fn reports a change.
func (f *File) update(ctx context.Context, fn func(t table, now time.Time) (bool, error)) error {
	unlock, err := f.lock(ctx, true)
	if err != nil {
		return err
	}
	defer unlock()
	t, err := f.read()
	if err != nil {
		return err
	}
	now := f.now()
	changed, err := fn(t, now)
	if err != nil || !changed {
		return err
	}
	t.purge(now)
	return f.write(t)
}

type fileDoc struct {
	Version int                  `json:"version"`
	Entries map[string]fileEntry `json:"entries"`
}

type fileEntry struct {
	Value   any       `json:"value"`
	Expires time.Time `json:"expires,omitzero"`
}

// read parses the state file. A missing or blank file is an empty table.
func (f *File) read() (table, error) {
	b, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return table{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("kv: reading state file: %w", err)
	}
	t, err := parse(b)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrCorrupt, f.path, err)
	}
	return t, nil
}

func parse(b []byte) (table, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return table{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc fileDoc
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON document")
	}
	if doc.Version != fileVersion {
		return nil, fmt.Errorf("unsupported version %d (want %d)", doc.Version, fileVersion)
	}
	t := make(table, len(doc.Entries))
	for k, fe := range doc.Entries {
		if k == "" {
			return nil, errors.New("entry with an empty key")
		}
		v, err := fromJSON(fe.Value)
		if err != nil {
			return nil, fmt.Errorf("entry %q: %v", k, err)
		}
		t[k] = entry{value: v, exp: fe.Expires}
	}
	return t, nil
}

// write replaces the state file atomically: a synced temporary file in the
// same directory (os.CreateTemp makes it 0600) renamed over it.
func (f *File) write(t table) error {
	doc := fileDoc{Version: fileVersion, Entries: make(map[string]fileEntry, len(t))}
	for k, e := range t {
		fe := fileEntry{Value: e.value}
		if !e.exp.IsZero() {
			fe.Expires = e.exp.UTC()
		}
		doc.Entries[k] = fe
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("kv: encoding state: %w", err)
	}
	b = append(b, '\n')
	dir := filepath.Dir(f.path)
	tmp, err := os.CreateTemp(dir, filepath.Base(f.path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("kv: writing state file: %w", err)
	}
	name := tmp.Name()
	fail := func(err error) error {
		tmp.Close()
		os.Remove(name)
		return fmt.Errorf("kv: writing state file: %w", err)
	}
	if _, err := tmp.Write(b); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return fmt.Errorf("kv: writing state file: %w", err)
	}
	if err := os.Rename(name, f.path); err != nil {
		os.Remove(name)
		return fmt.Errorf("kv: writing state file: %w", err)
	}
	syncDir(dir)
	return nil
}
