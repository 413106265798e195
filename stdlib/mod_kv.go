package stdlib

import (
	"fmt"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/script"
	"github.com/hookctl/hookctl/state/kv"
)

// kvModule is hookctl/kv: state scoped to the session (default), the
// project or everything, with TTLs, atomic increment and compare-and-set.
func kvModule(o Options) script.Module {
	return func(vm *script.VM, module *goja.Object) {
		rt := vm.Runtime()
		throw := func(fname string, err error) { panic(rt.NewGoError(fmt.Errorf("kv.%s: %w", fname, err))) }
		// store returns the store scoped as the options say.
		store := func(opts map[string]any, fname string) kv.Store {
			scope := optString(opts, "scope")
			switch scope {
			case "", "session":
				// No session_id (or ""): the one scope of no session,
				// which no real session id shares.
				return kv.Scoped(o.Store, kv.SessionScope(payloadString(vm, "session_id")))
			case "project":
				dir := payloadString(vm, "cwd")
				if dir == "" {
					dir = vm.Dir()
				}
				return kv.Scoped(o.Store, kv.ProjectScope(dir))
			case "global":
				return kv.Scoped(o.Store, kv.GlobalScope)
			}
			panic(rt.NewTypeError(fmt.Sprintf("kv.%s: scope must be session, project or global, not %q", fname, scope)))
		}
		ttl := func(opts map[string]any, fname string) (d int64) {
			t, err := optDuration(opts, "ttl")
			if err != nil {
				panic(rt.NewTypeError("kv." + fname + ": " + err.Error()))
			}
			return int64(t)
		}
		set(module, map[string]fn{
			"get": func(c goja.FunctionCall) goja.Value {
				opts := options(c, 1)
				v, ok, err := store(opts, "get").Get(vm.Context(), argString(vm, c, 0, "kv.get"))
				if err != nil {
					throw("get", err)
				}
				if !ok {
					if d := c.Argument(1); d != nil {
						if def, has := opts["default"]; has {
							return rt.ToValue(def)
						}
					}
					return goja.Undefined()
				}
				return rt.ToValue(v)
			},
			"set": func(c goja.FunctionCall) goja.Value {
				opts := options(c, 2)
				if err := store(opts, "set").Set(vm.Context(), argString(vm, c, 0, "kv.set"), vm.Export(c.Argument(1)), durationOf(ttl(opts, "set"))); err != nil {
					throw("set", err)
				}
				return goja.Undefined()
			},
			"delete": func(c goja.FunctionCall) goja.Value {
				if err := store(options(c, 1), "delete").Delete(vm.Context(), argString(vm, c, 0, "kv.delete")); err != nil {
					throw("delete", err)
				}
				return goja.Undefined()
			},
			"incr": func(c goja.FunctionCall) goja.Value {
				delta := int64(1)
				optIdx := 1
				if v := c.Argument(1); !goja.IsUndefined(v) {
					if _, isObj := v.(*goja.Object); !isObj {
						delta = v.ToInteger()
						optIdx = 2
					}
				}
				opts := options(c, optIdx)
				n, err := store(opts, "incr").Incr(vm.Context(), argString(vm, c, 0, "kv.incr"), delta, durationOf(ttl(opts, "incr")))
				if err != nil {
					throw("incr", err)
				}
				return rt.ToValue(n)
			},
			"cas": func(c goja.FunctionCall) goja.Value {
				opts := options(c, 3)
				ok, err := store(opts, "cas").CompareAndSwap(vm.Context(), argString(vm, c, 0, "kv.cas"),
					vm.Export(c.Argument(1)), vm.Export(c.Argument(2)), durationOf(ttl(opts, "cas")))
				if err != nil {
					throw("cas", err)
				}
				return rt.ToValue(ok)
			},
			"keys": func(c goja.FunctionCall) goja.Value {
				prefix := ""
				if v := c.Argument(0); !goja.IsUndefined(v) && !goja.IsNull(v) {
					prefix = v.String()
				}
				keys, err := store(options(c, 1), "keys").Keys(vm.Context(), prefix)
				if err != nil {
					throw("keys", err)
				}
				out := make([]any, len(keys))
				for i, k := range keys {
					out[i] = k
				}
				return rt.ToValue(out)
			},
		})
	}
}
