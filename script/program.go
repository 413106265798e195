package script

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"

	"github.com/hookctl/hookctl/internal/jsrewrite"
)

// Program is a compiled handler: an inline function body or a CommonJS
// file. It belongs to the Pool that compiled it and is immutable.
type Program struct {
	id int
	// Name is the file the code is in (an HCL file for an inline body).
	Name string
	// Path is the absolute path of a script file ("" for inline code).
	Path   string
	inline *goja.Program
	// Map maps the positions of the compiled code back to Name.
	Map jsrewrite.Map
	// sync: the source cannot queue promise jobs, so a call may nest in
	// a fire's entry (entry.go).
	sync bool
}

// CompileInline compiles an inline handler body: the statements of a
// function with `event` and `ctx` in scope. name is the file the body is
// written in and line the line its first statement is on, so that errors
// and stack traces point into that file.
func (p *Pool) CompileInline(name, body string, line int) (*Program, error) {
	// The candidates (see package jsrewrite): the rewritten handler, then
	// the plain one when nothing was rewritten or the rewrite does not
	// compile; a body that awaits becomes an async function.
	for _, c := range jsrewrite.Inline(name, body, line, p.rewriteOptions()) {
		prog, err := compile(name, c.Code)
		if err == nil {
			return p.add(&Program{Name: name, inline: prog, Map: c.Map, sync: syncSource(body)}), nil
		}
		if c.Rewritten {
			continue
		}
		if c.Async || !strings.Contains(body, "await") {
			return nil, compileError(err, name, 0, c.Map.Shift, c.Map.Line)
		}
		// "await" in a plain function: try it as an async one.
	}
	panic("unreachable")
}

// rewriteOptions are the rewrites of this pool's programs: prefilters and
// result keys registered with the pool.
func (p *Pool) rewriteOptions() jsrewrite.Options {
	return jsrewrite.Options{Plan: p.code.addPlan, RegexpHelper: regexpHelper, Key: p.code.addKey, ResultHelper: resultHelper}
}

// CompileFile compiles a CommonJS script whose module.exports is the
// handler function (or an object with a `handler` or `default` function).
// The path is relative to the configuration directory and must stay inside
// it. The module is loaded once in a runtime now, so a missing module or an
// error in its top-level code is reported at load time.
func (p *Pool) CompileFile(path string) (*Program, error) {
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(p.dir, path)
	}
	abs = filepath.Clean(abs)
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if !within(p.dir, abs) {
		return nil, fmt.Errorf("script %s: outside the configuration directory %s", path, p.dir)
	}
	src, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("script %s: %w", path, err)
	}
	if len(src) > MaxSourceSize {
		return nil, fmt.Errorf("script %s: larger than %d bytes", path, MaxSourceSize)
	}
	// The same wrapper require() uses, all on the first line, so lines
	// match the file.
	wrapped := moduleWrapper + string(src) + "\n})"
	if _, err := compile(abs, wrapped); err != nil {
		return nil, compileError(err, abs, 0, len(moduleWrapper), 1)
	}
	prog := p.add(&Program{Name: abs, Path: abs, Map: jsrewrite.Map{File: abs, Line: 1, Shift: len(moduleWrapper)}, sync: syncSource(string(src))})
	vm, _, err := p.acquire(context.Background(), time.Time{}, time.Now())
	if err != nil {
		return nil, err
	}
	_, _, err = vm.function(context.Background(), prog, time.Time{})
	p.release(vm)
	if err != nil {
		return nil, err
	}
	return prog, nil
}

// compile parses then compiles, so syntax errors keep their positions.
func compile(name, src string) (*goja.Program, error) {
	ast, err := parser.ParseFile(nil, name, src, 0)
	if err != nil {
		return nil, err
	}
	return goja.CompileAST(ast, false)
}

func (p *Pool) add(prog *Program) *Program { return p.code.add(prog) }

// load evaluates the program in vm and returns what it exports.
func (prog *Program) load(vm *VM) (goja.Value, error) {
	if prog.inline != nil {
		v, err := vm.rt.RunProgram(prog.inline)
		if err != nil {
			return nil, vm.convertError(err)
		}
		return v, nil
	}
	exports, err := vm.req.Require(prog.Path)
	if err != nil {
		var ex *goja.Exception
		if !errors.As(err, &ex) {
			return nil, fmt.Errorf("script %s: %w", prog.Name, err)
		}
		return nil, vm.convertError(err)
	}
	if _, ok := goja.AssertFunction(exports); ok {
		return exports, nil
	}
	if o, ok := exports.(*goja.Object); ok {
		for _, k := range []string{"handler", "default"} {
			if f := o.Get(k); f != nil {
				if _, ok := goja.AssertFunction(f); ok {
					return f, nil
				}
			}
		}
	}
	return exports, nil
}
