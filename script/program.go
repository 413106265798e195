package script

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"

	"github.com/hookctl/hookctl/internal/jsrewrite"
	"github.com/hookctl/hookctl/internal/safefile"
)

// Program is a compiled handler: an inline function body or a CommonJS
// file (TypeScript and ES modules transformed into one). It belongs to the
// Pool that compiled it and is immutable.
type Program struct {
	id int
	// Name is the file the code is in (an HCL file for an inline body).
	Name string
	// Path is the absolute path of a script file ("" for inline code).
	Path   string
	inline *goja.Program
	// factory: inline is a rewritten handler's factory (package
	// internal/jsrewrite), called with the runtime's helpers.
	factory bool
	// Map maps the positions of the compiled code back to Name.
	Map jsrewrite.Map
	// compiledAs is the name an inline JavaScript body is compiled under
	// (programs.inlineName), whose positions Map turns into Name's.
	compiledAs string
	// Line is the line of Name an inline body starts on.
	Line int
	// TypeScript says the source is TypeScript; Module that it is an ES
	// module (import/export), transformed into CommonJS.
	TypeScript, Module bool
	// info is what errors about the program's results and exports say
	// (srcpos.go).
	info srcinfo
}

// CompileInline compiles an inline handler body: the statements of a
// function with `event` and `ctx` in scope. name is the file the body is
// written in and line the line its first statement is on, so that errors
// and stack traces point into that file.
func (p *Pool) CompileInline(name, body string, line int) (*Program, error) {
	return p.CompileBody(Body{File: name, Line: line, Text: body})
}

// compileJSBody compiles an inline JavaScript body.
func (p *Pool) compileJSBody(b Body) (*Program, error) {
	name, body, line := b.File, b.Text, b.Line
	// The code starts at the body's first line (no padding to the
	// file's), under a name of its own whose Map turns its positions
	// into the file's (programs.inline).
	as := p.code.inlineName(name, p.dir, line)
	// The candidates (see package jsrewrite): the rewritten handler, then
	// the plain one when nothing was rewritten or the rewrite does not
	// compile; a body that awaits becomes an async function.
	for _, c := range jsrewrite.Inline(name, body, line, p.rewriteOptions()) {
		p.code.setInline(as, c.Map) // before errors and the analysis read positions
		tree, prog, err := p.compileSource(as, c.Code)
		if err == nil {
			return p.add(&Program{Name: name, compiledAs: as, inline: prog, factory: c.Rewritten, Map: c.Map, Line: line, info: p.code.analyze(tree, nil)}), nil
		}
		if c.Rewritten {
			continue
		}
		if c.Async || !strings.Contains(body, "await") {
			se := compileError(err, as, 0, 0, &p.code)
			se.Hint = bodyHint(body)
			return nil, se
		}
		// "await" in a plain function: try it as an async one.
	}
	panic("unreachable")
}

// rewriteOptions are the rewrites of this pool's programs: result keys and
// constant results registered with the pool, less the fast paths turned
// off.
func (p *Pool) rewriteOptions() jsrewrite.Options {
	o := jsrewrite.Options{ResultHelper: resultHelper, ConstHelper: constHelper, TestHelper: testHelper, Literals: p.off&fastLiterals == 0}
	if p.off&fastReturns == 0 {
		o.Key = p.code.addKey
		if p.off&fastConsts == 0 {
			o.Const = p.code.addConst
		}
	}
	return o
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
	src, err := safefile.ReadRegular(abs)
	if err != nil {
		return nil, fmt.Errorf("script %s: %w", path, err)
	}
	if len(src) > MaxSourceSize {
		return nil, fmt.Errorf("script %s: larger than %d bytes", path, MaxSourceSize)
	}
	prog := &Program{Name: abs, Path: abs, Map: jsrewrite.Map{File: abs, Line: 1, Shift: len(moduleWrapper)}}
	prog.Module, prog.TypeScript = fileLanguage(abs, src)
	// What require() will run (loadSource): TypeScript and ES modules
	// transformed, with a source map naming the file.
	code, err := p.moduleCode(abs, abs, src)
	if err != nil {
		return nil, err
	}
	wrapped := moduleWrapper + code + "\n})"
	tree, _, err := p.compileSource(abs, wrapped)
	if err != nil {
		var se *SyntaxError
		if prog.Module {
			se = p.code.transformedError(err, wrapped, jsrewrite.Map{File: abs, Line: 1})
		} else {
			se = compileError(err, abs, p.code.shift(abs, 1), 1, &p.code)
		}
		se.Hint = fileHint(abs, src, se, prog.Module)
		return nil, se
	}
	prog.info = p.code.analyze(tree, func(fn *ast.FunctionLiteral) bool { return true })
	prog.info.esm = prog.Module
	prog = p.add(prog)
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

// compile parses then compiles, so syntax errors keep their positions. A
// source map the code names (a transform's, inline) is applied to every
// position; one in a file is read as a module file is, inside the
// configuration directory.
func (p *Pool) compileSource(name, src string) (*ast.Program, *goja.Program, error) {
	tree, err := parser.ParseFile(nil, name, src, 0, parser.WithSourceMapLoader(p.loadSource))
	if err != nil {
		return nil, nil, err
	}
	prog, err := goja.CompileAST(tree, false)
	if err != nil {
		return nil, nil, err
	}
	return tree, prog, nil
}

// compile parses then compiles with goja's default options.
func compile(name, src string) (*goja.Program, error) {
	tree, err := parser.ParseFile(nil, name, src, 0)
	if err != nil {
		return nil, err
	}
	return goja.CompileAST(tree, false)
}

func (p *Pool) add(prog *Program) *Program { return p.code.add(prog) }

// load evaluates the program in vm and returns what it exports.
func (prog *Program) load(vm *VM) (goja.Value, error) {
	if prog.inline != nil {
		v, err := vm.rt.RunProgram(prog.inline)
		if err == nil && prog.factory {
			factory, ok := goja.AssertFunction(v)
			if !ok {
				return nil, fmt.Errorf("script %s: the rewritten handler is not a function", prog.Name)
			}
			v, err = factory(goja.Undefined(), vm.resultFn, vm.constFn, vm.testFn)
		}
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
