package jsonl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/hookctl/hookctl/internal/filelock"
	"github.com/hookctl/hookctl/internal/safefile"
)

// Defaults for Options.
const (
	DefaultMaxBytes   = 10 << 20
	DefaultMaxBackups = 3
)

// maxDepth bounds how deep Redact walks, so that a record that contains
// itself fails instead of recursing forever.
const maxDepth = 1000

// ErrClosed is returned by Append on a closed Log.
var ErrClosed = errors.New("jsonl: log is closed")

// Options configure a Log. The zero value is usable.
type Options struct {
	// MaxBytes is the size the file may reach: an append that would make
	// it larger first rotates it. 0 means DefaultMaxBytes (10 MiB); a
	// negative value disables rotation. A single line longer than
	// MaxBytes still goes into a file of its own.
	MaxBytes int64
	// MaxBackups is how many rotated files are kept: file.1 (the newest)
	// to file.N. 0 means DefaultMaxBackups (3); a negative value keeps
	// none, so rotating just starts the file over.
	MaxBackups int
	// Redact, if not nil, is applied to every string value of a record,
	// however deeply nested in maps and slices, before it is written;
	// map keys are left alone. Use it to mask secrets.
	Redact func(string) string
	// Now gives the time for the "ts" field; nil means time.Now.
	Now func() time.Time
}

// Log appends JSON lines to a file. It is safe for concurrent use within a
// process, and appends from several processes to the same path never
// interleave. Create one with Open and release it with Close.
type Log struct {
	path     string
	lockPath string
	opt      Options

	mu     sync.Mutex // serializes appends and guards f and closed
	f      *os.File   // the file as last opened; nil until needed
	closed bool
}

// Open opens the log at path for appending, creating its parent
// directories (0700) and the file (0600) if needed.
func Open(path string, opt Options) (*Log, error) {
	if path == "" {
		return nil, errors.New("jsonl: empty path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("jsonl: %s: %w", path, err)
	}
	if opt.MaxBytes == 0 {
		opt.MaxBytes = DefaultMaxBytes
	}
	if opt.MaxBackups == 0 {
		opt.MaxBackups = DefaultMaxBackups
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	l := &Log{path: abs, lockPath: abs + ".lock", opt: opt}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("jsonl: %w", err)
	}
	if err := l.open(); err != nil {
		return nil, err
	}
	if !keepOpen {
		l.f.Close()
		l.f = nil
	}
	return l, nil
}

// Append is a convenience for one-shot processes: it opens the log at
// path, appends record and closes the log.
func Append(ctx context.Context, path string, record map[string]any, opt Options) error {
	l, err := Open(path, opt)
	if err != nil {
		return err
	}
	if err := l.Append(ctx, record); err != nil {
		l.Close()
		return err
	}
	return l.Close()
}

// Path returns the absolute path of the log file.
func (l *Log) Path() string { return l.path }

// Append writes record as one JSON line. It adds "ts", the current time
// in RFC 3339 format with nanoseconds in UTC, unless the record has a
// "ts" already; it never modifies record itself. Under an exclusive lock
// on "<path>.lock" it rotates the file if the line would make it exceed
// MaxBytes, then writes the line with a single write. A record that
// cannot be encoded as JSON is an error and writes nothing. Waiting for
// the lock ends with ctx, and in any case after MaxLockWait.
func (l *Log) Append(ctx context.Context, record map[string]any) error {
	line, err := l.encode(record)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	unlock, err := l.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	if err := l.current(); err != nil {
		return err
	}
	if !keepOpen {
		defer func() {
			l.f.Close()
			l.f = nil
		}()
	}
	if l.opt.MaxBytes > 0 {
		fi, err := l.f.Stat()
		if err != nil {
			return fmt.Errorf("jsonl: %w", err)
		}
		if size := fi.Size(); size > 0 && size+int64(len(line)) > l.opt.MaxBytes {
			if err := l.rotate(); err != nil {
				return err
			}
		}
	}
	if _, err := l.f.Write(line); err != nil {
		return fmt.Errorf("jsonl: appending to %s: %w", l.path, err)
	}
	return nil
}

// Close closes the log. Appends after Close fail with ErrClosed; closing
// twice is a no-op.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	if err != nil {
		return fmt.Errorf("jsonl: %w", err)
	}
	return nil
}

// keepOpen reports whether a Log keeps its file open between appends.
// With flock(2) it does: a file renamed by another process's rotation is
// noticed and reopened under the lock. Without it it does not: some
// systems (Windows) refuse to rename a file another process holds open.
const keepOpen = filelock.Shared

// MaxLockWait bounds how long Append waits for another process's lock
// when its context has no earlier deadline: a holder that hangs (a stopped
// process) never holds a hook for longer.
const MaxLockWait = 10 * time.Second

// lock takes the cross-process lock, recreating the directory if it was
// removed since Open.
func (l *Log) lock(ctx context.Context) (func(), error) {
	ctx, cancel := context.WithTimeout(ctx, MaxLockWait)
	defer cancel()
	unlock, err := filelock.Lock(ctx, l.lockPath, true)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
			return nil, fmt.Errorf("jsonl: %w", err)
		}
		unlock, err = filelock.Lock(ctx, l.lockPath, true)
	}
	if err != nil {
		return nil, fmt.Errorf("jsonl: locking %s: %w", l.lockPath, err)
	}
	return unlock, nil
}

// open opens the log file, refusing (without blocking) anything but a
// regular file: a FIFO in its place would hold every append.
func (l *Log) open() error {
	f, err := safefile.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("jsonl: %w", err)
	}
	l.f = f
	return nil
}

// current makes l.f the file now at l.path. Another process may have
// rotated the file since l.f was opened, leaving l.f pointing at
// "<path>.1", or someone may have removed it; either way it is reopened.
// Called with the lock held.
func (l *Log) current() error {
	if l.f != nil {
		have, err1 := l.f.Stat()
		now, err2 := os.Stat(l.path)
		if err1 == nil && err2 == nil && os.SameFile(have, now) {
			return nil
		}
		l.f.Close()
		l.f = nil
	}
	return l.open()
}

// rotate shifts file.N-1 -> file.N ... file -> file.1, dropping the
// oldest, and opens a fresh file. Called with the lock held.
func (l *Log) rotate() error {
	if err := l.f.Close(); err != nil {
		return fmt.Errorf("jsonl: %w", err)
	}
	l.f = nil
	n := l.opt.MaxBackups
	if n <= 0 {
		if err := os.Remove(l.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("jsonl: rotating: %w", err)
		}
		return l.open()
	}
	if err := os.Remove(l.backup(n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("jsonl: rotating: %w", err)
	}
	for i := n - 1; i >= 1; i-- {
		if err := os.Rename(l.backup(i), l.backup(i+1)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("jsonl: rotating: %w", err)
		}
	}
	if err := os.Rename(l.path, l.backup(1)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("jsonl: rotating: %w", err)
	}
	return l.open()
}

func (l *Log) backup(i int) string { return fmt.Sprintf("%s.%d", l.path, i) }

// encode renders one line, newline included.
func (l *Log) encode(record map[string]any) ([]byte, error) {
	rec := make(map[string]any, len(record)+1)
	for k, v := range record {
		if l.opt.Redact != nil {
			r, err := l.redact(v, 0)
			if err != nil {
				return nil, err
			}
			v = r
		}
		rec[k] = v
	}
	if _, ok := rec["ts"]; !ok {
		rec["ts"] = l.opt.Now().UTC().Format(time.RFC3339Nano)
	}
	line, err := encodeLine(rec)
	if err != nil {
		return nil, err
	}
	if !utf8.Valid(line) {
		// encoding/json replaces invalid UTF-8 in strings and keys with
		// U+FFFD, but copies the strings of a json.RawMessage or a
		// Marshaler's output as they are. Decoding does the replacing.
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		var generic any
		if err := dec.Decode(&generic); err != nil {
			return nil, fmt.Errorf("jsonl: encoding record: %w", err)
		}
		return encodeLine(generic)
	}
	return line, nil
}

// encodeLine encodes v as one line, newline included, leaving <, > and &
// readable.
func encodeLine(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("jsonl: encoding record: %w", err)
	}
	return buf.Bytes(), nil
}

// redact returns a copy of v with Redact applied to every string value.
// Values of other types than the generic JSON ones (structs, typed maps
// and slices, json.Marshalers) are converted to their generic JSON form
// first, so no string inside them escapes redaction.
func (l *Log) redact(v any, depth int) (any, error) {
	if depth > maxDepth {
		return nil, errors.New("jsonl: encoding record: nested too deeply (a cycle?)")
	}
	switch x := v.(type) {
	case nil, bool, json.Number,
		int, int8, int16, int32, int64,
		uint, uint8, uint16, uint32, uint64, uintptr,
		float32, float64:
		return v, nil
	case string:
		return l.redactString(x), nil
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = l.redactString(s)
		}
		return out, nil
	case map[string]string:
		out := make(map[string]any, len(x))
		for k, s := range x {
			out[k] = l.redactString(s)
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			r, err := l.redact(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			r, err := l.redact(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("jsonl: encoding record: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // keep numbers exactly as they were
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return nil, fmt.Errorf("jsonl: encoding record: %w", err)
	}
	return l.redact(generic, depth+1)
}

// redactString hands Redact valid UTF-8 (invalid bytes become U+FFFD).
func (l *Log) redactString(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return l.opt.Redact(s)
}
