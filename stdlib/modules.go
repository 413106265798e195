package stdlib

import (
	"embed"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"

	"github.com/hookctl/hookctl/internal/urlallow"
	"github.com/hookctl/hookctl/script"
	"github.com/hookctl/hookctl/state/kv"
)

//go:embed js/*.js
var jsSources embed.FS

// Capabilities a hook can be granted with allow = [...].
const (
	CapExec  = "exec"  // hookctl/exec
	CapNet   = "net"   // hookctl/http
	CapWrite = "write" // writing files: fs.write, fs.append, log.append
	CapRead  = "read"  // reading files outside the project and config roots
)

// Options configures the standard library of one configuration.
type Options struct {
	// Store backs hookctl/kv (in memory when nil).
	Store kv.Store
	// HTTPClient is used by hookctl/http (a client that follows no
	// redirects when nil). Whatever it is, every redirect it would follow
	// is checked against HTTPAllow too.
	HTTPClient *http.Client
	// HTTPAllow lists the URLs hookctl/http may reach, in the syntax of
	// package urlallow (scheme, host, port and a path prefix on segment
	// boundaries); empty means any http or https URL (the hook still
	// needs the "net" capability). Modules fails on an invalid entry.
	HTTPAllow []string
	// Logger receives what modules log.
	Logger *slog.Logger
	// Home overrides $HOME for path expansion (tests).
	Home string
}

// ModuleNames lists the standard library's modules, each available as
// require("hookctl/NAME").
var ModuleNames = []string{"decision", "exec", "fs", "http", "kv", "log", "path", "secrets", "shell", "transcript"}

// Modules returns the script pool options that register every module of
// the standard library (require("hookctl/NAME")) and the umbrella module
// require("hookctl") that holds them all.
func Modules(o Options) ([]script.Option, error) {
	if o.Store == nil {
		o.Store = kv.NewMemory()
	}
	allow, err := urlallow.Parse(o.HTTPAllow)
	if err != nil {
		return nil, fmt.Errorf("stdlib: %w", err)
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
			Timeout:       30 * time.Second,
		}
	}
	o.HTTPClient = allow.Client(o.HTTPClient)
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	decision, err := jsModule("js/decision.js")
	if err != nil {
		return nil, err
	}
	mods := map[string]script.Module{
		"decision":   decision,
		"path":       pathModule(o),
		"fs":         fsModule(o),
		"exec":       execModule(o),
		"http":       httpModule(o, allow),
		"kv":         kvModule(o),
		"log":        logModule(o),
		"secrets":    secretsModule(o),
		"shell":      shellModule(o),
		"transcript": transcriptModule(o),
	}
	opts := make([]script.Option, 0, len(mods)+1)
	for name, m := range mods {
		opts = append(opts, script.WithModule("hookctl/"+name, m))
	}
	opts = append(opts, script.WithModule("hookctl", func(vm *script.VM, module *goja.Object) {
		exports := module.Get("exports").(*goja.Object)
		for _, name := range ModuleNames {
			m := vm.Runtime().NewObject()
			_ = m.Set("exports", vm.Runtime().NewObject())
			mods[name](vm, m)
			_ = exports.Set(name, m.Get("exports"))
		}
	}))
	return opts, nil
}

// jsModule is an embedded CommonJS module, compiled when a runtime first
// requires it (once for all runtimes): a configuration whose hooks do not
// use it does not pay for compiling it. Each runtime runs the compiled
// program to get its own exports.
func jsModule(name string) (script.Module, error) {
	if _, err := fs.Stat(jsSources, name); err != nil {
		return nil, err
	}
	compiled := sync.OnceValues(func() (*goja.Program, error) { return compileJSModule(name) })
	return func(vm *script.VM, module *goja.Object) {
		rt := vm.Runtime()
		prog, err := compiled()
		if err != nil {
			panic(rt.NewGoError(err))
		}
		v, err := rt.RunProgram(prog)
		if err != nil {
			panic(rt.NewGoError(err))
		}
		fn, _ := goja.AssertFunction(v)
		if _, err := fn(goja.Undefined(), module, module.Get("exports")); err != nil {
			panic(err)
		}
	}, nil
}

// compileJSModule compiles the embedded module name as a function of
// module and exports.
func compileJSModule(name string) (*goja.Program, error) {
	src, err := jsSources.ReadFile(name)
	if err != nil {
		return nil, err
	}
	ast, err := parser.ParseFile(nil, "hookctl/"+strings.TrimSuffix(strings.TrimPrefix(name, "js/"), ".js"),
		"(function (module, exports) {"+string(src)+"\n})", 0)
	if err != nil {
		return nil, fmt.Errorf("stdlib %s: %w", name, err)
	}
	prog, err := goja.CompileAST(ast, true)
	if err != nil {
		return nil, fmt.Errorf("stdlib %s: %w", name, err)
	}
	return prog, nil
}

// fn is a native function.
type fn = func(goja.FunctionCall) goja.Value

// set installs native functions on a module's exports.
func set(module *goja.Object, fns map[string]fn) {
	exports := module.Get("exports").(*goja.Object)
	for name, f := range fns {
		_ = exports.Set(name, f)
	}
}

// argString returns argument i as a string, throwing a TypeError naming
// the function when it is missing or not a string.
func argString(vm *script.VM, c goja.FunctionCall, i int, fname string) string {
	v := c.Argument(i)
	if goja.IsUndefined(v) || goja.IsNull(v) {
		panic(vm.Runtime().NewTypeError(fmt.Sprintf("%s: argument %d must be a string", fname, i+1)))
	}
	if _, isObj := v.(*goja.Object); isObj {
		panic(vm.Runtime().NewTypeError(fmt.Sprintf("%s: argument %d must be a string", fname, i+1)))
	}
	return v.String()
}

// options reads an optional options object.
func options(c goja.FunctionCall, i int) map[string]any {
	v := c.Argument(i)
	if goja.IsUndefined(v) || goja.IsNull(v) {
		return nil
	}
	m, _ := script.Export(v).(map[string]any)
	return m
}

func optString(o map[string]any, k string) string {
	s, _ := o[k].(string)
	return s
}

func optInt(o map[string]any, k string, def int64) int64 {
	switch n := o[k].(type) {
	case int64:
		return n
	case float64:
		return int64(n)
	case int:
		return int64(n)
	}
	return def
}

// optDuration reads a duration given in milliseconds or as a Go duration
// string ("500ms", "5s").
func optDuration(o map[string]any, k string) (time.Duration, error) {
	switch v := o[k].(type) {
	case nil:
		return 0, nil
	case string:
		d, err := time.ParseDuration(v)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", k, err)
		}
		return d, nil
	case int64:
		return time.Duration(v) * time.Millisecond, nil
	case float64:
		return time.Duration(v * float64(time.Millisecond)), nil
	}
	return 0, fmt.Errorf("%s: want milliseconds or a duration string", k)
}

// payloadString reads a string field of the current call's payload.
func payloadString(vm *script.VM, k string) string {
	if c := vm.Call(); c != nil {
		s, _ := c.Payload[k].(string)
		return s
	}
	return ""
}

// stringList converts an exported list of strings ([]any of strings, or a
// single string) to []string; anything else yields nil.
func stringList(v any) []string {
	switch l := v.(type) {
	case []string:
		return l
	case string:
		return []string{l}
	case []any:
		out := make([]string, 0, len(l))
		for _, x := range l {
			s, ok := x.(string)
			if !ok {
				return nil
			}
			out = append(out, s)
		}
		return out
	}
	return nil
}
