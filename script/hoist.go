package script

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
)

// Handler source is rewritten once, at load, in two ways that no script
// can tell apart from the original except by object identity:
//
//   - Regular expression literals are hoisted: JavaScript creates a new
//     RegExp object every time a literal is evaluated, so a hook testing
//     three patterns allocates three objects per call. A literal without
//     the g or y flag has no state a later use could see (its lastIndex is
//     ignored), so each such literal is created once, when the program is
//     loaded, and reused. One with a literal prefilter (prefilter.go) is
//     shared by every hook of the runtime that writes the same pattern,
//     and frozen.
//
//   - In inline handlers, `return { key: value, ... }` of a plain object
//     literal (no computed keys, spreads, accessors or methods) becomes a
//     call of a native function that hands the values straight to the
//     engine (results.go): no object is built only to be taken apart.
//     Returns inside nested functions are left alone.
//
// Edits keep every line where it was and, where the replacement allows,
// every column, so error positions stay the author's.

// hoistPrefix names the generated variables: short, so that the name plus
// padding takes the literal's place. Source that already mentions it gets
// hoistPrefixLong instead.
const (
	hoistPrefix     = "_$"
	hoistPrefixLong = "__hookctl_re"
)

// rewriter says which rewrites to make.
type rewriter struct {
	// plan registers a regex literal's prefilter and returns its index,
	// or -1 when it has none; nil for no prefilters.
	plan func(pattern, flags string) int
	// key interns a result key and returns its index; nil leaves returns
	// alone. Only for source whose first function is the handler.
	key func(name string) int
}

type edit struct {
	start, end int
	text       string
}

// rewrite applies the rewrites to src, parsed as a whole program, in the
// byte range [from, to) and returns the declarations to put in front
// ("var _$0=/a/,...;", "" when there are none) and the rewritten src. Any
// parse problem leaves src alone: the compiler reports it.
func rewrite(src string, from, to int, rw rewriter) (string, string) {
	prog, err := parser.ParseFile(nil, "", src, 0)
	if err != nil {
		return "", src
	}
	prefix := hoistPrefix
	if strings.Contains(src, prefix) {
		prefix = hoistPrefixLong
		if strings.Contains(src, prefix) {
			return "", src
		}
	}
	var edits []edit
	var decls []string

	// One walk finds the regex literals anywhere and the returns of the
	// handler: the first function, outside any function nested in it.
	var lits []*ast.RegExpLiteral
	var rets []*ast.ObjectLiteral
	w := walker{fields: map[reflect.Type][]int{}, seen: map[uintptr]bool{}}
	handler, depth := false, 0
	w.walk(reflect.ValueOf(prog), func(n any, enter bool) bool {
		switch n := n.(type) {
		case *ast.RegExpLiteral:
			lits = append(lits, n)
			return false
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
		}
		return true
	})
	for _, l := range lits {
		start := int(l.Idx) - 1
		end := start + len(l.Literal)
		if start < from || end > to || end > len(src) || src[start:end] != l.Literal {
			continue
		}
		if strings.ContainsAny(l.Flags, "gy") {
			continue
		}
		name := fmt.Sprintf("%s%d", prefix, len(decls))
		init := l.Literal
		if rw.plan != nil {
			if idx := rw.plan(l.Pattern, l.Flags); idx >= 0 {
				init = fmt.Sprintf("%s(%d)", regexpHelper, idx)
			}
		}
		decls = append(decls, name+"="+init)
		if pad := len(l.Literal) - len(name); pad > 0 {
			name += strings.Repeat(" ", pad)
		}
		edits = append(edits, edit{start, end, name})
	}

	if rw.key != nil && len(rets) > 0 {
		alias := prefix + "R"
		var redits []edit
		for _, obj := range rets {
			redits = append(redits, returnEdits(src, obj, alias, rw.key, from, to)...)
		}
		if len(redits) > 0 {
			decls = append(decls, alias+"="+resultHelper)
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
	open, close := int(obj.LeftBrace)-1, int(obj.RightBrace)-1
	if open < from || close >= to || close >= len(src) || src[open] != '{' || src[close] != '}' {
		return nil
	}
	call := alias + "("
	if c := src[open-1]; c == '_' || c == '$' || c == '\\' || c >= 0x80 || ('0' <= c && c <= '9') || ('a' <= c|0x20 && c|0x20 <= 'z') {
		call = " " + call // return{...}: keep "return" a keyword
	}
	edits := []edit{{open, open + 1, call}}
	debt := len(call) - 1 // columns the line owes after "{" grew into "_$R("
	last := open + 1
	for _, prop := range obj.Value {
		var name string
		var start, end int
		switch p := prop.(type) {
		case *ast.PropertyKeyed:
			k, ok := p.Key.(*ast.StringLiteral)
			if !ok || p.Computed || p.Kind != ast.PropertyKindValue {
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
		if name == "__proto__" || start < last {
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
