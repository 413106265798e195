package lint

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
	"github.com/dop251/goja/token"
	"github.com/evanw/esbuild/pkg/api"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/jsrewrite"
	"github.com/hookctl/hookctl/internal/safefile"
)

// Payload paths in scripts: the member chains a handler reads on its
// event parameter (event.tool_input.comand, event["tool_input"]?.comand),
// where they can be seen statically. The event is the parameter of an
// inline js/ts body's function (event), the first parameter of a
// function assigned to module.exports or exports.NAME, and any parameter
// named event (the convention of hookctl's handlers, export default
// function (event)). TypeScript is stripped by esbuild first; a source
// that does not parse is not checked (its errors are the loader's).

// maxScriptLint bounds the size of a script file read for the check.
const maxScriptLint = 1 << 20

// eventParam is the conventional name of a handler's payload parameter.
const eventParam = "event"

// inlineHeader wraps an inline body in the function it is the body of.
const inlineHeader = "(async function (event, ctx) {"

// scriptPaths returns the payload paths the hook's js, ts or script
// handler reads, with their positions in the configuration or the script
// file.
func scriptPaths(hb *hcl.HookBlock) []payloadPath {
	switch hb.Kind {
	case "js", "ts":
		in, ok := hb.Body.Inline(hb.Kind)
		if !ok {
			return nil
		}
		cols := in.Columns()
		src := strings.Repeat("\n", in.Line-1) + inlineHeader + in.Text + "\n})"
		return jsPaths(src, in.File, hb.Kind == "ts", false, func(line, col int) (int, int) {
			i := line - in.Line
			if i == 0 {
				col -= len(inlineHeader)
			}
			if i >= 0 && i < len(cols) {
				col += cols[i]
			}
			return line, col
		})
	case "script":
		p, ok := hb.Body.Str("script")
		if !ok || p == "" {
			return nil
		}
		path := hb.Body.Path(p)
		st, err := os.Stat(path)
		if err != nil || !st.Mode().IsRegular() || st.Size() > maxScriptLint {
			return nil
		}
		b, err := safefile.ReadRegular(path)
		if err != nil {
			return nil
		}
		ext := strings.ToLower(filepath.Ext(path))
		return jsPaths(string(b), path, ext == ".ts" || ext == ".mts" || ext == ".cts", true, nil)
	}
	return nil
}

// jsPaths parses a script and returns the paths read on its event
// parameter. module says src is a file (an ES module is made CommonJS);
// pos turns a line and column of src into the file's (nil: the same).
func jsPaths(src, name string, ts, module bool, pos func(line, col int) (int, int)) []payloadPath {
	prog, err := parser.ParseFile(nil, name, src, 0, parser.WithDisableSourceMaps)
	if err != nil || ts {
		// TypeScript, or an ES module: esbuild makes it a script goja
		// parses, and its source map gives the positions back.
		opts := api.TransformOptions{
			Sourcefile: name, Loader: api.LoaderJS, Target: api.ES2020, Platform: api.PlatformNeutral,
			Sourcemap: api.SourceMapInline, SourcesContent: api.SourcesContentExclude,
			LegalComments: api.LegalCommentsNone, Charset: api.CharsetUTF8, LogLevel: api.LogLevelSilent,
			Supported: map[string]bool{"dynamic-import": false},
		}
		if ts {
			opts.Loader = api.LoaderTS
		}
		if module {
			opts.Format = api.FormatCommonJS
		}
		res := api.Transform(src, opts)
		if len(res.Errors) > 0 {
			return nil
		}
		prog, err = parser.ParseFile(nil, name, string(res.Code), 0, parser.WithSourceMapLoader(func(string) ([]byte, error) {
			return nil, os.ErrNotExist // only the inline map
		}))
		if err != nil {
			return nil
		}
	}
	f := prog.File
	mapped := f.Source() != src
	lines := strings.Split(src, "\n")
	at := func(idx file.Idx, text string) (hcl.Range, bool) {
		if int(idx) < f.Base() {
			return hcl.Range{}, false
		}
		p := f.Position(int(idx) - f.Base())
		if p.Line < 1 {
			return hcl.Range{}, false
		}
		line, col := p.Line, p.Column
		if mapped && line <= len(lines) {
			// A source map points at the start of an expression: the
			// name is at or after it on its line.
			l := lines[line-1]
			if col-1 <= len(l) {
				if i := strings.Index(l[col-1:], text); i >= 0 {
					col += i
				}
			}
		}
		length := len(text)
		if pos != nil {
			line, col = pos(line, col)
		}
		r := hcl.Range{Filename: name}
		r.Start.Line, r.Start.Column = line, col
		r.End.Line, r.End.Column = line, col+length
		return r, true
	}

	w := &jsWalker{handlers: map[ast.Node]bool{}, stack: []frame{{}}}
	var out []payloadPath
	seen := map[string]bool{}
	record := func(c chainRef) {
		// Object.prototype's members (event.tool_input.hasOwnProperty)
		// are on every object: the path the payload gives ends before.
		if i := slices.IndexFunc(c.elems, isProtoMember); i >= 0 {
			c.elems = c.elems[:i]
		}
		if len(c.elems) == 0 {
			return
		}
		key := strings.Join(c.elems, "\x00")
		if seen[key] {
			return
		}
		seen[key] = true
		out = append(out, payloadPath{elems: c.elems, at: func(i int) (hcl.Range, bool) {
			if i >= len(c.idxs) {
				return hcl.Range{}, false
			}
			return at(c.idxs[i], c.texts[i])
		}})
	}
	jsrewrite.Walk(prog, func(n any, enter bool) bool {
		switch x := n.(type) {
		case *ast.FunctionLiteral:
			w.scope(x, x.ParameterList, enter)
		case *ast.ArrowFunctionLiteral:
			w.scope(x, x.ParameterList, enter)
		case *ast.AssignExpression:
			if enter && isExports(x.Left) {
				switch fn := x.Right.(type) {
				case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
					w.handlers[fn] = true
				}
			}
		case *ast.LexicalDeclaration:
			if enter {
				w.declare(x.List, x.Token == token.CONST, record)
			}
		case *ast.VariableStatement:
			if enter {
				w.declare(x.List, false, record)
			}
		case *ast.DotExpression, *ast.BracketExpression:
			if !enter {
				return true
			}
			c, ok := w.chain(x.(ast.Expression))
			if !ok {
				return true
			}
			record(c)
			// Computed members may read the event too.
			return hasComputed(x)
		}
		return true
	})
	return out
}

// chainRef is a path read on the event, with the position and source
// text of each element.
type chainRef struct {
	elems []string
	idxs  []file.Idx
	texts []string
	// cut is set when a computed member ends what is known of the path.
	cut bool
}

func (c chainRef) with(elem string, idx file.Idx, text string) chainRef {
	return chainRef{
		elems: append(slices.Clip(c.elems), elem),
		idxs:  append(slices.Clip(c.idxs), idx),
		texts: append(slices.Clip(c.texts), text),
	}
}

// frame is a function's scope: the name that holds the event there, the
// constants that hold a part of it (const input = event.tool_input), and
// the names its parameters hide.
type frame struct {
	event   string
	aliases map[string]chainRef
	hidden  map[string]bool
}

// jsWalker tracks, function by function, the names that hold the event
// or a part of it.
type jsWalker struct {
	handlers map[ast.Node]bool
	stack    []frame
}

func (w *jsWalker) current() string { return w.stack[len(w.stack)-1].event }

// alias returns the path a constant holds, if it holds a part of the
// event.
func (w *jsWalker) alias(name string) (chainRef, bool) {
	for i := len(w.stack) - 1; i >= 0; i-- {
		f := w.stack[i]
		if f.hidden[name] {
			return chainRef{}, false
		}
		if c, ok := f.aliases[name]; ok {
			return c, true
		}
	}
	return chainRef{}, false
}

// scope enters or leaves a function: a handler's first parameter is the
// event; a parameter that shadows the event's name hides it, as it hides
// a constant of an outer function.
func (w *jsWalker) scope(fn ast.Node, params *ast.ParameterList, enter bool) {
	if !enter {
		if len(w.stack) > 1 {
			w.stack = w.stack[:len(w.stack)-1]
		}
		return
	}
	var names []string
	if params != nil {
		for _, b := range params.List {
			if id, ok := b.Target.(*ast.Identifier); ok {
				names = append(names, string(id.Name))
			} else {
				names = append(names, "")
			}
		}
	}
	f := frame{event: w.current(), hidden: map[string]bool{}}
	for _, n := range names {
		f.hidden[n] = true
	}
	switch {
	case len(names) > 0 && names[0] != "" && (w.handlers[fn] || names[0] == eventParam):
		f.event = names[0]
	case f.hidden[f.event]:
		f.event = ""
	}
	w.stack = append(w.stack, f)
}

// declare notes the declarations that read the event: a destructuring
// (const { command } = event.tool_input) reads each of its keys; a
// constant (const input = event.tool_input) names a part of the event for
// what follows (alias).
func (w *jsWalker) declare(list []*ast.Binding, constant bool, record func(chainRef)) {
	top := &w.stack[len(w.stack)-1]
	for _, b := range list {
		if b.Initializer == nil {
			continue
		}
		c, ok := w.chain(b.Initializer)
		if !ok {
			continue
		}
		cut := c.cut
		switch t := b.Target.(type) {
		case *ast.Identifier:
			if constant && !cut {
				if top.aliases == nil {
					top.aliases = map[string]chainRef{}
				}
				top.aliases[string(t.Name)] = c
			}
		case *ast.ObjectPattern:
			if cut {
				continue
			}
			for _, p := range t.Properties {
				switch p := p.(type) {
				case *ast.PropertyShort:
					k := c.with(string(p.Name.Name), p.Name.Idx, string(p.Name.Name))
					record(k)
					if constant {
						if top.aliases == nil {
							top.aliases = map[string]chainRef{}
						}
						top.aliases[string(p.Name.Name)] = k
					}
				case *ast.PropertyKeyed:
					if key, ok := p.Key.(*ast.StringLiteral); ok && !p.Computed {
						record(c.with(string(key.Value), key.Idx, key.Literal))
					}
				}
			}
		}
	}
}

// chain returns the path a member chain (or a name) reads on the event;
// ok is false when it is not rooted at the event or at a constant
// holding a part of it. The path stops at a computed member (cut).
func (w *jsWalker) chain(e ast.Expression) (chainRef, bool) {
	var c chainRef
	var cut bool
	var walk func(e ast.Expression) bool
	walk = func(e ast.Expression) bool {
		switch x := e.(type) {
		case *ast.Identifier:
			if w.current() != "" && string(x.Name) == w.current() {
				c = chainRef{elems: []string{}}
				return true
			}
			if a, ok := w.alias(string(x.Name)); ok {
				c = a
				return true
			}
			return false
		case *ast.OptionalChain:
			return walk(x.Expression)
		case *ast.Optional:
			return walk(x.Expression)
		case *ast.DotExpression:
			if !walk(x.Left) {
				return false
			}
			if !cut {
				c = c.with(string(x.Identifier.Name), x.Identifier.Idx, string(x.Identifier.Name))
			}
			return true
		case *ast.BracketExpression:
			if !walk(x.Left) {
				return false
			}
			if !cut {
				switch m := x.Member.(type) {
				case *ast.StringLiteral:
					c = c.with(string(m.Value), m.Idx, m.Literal)
				case *ast.NumberLiteral:
					c = c.with("0", m.Idx, m.Literal)
				default:
					cut = true
				}
			}
			return true
		}
		return false
	}
	if !walk(e) {
		return chainRef{}, false
	}
	c.cut = cut
	return c, true
}

// hasComputed reports whether a member chain has a computed member (whose
// expression the walk must still visit).
func hasComputed(e any) bool {
	for {
		switch x := e.(type) {
		case *ast.BracketExpression:
			if _, ok := x.Member.(*ast.StringLiteral); !ok {
				if _, ok := x.Member.(*ast.NumberLiteral); !ok {
					return true
				}
			}
			e = x.Left
		case *ast.DotExpression:
			e = x.Left
		case *ast.OptionalChain:
			e = x.Expression
		case *ast.Optional:
			e = x.Expression
		default:
			return false
		}
	}
}

// isExports reports whether an assignment target is module.exports,
// exports.NAME or module.exports.NAME.
func isExports(e ast.Expression) bool {
	d, ok := e.(*ast.DotExpression)
	if !ok {
		return false
	}
	switch l := d.Left.(type) {
	case *ast.Identifier:
		return l.Name == "module" && d.Identifier.Name == "exports" || l.Name == "exports"
	case *ast.DotExpression:
		id, ok := l.Left.(*ast.Identifier)
		return ok && id.Name == "module" && l.Identifier.Name == "exports"
	}
	return false
}

// lintScript warns about the payload paths a hook's script reads that
// its events' payloads do not have.
func lintScript(eng *engine.Engine, hb *hcl.HookBlock, warn func(hcl.Diagnostic)) {
	paths := scriptPaths(hb)
	if len(paths) == 0 {
		return
	}
	lintPaths(eng, hb.Hook, hb.RangeOf(hb.Kind), paths, "event.", warn)
}

// isProtoMember reports whether name is a member every JavaScript object
// has (Object.prototype's).
func isProtoMember(name string) bool {
	switch name {
	case "constructor", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable",
		"toLocaleString", "toString", "valueOf", "__proto__",
		"__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__":
		return true
	}
	return false
}
