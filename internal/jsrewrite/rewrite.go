// Package jsrewrite rewrites the source of JavaScript hook handlers once,
// at load, for speed, without changing what a script can observe, and
// says where each generated position came from (Map), as k6 does with its
// compiler and source maps. Package script compiles what it returns.
package jsrewrite

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
)

// Inline handler source is rewritten once, at load, in ways no script can
// observe:
//
//   - `return { key: value, ... }` of a plain object literal (no computed
//     keys, spreads, accessors or methods) becomes a call of a native
//     function that hands the values straight to the engine (results.go):
//     no object is built only to be taken apart. Returns inside nested
//     functions are left alone. A returned literal whose values are all
//     literals too (strings without escapes, numbers, booleans, null)
//     always gives the same result: it becomes a variable made once, when
//     the program is loaded, that the engine maps to a result built once
//     (Const).
//
//   - `/re/.test(s)`, a regex literal without the g or y flag that is only
//     the receiver of a test call, becomes `_$T0     (s)`: a native
//     function made when the program is loaded, by TestHelper(/re/) from
//     a RegExp of its own, that answers what that RegExp's test would
//     (Literals). Every other literal is left alone: each evaluation of a
//     literal is a new RegExp, whose state (lastIndex, own properties,
//     compile) the script can see and change. A receiver of test is never
//     seen by the script: test is RegExp.prototype's (a fresh RegExp has
//     no own properties, and the prototype is frozen), it reads the
//     RegExp's lastIndex, which is 0 and, without g or y, ignored and
//     never written, and it hands the RegExp to nothing. So a fresh one
//     and one made once give the same answers; the one made once is no
//     other program's, and reached by no name the script can write.
//
// The generated names are variables of a function around the handler (a
// factory, called with the native helpers as its parameters when the
// program is loaded), so anything that adds names to the handler's scope
// chain could stand in for them: a with statement (whose object may be
// the payload) or a direct eval (whose code may declare them). A program
// with either, or whose source names a helper parameter, is not rewritten
// at all.
//
// Edits keep every line where it was and, where the replacement allows,
// every column, so error positions stay the author's.

// hoistPrefix names the generated variables: short, so that the name plus
// padding takes the literal's place. Source that already mentions it gets
// hoistPrefixLong instead; source that mentions both is not rewritten.
const (
	hoistPrefix     = "_$"
	hoistPrefixLong = "__hookctl_re"
)

// Options say which rewrites to make and the names of the native helpers
// the rewritten code calls.
type Options struct {
	// Key interns a result key and returns its index; nil leaves returns
	// alone. Only for source whose first function is the handler.
	// Rewritten returns call ResultHelper(index, value, ...).
	Key          func(name string) int
	ResultHelper string
	// Const registers a returned object literal whose values are all
	// literals — keys in source order, values as Go values (string,
	// int64 or float64, bool, nil) — and returns its index, or -1 to
	// leave it to Key. Such a return becomes a variable set, when the
	// program is loaded, to ConstHelper(index). Only with Key.
	Const       func(keys []string, values []any) int
	ConstHelper string
	// Literals turns test calls on regex literals into calls of
	// functions made, when the program is loaded, by TestHelper(literal).
	Literals   bool
	TestHelper string
}

type edit struct {
	start, end int
	text       string
}

// Rewrite applies the rewrites to src, parsed as a whole program, in the
// byte range [from, to) and returns the declarations to put in front
// ("var _$K0=...,_$R=...;", "" when there are none) and the rewritten src.
// Any parse problem, a with statement or an eval leaves src alone.
func Rewrite(src string, from, to int, rw Options) (string, string) {
	prog, err := parser.ParseFile(nil, "", src, 0)
	if err != nil {
		return "", src
	}
	// The source text, and every name and string the parser decoded from
	// it (an identifier written with \u escapes, `_\u0024K0`, is the
	// name _$K0 to the scope chain), must not spell a generated name.
	strs := decodedStrings(prog)
	spells := func(name string) bool {
		if strings.Contains(src, name) {
			return true
		}
		for _, s := range strs {
			if strings.Contains(s, name) {
				return true
			}
		}
		return false
	}
	for _, helper := range []string{rw.ResultHelper, rw.ConstHelper, rw.TestHelper} {
		if helper != "" && spells(helper) {
			return "", src
		}
	}
	prefix := hoistPrefix
	if spells(prefix) {
		prefix = hoistPrefixLong
		if spells(prefix) {
			return "", src
		}
	}
	var edits []edit
	var decls []string

	// One walk finds the returns of the handler (the first function,
	// outside any function nested in it) and anything that could put a
	// name of the script's between the handler and the generated names.
	var rets []*ast.ObjectLiteral
	var tests []*ast.DotExpression
	w := walker{fields: map[reflect.Type][]int{}, seen: map[uintptr]bool{}}
	handler, depth, scoped := false, 0, false
	w.walk(reflect.ValueOf(prog), func(n any, enter bool) bool {
		switch n := n.(type) {
		case *ast.WithStatement:
			scoped = true
		case *ast.Identifier:
			if n.Name == "eval" {
				scoped = true
			}
		case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral, *ast.ClassLiteral, *ast.FunctionDeclaration, *ast.ClassDeclaration:
			if enter {
				if !handler {
					if _, ok := n.(*ast.FunctionLiteral); ok {
						handler = true // the handler: depth 1 inside it
					}
				}
				depth++
			} else {
				depth--
			}
		case *ast.ReturnStatement:
			if obj, ok := n.Argument.(*ast.ObjectLiteral); ok && enter && depth == 1 && handler {
				rets = append(rets, obj)
			}
		case *ast.CallExpression:
			if dot, ok := n.Callee.(*ast.DotExpression); ok && enter && dot.Identifier.Name == "test" {
				if lit, ok := dot.Left.(*ast.RegExpLiteral); ok && !strings.ContainsAny(lit.Flags, "gy") {
					tests = append(tests, dot)
				}
			}
		}
		return !scoped
	})
	if scoped {
		return "", src
	}

	if rw.Literals && rw.TestHelper != "" {
		for _, dot := range tests {
			// `/re/.test` exactly, nothing between the literal and the
			// name, becomes the generated name padded to its width.
			l := dot.Left.(*ast.RegExpLiteral)
			start := int(l.Idx) - 1
			end := start + len(l.Literal) + len(".test")
			name := fmt.Sprintf("%sT%d", prefix, len(decls))
			if start < from || end > to || end > len(src) || src[start:end] != l.Literal+".test" || int(dot.Idx1())-1 != end || len(name) > end-start {
				continue
			}
			decls = append(decls, name+"="+rw.TestHelper+"("+l.Literal+")")
			edits = append(edits, edit{start, end, name + strings.Repeat(" ", end-start-len(name))})
		}
	}

	if rw.Key != nil && len(rets) > 0 {
		alias := prefix + "R"
		var redits []edit
		consts := 0
		for _, obj := range rets {
			if rw.Const != nil {
				name := fmt.Sprintf("%sK%d", prefix, consts)
				if e, keys, vals, ok := constEdit(src, obj, name, from, to); ok {
					if idx := rw.Const(keys, vals); idx >= 0 {
						decls = append(decls, fmt.Sprintf("%s=%s(%d)", name, rw.ConstHelper, idx))
						edits = append(edits, e)
						consts++
						continue
					}
				}
			}
			redits = append(redits, returnEdits(src, obj, alias, rw.Key, from, to)...)
		}
		if len(redits) > 0 {
			decls = append(decls, alias+"="+rw.ResultHelper)
			edits = append(edits, redits...)
		}
	}

	if len(edits) == 0 {
		return "", src
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var b strings.Builder
	last := 0
	for _, e := range edits {
		if e.start < last {
			return "", src // overlapping edits: cannot happen, but never guess
		}
		b.WriteString(src[last:e.start])
		b.WriteString(e.text)
		last = e.end
	}
	b.WriteString(src[last:])
	return "var " + strings.Join(decls, ",") + ";", b.String()
}

// returnEdits turns a returned object literal into a call of alias with
// key indexes and values: `{ decision: "deny", reason: r }` becomes
// `_$R(0,       "deny", 1,     r )`, each value where it was. It returns
// nil when the literal is not plain.
func returnEdits(src string, obj *ast.ObjectLiteral, alias string, key func(string) int, from, to int) []edit {
	open, close, ok := braces(src, obj, from, to)
	if !ok {
		return nil
	}
	call := afterKeyword(src, open, alias+"(")
	edits := []edit{{open, open + 1, call}}
	debt := len(call) - 1 // columns the line owes after "{" grew into "_$R("
	last := open + 1
	for _, prop := range obj.Value {
		var name string
		var start, end int
		switch p := prop.(type) {
		case *ast.PropertyKeyed:
			k, ok := plainKey(p)
			if !ok {
				return nil
			}
			name = k.Value.String()
			start = int(k.Idx0()) - 1
			// The key, blanks, the colon: nothing else may be between
			// the key and its value but the opening parentheses of a
			// parenthesised value.
			colon := -1
			for i := int(k.Idx1()) - 1; i < int(p.Value.Idx0())-1; i++ {
				switch c := src[i]; {
				case c == ' ' || c == '\t':
				case c == ':' && colon < 0:
					colon = i
				case c == '(' && colon >= 0:
				default:
					return nil
				}
			}
			if colon < 0 {
				return nil
			}
			// The blanks after the colon give the index more room.
			end = colon + 1
			for end < int(p.Value.Idx0())-1 && (src[end] == ' ' || src[end] == '\t') {
				end++
			}
		case *ast.PropertyShort:
			if p.Initializer != nil {
				return nil
			}
			name = p.Name.Name.String()
			start = int(p.Name.Idx0()) - 1
			end = start // insert "i," in front of the name
		default:
			return nil // spread, accessor, method
		}
		// A returned object with a then is a thenable, which the engine
		// resolves as await would: it must stay an object.
		if name == "__proto__" || name == "then" || start < last {
			return nil
		}
		if strings.ContainsRune(src[last:start], '\n') {
			debt = 0 // a new line: columns there owe nothing
		}
		text := strconv.Itoa(key(name)) + ","
		if room := end - start - len(text); room > 0 {
			pay := min(room, debt)
			debt -= pay
			text += strings.Repeat(" ", room-pay)
		}
		edits = append(edits, edit{start, end, text})
		last = end
	}
	return append(edits, edit{close, close + 1, ")"})
}

// constEdit turns a returned object literal whose values are all literals
// into name: `{ decision: "deny" }` becomes `_$K0             `, the rest of
// the literal blanked and its line breaks kept, so every later line and
// column stays where it was. It returns the keys and values, and false when
// the literal is not plain, a value is not a literal, the literal's text is
// not ASCII (columns count characters) or name does not fit in a literal
// of one line.
func constEdit(src string, obj *ast.ObjectLiteral, name string, from, to int) (edit, []string, []any, bool) {
	open, close, ok := braces(src, obj, from, to)
	if !ok {
		return edit{}, nil, nil, false
	}
	text := src[open : close+1]
	for i := 0; i < len(text); i++ {
		if c := text[i]; c >= 0x80 || c == '\r' {
			return edit{}, nil, nil, false
		}
	}
	keys := make([]string, 0, len(obj.Value))
	vals := make([]any, 0, len(obj.Value))
	for _, prop := range obj.Value {
		p, ok := prop.(*ast.PropertyKeyed)
		if !ok {
			return edit{}, nil, nil, false
		}
		k, ok := plainKey(p)
		if !ok || k.Value.String() == "__proto__" {
			return edit{}, nil, nil, false
		}
		var v any
		switch lit := p.Value.(type) {
		case *ast.StringLiteral:
			// Without escapes the value is the text between the quotes:
			// no line continuation, no lone surrogate.
			if strings.ContainsRune(lit.Literal, '\\') {
				return edit{}, nil, nil, false
			}
			v = lit.Value.String()
		case *ast.NumberLiteral:
			switch n := lit.Value.(type) {
			case int64, float64:
				v = n
			default:
				return edit{}, nil, nil, false
			}
		case *ast.BooleanLiteral:
			v = lit.Value
		case *ast.NullLiteral:
			v = nil
		default:
			return edit{}, nil, nil, false
		}
		keys = append(keys, k.Value.String())
		vals = append(vals, v)
	}
	repl := afterKeyword(src, open, name)
	// The rest of the literal's first line is the literal's own: when it
	// goes on to another line, nothing of the author's follows name on
	// the first, so name may be longer than the text it replaces there.
	first := strings.IndexByte(text, '\n')
	if first < 0 && len(repl) > len(text) {
		return edit{}, nil, nil, false
	}
	b := []byte(repl)
	if first < 0 {
		first = len(text)
	}
	for i := len(repl); i < first; i++ {
		b = append(b, ' ')
	}
	for i := first; i < len(text); i++ {
		c := byte(' ')
		if text[i] == '\n' {
			c = '\n'
		}
		b = append(b, c)
	}
	return edit{open, close + 1, string(b)}, keys, vals, true
}

// braces returns where a returned object literal's braces are in src,
// and false when they are not both inside [from, to).
func braces(src string, obj *ast.ObjectLiteral, from, to int) (open, close int, ok bool) {
	open, close = int(obj.LeftBrace)-1, int(obj.RightBrace)-1
	ok = open >= from && close < to && close < len(src) && src[open] == '{' && src[close] == '}'
	return open, close, ok
}

// plainKey returns the key of a property written `key: value` or
// `"key": value`: not computed, not an accessor or a method.
func plainKey(p *ast.PropertyKeyed) (*ast.StringLiteral, bool) {
	k, ok := p.Key.(*ast.StringLiteral)
	return k, ok && !p.Computed && p.Kind == ast.PropertyKindValue
}

// afterKeyword returns text to put in place of src[open:], with a blank
// in front when what comes before it could run into it: return{...}
// must keep "return" a keyword.
func afterKeyword(src string, open int, text string) string {
	c := src[open-1]
	if c == '_' || c == '$' || c == '\\' || c >= 0x80 || ('0' <= c && c <= '9') || ('a' <= c|0x20 && c|0x20 <= 'z') {
		return " " + text
	}
	return text
}

// decodedStrings returns every string the parser made from the source,
// whatever node or field holds it: identifiers, binding names, shorthand
// properties, labels, keys and literal values, with their escapes decoded.
// Scope resolution uses these names, not the source text.
func decodedStrings(root any) []string {
	var out []string
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			s := v.String()
			if str, ok := v.Interface().(fmt.Stringer); ok {
				s = str.String() // unistring.String: UTF-16 inside when not ASCII
			}
			if s != "" {
				out = append(out, s)
			}
		case reflect.Pointer:
			if v.IsNil() || seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
			walk(v.Elem())
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(root))
	return out
}

// walker walks any goja AST by reflection in source order, calling visit
// for every node on the way in (enter true; false skips the node's
// children) and on the way out. It remembers, per struct type, which
// fields can hold nodes, so it does not look at positions and names.
type walker struct {
	fields map[reflect.Type][]int
	seen   map[uintptr]bool
}

func (w *walker) walk(v reflect.Value, visit func(n any, enter bool) bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		p := v.Pointer()
		if w.seen[p] {
			return
		}
		w.seen[p] = true
		n := v.Interface()
		if !visit(n, true) {
			return
		}
		w.walk(v.Elem(), visit)
		visit(n, false)
	case reflect.Interface:
		if !v.IsNil() {
			w.walk(v.Elem(), visit)
		}
	case reflect.Struct:
		for _, i := range w.nodeFields(v.Type()) {
			w.walk(v.Field(i), visit)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			w.walk(v.Index(i), visit)
		}
	}
}

// nodeFields returns the exported fields of a struct type that can hold
// nodes: pointers, interfaces, slices, arrays and structs.
func (w *walker) nodeFields(t reflect.Type) []int {
	if f, ok := w.fields[t]; ok {
		return f
	}
	var f []int
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		switch sf.Type.Kind() {
		case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Array, reflect.Struct:
			f = append(f, i)
		}
	}
	w.fields[t] = f
	return f
}

// Map says where the generated code of one program came from: the
// code's line n is the author's line Line+n-1 of File, with the same
// columns, but those of the code's first line, which it shares with the
// generated header: they are Shift columns to the right. A Map is a
// value, safe to share.
type Map struct {
	// File is the file the author's code is in; Line the line its first
	// line is on.
	File string
	Line int
	// Shift is how many generated columns precede the author's on the
	// code's first line.
	Shift int
}

// Original returns the author's line and column of a position (line
// and column 1-based) in the generated code.
func (m Map) Original(line, col int) (int, int) {
	if line == 1 && m.Shift > 0 {
		col = max(1, col-m.Shift)
	}
	return line + max(m.Line, 1) - 1, col
}

// Candidate is one way to compile an inline handler body.
type Candidate struct {
	// Code is the program's source, Map where its positions come from.
	Code string
	Map  Map
	// Async is set for the async function form, Rewritten when the
	// rewrites changed anything.
	Async, Rewritten bool
}

// Inline returns the programs an inline handler body (the statements of
// a function with event and ctx in scope, written in file from line on)
// can compile to, best first: the plain function, rewritten and then as
// written; the same as an async function when the body awaits. Each is an
// expression whose value is the handler function or, when Rewritten, a
// factory that returns it when called with the result, constant and test
// helpers (in that order), which no other code can reach. The code starts
// on the body's first line, not padded to the file's line: its Map turns
// the code's positions into the file's, so that compiling n bodies of
// one file costs the bodies' size, not n times the file's.
func Inline(file, body string, line int, o Options) []Candidate {
	if line < 1 {
		line = 1
	}
	var out []Candidate
	for _, fn := range []string{"(function (event, ctx) {", "(async function (event, ctx) {"} {
		async := strings.HasPrefix(fn, "(async")
		if async && !strings.Contains(body, "await") {
			break
		}
		// The rewritten handler, its declarations on the first line so
		// the lines stay the body's.
		decls, hoisted := Rewrite(fn+body+"\n})", len(fn), len(fn)+len(body), o)
		if decls != "" {
			head := "(function (" + o.ResultHelper + "," + o.ConstHelper + "," + o.TestHelper + ") {" + decls + "return "
			out = append(out, Candidate{Code: head + hoisted + ";})", Map: Map{File: file, Line: line, Shift: len(head) + len(fn)},
				Async: async, Rewritten: true})
		}
		out = append(out, Candidate{Code: fn + body + "\n})", Map: Map{File: file, Line: line, Shift: len(fn)}, Async: async})
	}
	return out
}

// ModuleWrapper is the function header require() puts in front of a
// CommonJS module's code, on its first line.
const ModuleWrapper = "(function(exports,require,module,__filename,__dirname){"
