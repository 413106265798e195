package stdlib

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/internal/safefile"
	"github.com/hookctl/hookctl/lib/paths"
	"github.com/hookctl/hookctl/script"
)

// DefaultReadLimit bounds fs.read when maxBytes is not given.
const DefaultReadLimit = 1 << 20

// MaxReadLimit is the largest maxBytes fs.read and transcript.read accept.
const MaxReadLimit = 64 << 20

// Bounds of the listing functions: fs.list returns at most MaxListEntries
// names and fs.glob at most MaxGlobMatches matches; past that they fail
// rather than hold the hook.
const (
	MaxListEntries = 100_000
	MaxGlobMatches = 10_000
)

// errTooMany stops a walk that found more than the function returns.
var errTooMany = errors.New("too many entries")

// fsModule is hookctl/fs: bounded reads inside the project and
// configuration roots (anywhere with the "read" capability) and, with the
// "write" capability, writes inside the roots. Only regular files are read
// or written: a FIFO, socket, device or /proc file is refused, and every
// call gives up at the hook's deadline.
func fsModule(o Options) script.Module {
	return func(vm *script.VM, module *goja.Object) {
		rt := vm.Runtime()
		// resolve makes a path absolute against the event's cwd and checks
		// it against the roots.
		resolve := func(c goja.FunctionCall, fname string, write bool) string {
			p := paths.Resolve(argString(vm, c, 0, "fs."+fname), payloadString(vm, "cwd"), o.Home)
			p = filepath.FromSlash(p)
			if write || !vm.Allowed(CapRead) {
				if !vm.Within(p) {
					panic(rt.NewGoError(fmt.Errorf("fs.%s: %s is outside the project and configuration roots", fname, p)))
				}
			}
			return p
		}
		throw := func(fname string, err error) { panic(rt.NewGoError(fmt.Errorf("fs.%s: %w", fname, err))) }
		stat := func(p string) (fs.FileInfo, error) {
			return safefile.Bounded(vm.Context(), func(context.Context) (fs.FileInfo, error) { return os.Stat(p) }, nil)
		}
		set(module, map[string]fn{
			"read": func(c goja.FunctionCall) goja.Value {
				p := resolve(c, "read", false)
				limit := optInt(options(c, 1), "maxBytes", DefaultReadLimit)
				if limit > MaxReadLimit {
					panic(rt.NewTypeError(fmt.Sprintf("fs.read: maxBytes must be at most %d", MaxReadLimit)))
				}
				b, err := safefile.ReadFile(vm.Context(), p, limit)
				if err != nil {
					throw("read", err)
				}
				return rt.ToValue(string(b))
			},
			"exists": func(c goja.FunctionCall) goja.Value {
				_, err := stat(resolve(c, "exists", false))
				if err != nil && vm.Context().Err() != nil {
					throw("exists", err)
				}
				return rt.ToValue(err == nil)
			},
			"stat": func(c goja.FunctionCall) goja.Value {
				fi, err := stat(resolve(c, "stat", false))
				if errors.Is(err, fs.ErrNotExist) {
					return goja.Null()
				}
				if err != nil {
					throw("stat", err)
				}
				return rt.ToValue(map[string]any{
					"size": fi.Size(), "isDir": fi.IsDir(), "isFile": fi.Mode().IsRegular(), "mode": fi.Mode().Perm().String(),
					"mtimeMs": fi.ModTime().UnixMilli(),
				})
			},
			"list": func(c goja.FunctionCall) goja.Value {
				p := resolve(c, "list", false)
				names, err := safefile.Bounded(vm.Context(), func(ctx context.Context) ([]string, error) {
					return listDir(ctx, p, MaxListEntries)
				}, nil)
				if err != nil {
					throw("list", err)
				}
				out := make([]any, len(names))
				for i, n := range names {
					out[i] = n
				}
				return rt.ToValue(out)
			},
			"glob": func(c goja.FunctionCall) goja.Value {
				pattern := argString(vm, c, 0, "fs.glob")
				base := payloadString(vm, "cwd")
				if d := optString(options(c, 1), "cwd"); d != "" {
					base = paths.Resolve(d, base, o.Home)
				}
				if base == "" {
					base = vm.Dir()
				}
				base = filepath.FromSlash(base)
				var check func(string) bool
				if !vm.Allowed(CapRead) {
					if !vm.Within(base) {
						throw("glob", fmt.Errorf("%s is outside the project and configuration roots", base))
					}
					check = vm.Within
				}
				matches, err := safefile.Bounded(vm.Context(), func(ctx context.Context) ([]string, error) {
					return glob(ctx, base, pattern, check, MaxGlobMatches)
				}, nil)
				if err != nil {
					throw("glob", err)
				}
				out := make([]any, len(matches))
				for i, m := range matches {
					out[i] = m
				}
				return rt.ToValue(out)
			},
			"write": func(c goja.FunctionCall) goja.Value {
				vm.Require(CapWrite, "fs.write")
				p := resolve(c, "write", true)
				data := argString(vm, c, 1, "fs.write")
				if err := writeFile(vm.Context(), p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, data); err != nil {
					throw("write", err)
				}
				return goja.Undefined()
			},
			"append": func(c goja.FunctionCall) goja.Value {
				vm.Require(CapWrite, "fs.append")
				p := resolve(c, "append", true)
				data := argString(vm, c, 1, "fs.append")
				if err := writeFile(vm.Context(), p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, data); err != nil {
					throw("append", err)
				}
				return goja.Undefined()
			},
			"mkdir": func(c goja.FunctionCall) goja.Value {
				vm.Require(CapWrite, "fs.mkdir")
				p := resolve(c, "mkdir", true)
				if _, err := safefile.Bounded(vm.Context(), func(context.Context) (struct{}, error) {
					return struct{}{}, os.MkdirAll(p, 0o755)
				}, nil); err != nil {
					throw("mkdir", err)
				}
				return goja.Undefined()
			},
		})
	}
}

// writeFile writes data to the regular file p opened with flag, giving up
// at ctx's end.
func writeFile(ctx context.Context, p string, flag int, data string) error {
	_, err := safefile.Bounded(ctx, func(context.Context) (struct{}, error) {
		f, err := safefile.OpenFile(p, flag, 0o644)
		if err != nil {
			return struct{}{}, err
		}
		if _, err := f.WriteString(data); err != nil {
			f.Close()
			return struct{}{}, err
		}
		return struct{}{}, f.Close()
	}, nil)
	return err
}

// listDir returns the sorted names in the directory p, at most max of
// them, checking ctx between batches.
func listDir(ctx context.Context, p string, max int) ([]string, error) {
	d, err := safefile.OpenDir(p)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	var names []string
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		batch, err := d.ReadDir(1024)
		for _, e := range batch {
			names = append(names, e.Name())
		}
		if len(names) > max {
			return nil, fmt.Errorf("%s: %w (more than %d)", p, errTooMany, max)
		}
		if errors.Is(err, io.EOF) || len(batch) == 0 {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(names)
	return names, nil
}

// glob returns the sorted matches of pattern under base, relative to it.
// When check is not nil, every directory the walk reads and every path it
// stats must pass check (after symbolic links are resolved), and so must
// every match: a link inside the roots to a place outside them lists
// nothing and matches nothing. The walk checks ctx at every step and stops
// past max matches.
func glob(ctx context.Context, base, pattern string, check func(string) bool, max int) ([]string, error) {
	if !doublestar.ValidatePattern(pattern) {
		return nil, fmt.Errorf("invalid pattern %q", pattern)
	}
	fsys := &guardFS{ctx: ctx, base: base, check: check}
	var matches []string
	err := doublestar.GlobWalk(fsys, pattern, func(m string, _ fs.DirEntry) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if check != nil && !check(filepath.Join(base, filepath.FromSlash(m))) {
			return nil
		}
		if len(matches) == max {
			return fmt.Errorf("%w (more than %d matches)", errTooMany, max)
		}
		matches = append(matches, m)
		return nil
	})
	if cerr := ctx.Err(); cerr != nil {
		// The walk takes a refused directory for a missing one, so an
		// ended context shows here.
		return nil, cerr
	}
	if err != nil {
		return nil, err
	}
	sort.Strings(matches)
	return matches, nil
}

// guardFS is the file system a glob walks: a directory tree that checks
// the context before every operation and refuses, as if they were
// permission errors, directories and paths that fail check.
type guardFS struct {
	ctx   context.Context
	base  string
	check func(string) bool
}

func (g *guardFS) path(op, name string) (string, error) {
	if err := g.ctx.Err(); err != nil {
		return "", err
	}
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	p := filepath.Join(g.base, filepath.FromSlash(name))
	if g.check != nil && !g.check(p) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrPermission}
	}
	return p, nil
}

// Open implements fs.FS; it opens directories only (a glob never reads a
// file's contents).
func (g *guardFS) Open(name string) (fs.File, error) {
	p, err := g.path("open", name)
	if err != nil {
		return nil, err
	}
	return safefile.OpenDir(p)
}

// ReadDir implements fs.ReadDirFS.
func (g *guardFS) ReadDir(name string) ([]fs.DirEntry, error) {
	p, err := g.path("readdir", name)
	if err != nil {
		return nil, err
	}
	d, err := safefile.OpenDir(p)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	var out []fs.DirEntry
	for {
		if err := g.ctx.Err(); err != nil {
			return nil, err
		}
		batch, err := d.ReadDir(1024)
		out = append(out, batch...)
		if len(batch) == 0 || err != nil {
			break
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

// Stat implements fs.StatFS.
func (g *guardFS) Stat(name string) (fs.FileInfo, error) {
	p, err := g.path("stat", name)
	if err != nil {
		return nil, err
	}
	return os.Stat(p)
}
