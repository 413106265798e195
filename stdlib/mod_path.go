package stdlib

import (
	"path"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/lib/paths"
	"github.com/hookctl/hookctl/script"
)

// pathModule is hookctl/path: pure path helpers. Relative paths resolve
// against the event's cwd.
func pathModule(o Options) script.Module {
	return func(vm *script.VM, module *goja.Object) {
		rt := vm.Runtime()
		str := func(c goja.FunctionCall, i int, name string) string { return argString(vm, c, i, "path."+name) }
		set(module, map[string]fn{
			"normalize": func(c goja.FunctionCall) goja.Value { return rt.ToValue(paths.Normalize(str(c, 0, "normalize"))) },
			"expand":    func(c goja.FunctionCall) goja.Value { return rt.ToValue(paths.Expand(str(c, 0, "expand"), o.Home)) },
			"resolve": func(c goja.FunctionCall) goja.Value {
				cwd := payloadString(vm, "cwd")
				if v := c.Argument(1); !goja.IsUndefined(v) && !goja.IsNull(v) {
					cwd = v.String()
				}
				return rt.ToValue(paths.Resolve(str(c, 0, "resolve"), cwd, o.Home))
			},
			"isInside": func(c goja.FunctionCall) goja.Value {
				cwd := payloadString(vm, "cwd")
				p := paths.Resolve(str(c, 0, "isInside"), cwd, o.Home)
				root := paths.Resolve(str(c, 1, "isInside"), cwd, o.Home)
				return rt.ToValue(paths.Inside(paths.Real(p), paths.Real(root)))
			},
			"match": func(c goja.FunctionCall) goja.Value {
				return rt.ToValue(paths.Match(str(c, 1, "match"), str(c, 0, "match")))
			},
			"matchAny": func(c goja.FunctionCall) goja.Value {
				p := str(c, 0, "matchAny")
				return rt.ToValue(paths.MatchAny(stringList(script.Export(c.Argument(1))), p))
			},
			"basename":   func(c goja.FunctionCall) goja.Value { return rt.ToValue(paths.Base(str(c, 0, "basename"))) },
			"dirname":    func(c goja.FunctionCall) goja.Value { return rt.ToValue(paths.Dir(str(c, 0, "dirname"))) },
			"extname":    func(c goja.FunctionCall) goja.Value { return rt.ToValue(paths.Ext(str(c, 0, "extname"))) },
			"isAbsolute": func(c goja.FunctionCall) goja.Value { return rt.ToValue(path.IsAbs(str(c, 0, "isAbsolute"))) },
			"join": func(c goja.FunctionCall) goja.Value {
				parts := make([]string, len(c.Arguments))
				for i := range c.Arguments {
					parts[i] = str(c, i, "join")
				}
				return rt.ToValue(path.Join(parts...))
			},
			"home": func(goja.FunctionCall) goja.Value {
				if o.Home != "" {
					return rt.ToValue(o.Home)
				}
				return rt.ToValue(paths.Home())
			},
		})
	}
}
