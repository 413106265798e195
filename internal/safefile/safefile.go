package safefile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// ErrNotRegular is what a *NotRegularError matches with errors.Is.
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError reports a path that names something other than what the
// caller may read or write: a FIFO, a socket, a device, a file of a pseudo
// file system such as /proc, or a directory where a file was expected.
type NotRegularError struct {
	Path string
	Kind string // "a FIFO", "a socket", "a character device", ...
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file: refused (it could block or never end)", e.Path, e.Kind)
}

// Is makes errors.Is(err, ErrNotRegular) true.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// ErrSymlink is what a *SymlinkError matches with errors.Is.
var ErrSymlink = errors.New("symbolic link")

// SymlinkError reports a file to be written whose path ends in a symbolic
// link (or, on Windows, another reparse point). hookctl never writes
// through one: a link placed after the configuration was trusted (a later
// git pull can carry one) would send a write anywhere, such as
// /dev/stdout, where an audit record would come before a hook's reply, or
// a file in the user's home.
type SymlinkError struct {
	Path string
	Kind string // "a symbolic link", "a reparse point"
}

func (e *SymlinkError) Error() string {
	return fmt.Sprintf("%s is %s: refused (hookctl does not write through links; replace it with a regular file)", e.Path, e.Kind)
}

// Is makes errors.Is(err, ErrSymlink) true.
func (e *SymlinkError) Is(target error) bool { return target == ErrSymlink }

// linkKind names what m is if it is a link that OpenFile refuses, or "".
func linkKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeIrregular != 0 && reparseIrregular:
		return "a reparse point"
	}
	return ""
}

// kindOf names the type of a file mode that is not a regular file.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a regular file"
}

// Open opens name for reading. It follows symbolic links, never blocks
// opening a FIFO or a device, and returns a *NotRegularError, with the
// file closed, unless name is a regular file of an ordinary file system.
func Open(name string) (*os.File, error) {
	return open(name, os.O_RDONLY, 0, false)
}

// OpenDir opens the directory name for listing, with the checks of Open:
// anything but a directory is refused.
func OpenDir(name string) (*os.File, error) {
	return open(name, os.O_RDONLY, 0, true)
}

// OpenFile opens name with flag (os.O_WRONLY|os.O_APPEND|os.O_CREATE, ...)
// like os.OpenFile, for writing, with the checks of Open: an existing
// FIFO, socket or device is refused, and opening one never blocks. Unlike
// Open it never follows a symbolic link at the end of name (O_NOFOLLOW;
// on Windows a symbolic link or other reparse point is refused by an
// Lstat before the open and a check that the file opened is the one
// seen): such a path is refused with a *SymlinkError, before O_TRUNC or
// O_CREATE can touch anything. Links in the directories above name are
// followed.
func OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return openFile(name, flag, perm, false)
}

// OpenFileOwn is OpenFile for a file that hookctl owns alone (an audit
// log, a report): it also refuses, with a *HardLinkError, an existing
// file with more than one hard link, before O_TRUNC can touch it and
// again on the file opened. A hard link placed after trust makes a
// write land in the other name too (a file in the user's home, a
// script), and unlike a symbolic link it cannot be told from the file
// itself but by its link count. On Windows, where the count is not read,
// only the checks of OpenFile apply.
func OpenFileOwn(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return openFile(name, flag, perm, true)
}

// ErrHardLink is what a *HardLinkError matches with errors.Is.
var ErrHardLink = errors.New("hard link")

// HardLinkError reports a file to be written by OpenFileOwn that has
// other names (hard links).
type HardLinkError struct {
	Path  string
	Links uint64
}

func (e *HardLinkError) Error() string {
	return fmt.Sprintf("%s has %d hard links: refused (hookctl does not write to a file with other names; remove the other links)", e.Path, e.Links)
}

// Is makes errors.Is(err, ErrHardLink) true.
func (e *HardLinkError) Is(target error) bool { return target == ErrHardLink }

// ErrNotDir is what a *NotDirError matches with errors.Is.
var ErrNotDir = errors.New("not a directory")

// NotDirError reports a directory hookctl writes in that is something
// else: a regular file, a FIFO, ...
type NotDirError struct {
	Path string
	Kind string
}

func (e *NotDirError) Error() string {
	return fmt.Sprintf("%s is %s, not a directory: refused", e.Path, e.Kind)
}

// Is makes errors.Is(err, ErrNotDir) true.
func (e *NotDirError) Is(target error) bool { return target == ErrNotDir }

// CheckDir returns nil if name is a directory, not reached through a
// symbolic link (or reparse point) at its end, or does not exist; else a
// *SymlinkError or a *NotDirError naming it. A caller that writes in a
// tree checks each directory of it it walks through, below a root it
// trusts: it is a check by Lstat, not a walk by file descriptor, so it
// stops a link placed before the call (a git pull), not one swapped in by
// a process racing it.
func CheckDir(name string) error {
	fi, err := os.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if k := linkKind(fi.Mode()); k != "" {
		return &SymlinkError{Path: name, Kind: k}
	}
	if !fi.IsDir() {
		k := kindOf(fi.Mode())
		if fi.Mode().IsRegular() {
			k = "a regular file"
		}
		return &NotDirError{Path: name, Kind: k}
	}
	return nil
}

func openFile(name string, flag int, perm fs.FileMode, own bool) (*os.File, error) {
	if fi, err := os.Lstat(name); err == nil {
		if k := linkKind(fi.Mode()); k != "" {
			return nil, &SymlinkError{Path: name, Kind: k}
		}
		if !fi.Mode().IsRegular() {
			// Refuse before O_TRUNC or O_CREATE can touch it.
			return nil, &NotRegularError{Path: name, Kind: kindOf(fi.Mode())}
		}
		if n := links(fi); own && n > 1 {
			return nil, &HardLinkError{Path: name, Links: n}
		}
	}
	f, err := open(name, flag|nofollow, perm, false)
	if err != nil {
		// A link put in place since the Lstat: O_NOFOLLOW failed the open
		// (ELOOP, or EMLINK on some BSDs); say what it was.
		if fi, lerr := os.Lstat(name); lerr == nil {
			if k := linkKind(fi.Mode()); k != "" {
				return nil, &SymlinkError{Path: name, Kind: k}
			}
		}
		return nil, err
	}
	if err := sameAsPath(f, name); err != nil {
		f.Close()
		return nil, err
	}
	if own {
		// A link made since the Lstat.
		if fi, err := f.Stat(); err == nil && links(fi) > 1 {
			f.Close()
			return nil, &HardLinkError{Path: name, Links: links(fi)}
		}
	}
	return f, nil
}

// WriteFile writes data to name, creating it with perm or truncating it,
// with the checks of OpenFile: a symbolic link, FIFO, socket or device at
// name is refused and left alone.
func WriteFile(name string, data []byte, perm fs.FileMode) error {
	return writeFile(name, data, perm, false)
}

// WriteFileOwn is WriteFile with the checks of OpenFileOwn: a file with
// other hard links is refused and left alone.
func WriteFileOwn(name string, data []byte, perm fs.FileMode) error {
	return writeFile(name, data, perm, true)
}

func writeFile(name string, data []byte, perm fs.FileMode, own bool) error {
	f, err := openFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm, own)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func open(name string, flag int, perm fs.FileMode, dir bool) (*os.File, error) {
	f, err := os.OpenFile(name, flag|nonblock, perm)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	m := fi.Mode()
	switch {
	case dir && !m.IsDir():
		f.Close()
		if m.IsRegular() {
			return nil, &NotRegularError{Path: name, Kind: "a regular file, not a directory"}
		}
		return nil, &NotRegularError{Path: name, Kind: kindOf(m)}
	case !dir && !m.IsRegular():
		f.Close()
		return nil, &NotRegularError{Path: name, Kind: kindOf(m)}
	}
	if err := notPseudo(f, name); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// notPseudo refuses a file of a pseudo file system (procfs, sysfs, ...).
func notPseudo(f *os.File, name string) error {
	if fsName := pseudoFS(f); fsName != "" {
		return &NotRegularError{Path: name, Kind: "a file of the " + fsName + " pseudo file system"}
	}
	return nil
}

// ErrLinks is what OpenNoLinks returns when it cannot open a path as its
// own canonical form: a symbolic link on the way, a path that is not
// absolute and clean, a file that is neither a regular file nor a
// directory (or that Open would refuse), a system without the means.
var ErrLinks = errors.New("not known to be free of symbolic links")

// OpenNoLinks opens name, an absolute and clean path, with the checks of
// Open, but only when no component of it is a symbolic link: name is then
// its own canonical form, what filepath.EvalSymlinks returns for it, found
// in one system call instead of one per component, and the file opened
// is the one that name named then. A regular file or a directory is
// opened (read a file to io.EOF; a directory is not read); fi describes
// it, its Sys a *syscall.Stat_t. Anything else, or a path with a link on
// the way, gives ErrLinks, and the caller resolves the path link by link
// as before. On Linux (5.6 or later) it is openat2 with
// RESOLVE_NO_SYMLINKS; elsewhere it always gives ErrLinks.
func OpenNoLinks(name string) (f io.ReadCloser, fi fs.FileInfo, err error) {
	if !filepath.IsAbs(name) || filepath.Clean(name) != name {
		return nil, nil, ErrLinks
	}
	f, fi, err = openNoLinks(name)
	if err != nil {
		return nil, nil, ErrLinks
	}
	return f, fi, nil
}

// Bounded runs op on a goroutine of its own and returns what it returns,
// or ctx.Err() as soon as ctx ends, whichever comes first: an operation
// stuck in the kernel (a hung network mount) cannot hold the caller past
// its deadline. op gets ctx and should stop early when it ends. When the
// caller has given up, release (if not nil) receives what op eventually
// returns without error, to close it. With a context that never ends op
// runs on the caller's goroutine.
func Bounded[T any](ctx context.Context, op func(context.Context) (T, error), release func(T)) (T, error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	if ctx.Done() == nil {
		return op(ctx)
	}
	type result struct {
		v   T
		err error
	}
	var (
		mu        sync.Mutex
		abandoned bool
		ch        = make(chan result, 1)
	)
	go func() {
		v, err := op(ctx)
		mu.Lock()
		defer mu.Unlock()
		if abandoned {
			if err == nil && release != nil {
				release(v)
			}
			return
		}
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
	}
	mu.Lock()
	defer mu.Unlock()
	select {
	case r := <-ch:
		return r.v, r.err
	default:
		abandoned = true
		return zero, ctx.Err()
	}
}

// chunk is how much ReadFile reads between two looks at the context.
const chunk = 256 << 10

// ReadFile reads at most limit bytes from the start of the regular file
// name (see Open), checking ctx between chunks, and gives up when ctx
// ends (see Bounded). A negative limit reads nothing.
func ReadFile(ctx context.Context, name string, limit int64) ([]byte, error) {
	return Bounded(ctx, func(ctx context.Context) ([]byte, error) {
		f, err := Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return ReadAll(ctx, f, limit)
	}, nil)
}

// ReadAll reads r until EOF or limit bytes, whichever comes first,
// checking ctx between chunks.
func ReadAll(ctx context.Context, r io.Reader, limit int64) ([]byte, error) {
	if limit <= 0 {
		return []byte{}, nil
	}
	var buf []byte
	for int64(len(buf)) < limit {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		want := min(int64(chunk), limit-int64(len(buf)))
		if cap(buf)-len(buf) < int(want) {
			nb := make([]byte, len(buf), len(buf)+int(want))
			copy(nb, buf)
			buf = nb
		}
		n, err := io.ReadFull(r, buf[len(buf):len(buf)+int(want)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// ReadRegular reads the whole of the regular file name with the checks of
// Open: a FIFO, a socket, a device or a file of a pseudo file system is
// refused with a *NotRegularError, without blocking, before anything
// reads it. It is os.ReadFile for the files a configuration names (its
// *.hcl files, scripts, modules, file() reads), which a checked-out
// repository controls.
func ReadRegular(name string) ([]byte, error) {
	f, err := Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := 0
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 && fi.Size() < 1<<30 {
		size = int(fi.Size())
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := buf.ReadFrom(f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
