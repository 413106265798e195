package stdlib

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/script"
	"github.com/hookctl/hookctl/stdlib/paths"
)

// DefaultReadLimit bounds fs.read when maxBytes is not given.
const DefaultReadLimit = 1 << 20

// fsModule is hookctl/fs: bounded reads inside the project and
// configuration roots (anywhere with the "read" capability) and, with the
// "write" capability, writes inside the roots.
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
		set(module, map[string]fn{
			"read": func(c goja.FunctionCall) goja.Value {
				p := resolve(c, "read", false)
				limit := optInt(options(c, 1), "maxBytes", DefaultReadLimit)
				f, err := os.Open(p)
				if err != nil {
					throw("read", err)
				}
				defer f.Close()
				b, err := io.ReadAll(io.LimitReader(f, limit))
				if err != nil {
					throw("read", err)
				}
				return rt.ToValue(string(b))
			},
			"exists": func(c goja.FunctionCall) goja.Value {
				_, err := os.Stat(resolve(c, "exists", false))
				return rt.ToValue(err == nil)
			},
			"stat": func(c goja.FunctionCall) goja.Value {
				fi, err := os.Stat(resolve(c, "stat", false))
				if errors.Is(err, fs.ErrNotExist) {
					return goja.Null()
				}
				if err != nil {
					throw("stat", err)
				}
				return rt.ToValue(map[string]any{
					"size": fi.Size(), "isDir": fi.IsDir(), "mode": fi.Mode().Perm().String(),
					"mtimeMs": fi.ModTime().UnixMilli(),
				})
			},
			"list": func(c goja.FunctionCall) goja.Value {
				entries, err := os.ReadDir(resolve(c, "list", false))
				if err != nil {
					throw("list", err)
				}
				names := make([]any, len(entries))
				for i, e := range entries {
					names[i] = e.Name()
				}
				return rt.ToValue(names)
			},
			"glob": func(c goja.FunctionCall) goja.Value {
				pattern := argString(vm, c, 0, "fs.glob")
				base := payloadString(vm, "cwd")
				if d := optString(options(c, 1), "cwd"); d != "" {
					base = d
				}
				if base == "" {
					base = vm.Dir()
				}
				if !vm.Allowed(CapRead) && !vm.Within(base) {
					throw("glob", fmt.Errorf("%s is outside the project and configuration roots", base))
				}
				matches, err := doublestar.Glob(os.DirFS(base), pattern)
				if err != nil {
					throw("glob", err)
				}
				sort.Strings(matches)
				out := make([]any, len(matches))
				for i, m := range matches {
					out[i] = m
				}
				return rt.ToValue(out)
			},
			"write": func(c goja.FunctionCall) goja.Value {
				vm.Require(CapWrite, "fs.write")
				p := resolve(c, "write", true)
				if err := os.WriteFile(p, []byte(argString(vm, c, 1, "fs.write")), 0o644); err != nil {
					throw("write", err)
				}
				return goja.Undefined()
			},
			"append": func(c goja.FunctionCall) goja.Value {
				vm.Require(CapWrite, "fs.append")
				p := resolve(c, "append", true)
				f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
				if err != nil {
					throw("append", err)
				}
				defer f.Close()
				if _, err := f.WriteString(argString(vm, c, 1, "fs.append")); err != nil {
					throw("append", err)
				}
				return goja.Undefined()
			},
			"mkdir": func(c goja.FunctionCall) goja.Value {
				vm.Require(CapWrite, "fs.mkdir")
				if err := os.MkdirAll(resolve(c, "mkdir", true), 0o755); err != nil {
					throw("mkdir", err)
				}
				return goja.Undefined()
			},
		})
	}
}
