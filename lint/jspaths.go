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
// inline js/ts body's function (event); the first parameter of the
// function the loader calls, whatever its name: the one assigned to
// module.exports or exports.NAME, directly or by name (function
// handler(ev) {} module.exports = handler), and an ES module's default
// export or its export named handler; and a parameter named event of a
// function outside any handler (the convention of hookctl's handlers).
// Names are resolved by scope: any binding of the event's name in an
// inner function, block, loop, catch or method hides it there, as it
// hides a constant holding a part of it. TypeScript is stripped by
// esbuild first; a source that does not parse is not checked (its errors
// are the loader's).

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
		// The body from its first line, not padded to the file's: its
		// line i+1 is the file's in.Line+i.
		src := inlineHeader + in.Text + "\n})"
		return jsPaths(src, in.File, hb.Kind == "ts", false, func(line, col int) (int, int) {
			i := line - 1
			if i == 0 {
				col -= len(inlineHeader)
			}
			if i >= 0 && i < len(cols) {
				col += cols[i]
			}
			return in.Line + i, col
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

	w := &jsWalker{jsInfo: analyse(prog), stack: []frame{{}}}
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
			w.function(x, x.ParameterList, x.DeclarationList, enter)
		case *ast.ArrowFunctionLiteral:
			w.function(x, x.ParameterList, x.DeclarationList, enter)
		case *ast.BlockStatement:
			w.block(enter, lexicalNames(x.List))
		case *ast.SwitchStatement:
			var names []string
			for _, c := range x.Body {
				names = append(names, lexicalNames(c.Consequent)...)
			}
			w.block(enter, names)
		case *ast.ForStatement:
			var names []string
			if d, ok := x.Initializer.(*ast.ForLoopInitializerLexicalDecl); ok {
				for _, b := range d.LexicalDeclaration.List {
					names = bindingNames(b.Target, names)
				}
			}
			w.block(enter, names)
		case *ast.ForInStatement:
			w.block(enter, forNames(x.Into))
		case *ast.ForOfStatement:
			w.block(enter, forNames(x.Into))
		case *ast.CatchStatement:
			w.block(enter, bindingNames(x.Parameter, nil))
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

// frame is a scope (a function's, a block's): the name that holds the
// event there, the names that hold a part of it (const input =
// event.tool_input), and the names declared there, which hide the
// outer scopes' (hidden).
type frame struct {
	event   string
	aliases map[string]chainRef
	hidden  map[string]bool
	// inside is set within a function that had the event.
	inside bool
}

// jsWalker tracks, scope by scope, the names that hold the event or a
// part of it.
type jsWalker struct {
	*jsInfo
	stack []frame
}

func (w *jsWalker) current() string { return w.stack[len(w.stack)-1].event }

// alias returns the path a name holds, if it holds a part of the event.
func (w *jsWalker) alias(name string) (chainRef, bool) {
	for i := len(w.stack) - 1; i >= 0; i-- {
		f := w.stack[i]
		if c, ok := f.aliases[name]; ok {
			return c, true
		}
		if f.hidden[name] {
			return chainRef{}, false
		}
	}
	return chainRef{}, false
}

// push enters a scope declaring names: one of them that is the event's
// name hides the event.
func (w *jsWalker) push(event string, names []string) {
	top := w.stack[len(w.stack)-1]
	f := frame{event: event, hidden: make(map[string]bool, len(names)), inside: top.inside || top.event != ""}
	for _, n := range names {
		f.hidden[n] = true
	}
	if f.hidden[f.event] {
		f.event = ""
	}
	w.stack = append(w.stack, f)
}

func (w *jsWalker) pop() {
	if len(w.stack) > 1 {
		w.stack = w.stack[:len(w.stack)-1]
	}
}

// block enters or leaves a block, a loop or a catch clause and the names
// it declares.
func (w *jsWalker) block(enter bool, names []string) {
	if !enter {
		w.pop()
		return
	}
	w.push(w.current(), names)
}

// function enters or leaves a function: the first parameter of a handler
// is the event, as is a parameter named event of a function (not a
// method) outside any handler; any other binding of the event's name (a
// parameter, destructured or not, a var) hides it.
func (w *jsWalker) function(fn ast.Node, params *ast.ParameterList, vars []*ast.VariableDeclaration, enter bool) {
	if !enter {
		w.pop()
		return
	}
	var names []string
	if lit, ok := fn.(*ast.FunctionLiteral); ok && lit.Name != nil {
		// A function expression's own name is bound inside it.
		names = append(names, string(lit.Name.Name))
	}
	first := ""
	if params != nil {
		for i, b := range params.List {
			if id, ok := b.Target.(*ast.Identifier); ok && i == 0 {
				first = string(id.Name)
			}
			names = bindingNames(b.Target, names)
		}
		if params.Rest != nil {
			names = bindingNames(params.Rest, names)
		}
	}
	for _, d := range vars {
		for _, b := range d.List {
			names = bindingNames(b.Target, names)
		}
	}
	top := w.stack[len(w.stack)-1]
	outside := !top.inside && top.event == ""
	if first != "" && (w.handlers[fn] || outside && first == eventParam && !w.methods[fn]) {
		w.push("", names)
		w.stack[len(w.stack)-1].event = first
		return
	}
	w.push(top.event, names)
}

// declare notes the declarations that read the event: a destructuring
// (const { command } = event.tool_input, const { tool_input: { command } }
// = event) reads each of its keys; a name bound to a part of the event
// (const input = event.tool_input, const { tool_input: ti } = event)
// holds it for what follows (alias), when it is a constant or a let or
// var never assigned again.
func (w *jsWalker) declare(list []*ast.Binding, constant bool, record func(chainRef)) {
	for _, b := range list {
		if b.Initializer == nil {
			continue
		}
		c, ok := w.chain(b.Initializer)
		if !ok {
			continue
		}
		w.bind(b.Target, c, constant, record, 0)
	}
}

// maxPatternDepth bounds how deep a destructuring is followed.
const maxPatternDepth = 32

// bind binds a declaration's target to the path its value reads.
func (w *jsWalker) bind(target ast.Expression, c chainRef, constant bool, record func(chainRef), depth int) {
	if c.cut || depth > maxPatternDepth {
		return
	}
	top := &w.stack[len(w.stack)-1]
	hold := func(name string, c chainRef) {
		if !constant && w.assigned[name] {
			return
		}
		if top.aliases == nil {
			top.aliases = map[string]chainRef{}
		}
		top.aliases[name] = c
	}
	switch t := target.(type) {
	case *ast.Identifier:
		hold(string(t.Name), c)
	case *ast.AssignExpression:
		// A default value: the key is read all the same.
		w.bind(t.Left, c, constant, record, depth+1)
	case *ast.ObjectPattern:
		for _, p := range t.Properties {
			switch p := p.(type) {
			case *ast.PropertyShort:
				k := c.with(string(p.Name.Name), p.Name.Idx, string(p.Name.Name))
				record(k)
				hold(string(p.Name.Name), k)
			case *ast.PropertyKeyed:
				if key, ok := p.Key.(*ast.StringLiteral); ok && !p.Computed {
					k := c.with(string(key.Value), key.Idx, key.Literal)
					record(k)
					w.bind(p.Value, k, constant, record, depth+1)
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

// jsInfo is what a first pass over a script finds: the functions the
// loader calls (handlers), the methods (whose parameter named event is
// not the convention's) and the names assigned after their declaration.
type jsInfo struct {
	handlers map[ast.Node]bool
	methods  map[ast.Node]bool
	assigned map[string]bool
}

// maxExportHops bounds how many names an export is followed through
// (export default handler; var x_default = handler).
const maxExportHops = 8

// analyse finds a script's handlers, methods and assigned names. A
// handler is a function assigned to module.exports or exports.NAME,
// directly or by name, or an ES module's default export or its export
// named handler (esbuild writes them as __export(m, { default: () =>
// NAME })).
func analyse(prog *ast.Program) *jsInfo {
	in := &jsInfo{handlers: map[ast.Node]bool{}, methods: map[ast.Node]bool{}, assigned: map[string]bool{}}
	fns := map[string]ast.Node{}
	vars := map[string]string{}
	var exported []string
	isFn := func(e ast.Expression) (ast.Node, bool) {
		switch fn := e.(type) {
		case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
			return fn, true
		}
		return nil, false
	}
	declared := func(list []*ast.Binding) {
		for _, b := range list {
			id, ok := b.Target.(*ast.Identifier)
			if !ok || b.Initializer == nil {
				continue
			}
			if fn, ok := isFn(b.Initializer); ok {
				fns[string(id.Name)] = fn
			} else if v, ok := b.Initializer.(*ast.Identifier); ok {
				vars[string(id.Name)] = string(v.Name)
			}
		}
	}
	jsrewrite.Walk(prog, func(n any, enter bool) bool {
		if !enter {
			return true
		}
		switch x := n.(type) {
		case *ast.AssignExpression:
			if isExports(x.Left) {
				if fn, ok := isFn(x.Right); ok {
					in.handlers[fn] = true
				} else if id, ok := x.Right.(*ast.Identifier); ok && loaderCalls(x.Left) {
					exported = append(exported, string(id.Name))
				}
			}
			for _, name := range bindingNames(x.Left, nil) {
				in.assigned[name] = true
			}
		case *ast.UnaryExpression:
			if id, ok := x.Operand.(*ast.Identifier); ok && (x.Operator == token.INCREMENT || x.Operator == token.DECREMENT) {
				in.assigned[string(id.Name)] = true
			}
		case *ast.ForIntoExpression:
			for _, name := range bindingNames(x.Expression, nil) {
				in.assigned[name] = true
			}
		case *ast.CallExpression:
			exported = append(exported, esbuildExports(x)...)
		case *ast.FunctionDeclaration:
			if x.Function.Name != nil {
				fns[string(x.Function.Name.Name)] = x.Function
			}
		case *ast.VariableStatement:
			declared(x.List)
		case *ast.LexicalDeclaration:
			declared(x.List)
		case *ast.MethodDefinition:
			in.methods[x.Body] = true
		case *ast.PropertyKeyed:
			if x.Kind != ast.PropertyKindValue {
				if fn, ok := isFn(x.Value); ok {
					in.methods[fn] = true
				}
			}
		}
		return true
	})
	for _, name := range exported {
		for range maxExportHops {
			if fn, ok := fns[name]; ok {
				in.handlers[fn] = true
				break
			}
			next, ok := vars[name]
			if !ok {
				break
			}
			name = next
		}
	}
	return in
}

// esbuildExports returns the names an ES module made CommonJS by esbuild
// exports as its handler: __export(m, { default: () => NAME, handler: ()
// => NAME }).
func esbuildExports(call *ast.CallExpression) []string {
	callee, ok := call.Callee.(*ast.Identifier)
	if !ok || callee.Name != "__export" || len(call.ArgumentList) != 2 {
		return nil
	}
	obj, ok := call.ArgumentList[1].(*ast.ObjectLiteral)
	if !ok {
		return nil
	}
	var names []string
	for _, p := range obj.Value {
		k, ok := p.(*ast.PropertyKeyed)
		if !ok || k.Computed {
			continue
		}
		key, ok := k.Key.(*ast.StringLiteral)
		if !ok || key.Value != "default" && key.Value != "handler" {
			continue
		}
		arrow, ok := k.Value.(*ast.ArrowFunctionLiteral)
		if !ok {
			continue
		}
		if body, ok := arrow.Body.(*ast.ExpressionBody); ok {
			if id, ok := body.Expression.(*ast.Identifier); ok {
				names = append(names, string(id.Name))
			}
		}
	}
	return names
}

// bindingNames appends the names a binding target (a name, a
// destructuring pattern, with defaults and rests) binds.
func bindingNames(target ast.Node, names []string) []string {
	switch t := target.(type) {
	case *ast.Identifier:
		return append(names, string(t.Name))
	case *ast.AssignExpression:
		return bindingNames(t.Left, names)
	case *ast.ObjectPattern:
		for _, p := range t.Properties {
			switch p := p.(type) {
			case *ast.PropertyShort:
				names = append(names, string(p.Name.Name))
			case *ast.PropertyKeyed:
				names = bindingNames(p.Value, names)
			}
		}
		return bindingNames(t.Rest, names)
	case *ast.ArrayPattern:
		for _, e := range t.Elements {
			names = bindingNames(e, names)
		}
		return bindingNames(t.Rest, names)
	case *ast.ObjectLiteral:
		// An assignment's destructuring target.
		for _, p := range t.Value {
			switch p := p.(type) {
			case *ast.PropertyShort:
				names = append(names, string(p.Name.Name))
			case *ast.PropertyKeyed:
				names = bindingNames(p.Value, names)
			}
		}
	case *ast.ArrayLiteral:
		for _, e := range t.Value {
			names = bindingNames(e, names)
		}
	case *ast.SpreadElement:
		return bindingNames(t.Expression, names)
	}
	return names
}

// lexicalNames returns the names a block's statements declare in it (let,
// const, class and function declarations).
func lexicalNames(list []ast.Statement) []string {
	var names []string
	for _, st := range list {
		switch d := st.(type) {
		case *ast.LexicalDeclaration:
			for _, b := range d.List {
				names = bindingNames(b.Target, names)
			}
		case *ast.FunctionDeclaration:
			if d.Function.Name != nil {
				names = append(names, string(d.Function.Name.Name))
			}
		case *ast.ClassDeclaration:
			if d.Class.Name != nil {
				names = append(names, string(d.Class.Name.Name))
			}
		}
	}
	return names
}

// forNames returns the names a for-in or for-of loop's let or const
// declares for its body.
func forNames(into ast.ForInto) []string {
	if d, ok := into.(*ast.ForDeclaration); ok {
		return bindingNames(d.Target, nil)
	}
	return nil
}

// loaderCalls reports whether an exports target is one the loader calls:
// module.exports, or its handler or default member.
func loaderCalls(e ast.Expression) bool {
	d := e.(*ast.DotExpression)
	if id, ok := d.Left.(*ast.Identifier); ok && id.Name == "module" {
		return true
	}
	return d.Identifier.Name == "handler" || d.Identifier.Name == "default"
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
