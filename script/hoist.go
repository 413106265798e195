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
//     loaded, and reused; it also gets a literal prefilter (prefilter.go).
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

	var lits []*ast.RegExpLiteral
	collect(reflect.ValueOf(prog), map[uintptr]bool{}, func(v reflect.Value) bool {
		if v.Type() == regexpType {
			lits = append(lits, v.Interface().(*ast.RegExpLiteral))
			return false
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
				init = fmt.Sprintf("%s(%s,%d)", regexpHelper, l.Literal, idx)
			}
		}
		decls = append(decls, name+"="+init)
		if pad := len(l.Literal) - len(name); pad > 0 {
			name += strings.Repeat(" ", pad)
		}
		edits = append(edits, edit{start, end, name})
	}

	if rw.key != nil {
		if fn := firstFunction(prog); fn != nil && fn.Body != nil {
			alias := prefix + "R"
			var rets []edit
			collect(reflect.ValueOf(fn.Body), map[uintptr]bool{}, func(v reflect.Value) bool {
				switch n := v.Interface().(type) {
				case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral, *ast.ClassLiteral, *ast.FunctionDeclaration, *ast.ClassDeclaration:
					return false // their returns are not the handler's
				case *ast.ReturnStatement:
					if obj, ok := n.Argument.(*ast.ObjectLiteral); ok {
						rets = append(rets, returnEdits(src, obj, alias, rw.key, from, to)...)
					}
				}
				return true
			})
			if len(rets) > 0 {
				decls = append(decls, alias+"="+resultHelper)
				edits = append(edits, rets...)
			}
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

// firstFunction returns the first function literal of prog: the handler
// of an inline body.
func firstFunction(prog *ast.Program) *ast.FunctionLiteral {
	var fn *ast.FunctionLiteral
	collect(reflect.ValueOf(prog), map[uintptr]bool{}, func(v reflect.Value) bool {
		if fn != nil {
			return false
		}
		if f, ok := v.Interface().(*ast.FunctionLiteral); ok {
			fn = f
			return false
		}
		return true
	})
	return fn
}

var regexpType = reflect.TypeOf((*ast.RegExpLiteral)(nil))

// collect walks any AST value by reflection in source order, calling visit
// for every non-nil pointer; visit returns whether to walk into it.
func collect(v reflect.Value, seen map[uintptr]bool, visit func(reflect.Value) bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		p := v.Pointer()
		if seen[p] {
			return
		}
		seen[p] = true
		if !visit(v) {
			return
		}
		collect(v.Elem(), seen, visit)
	case reflect.Interface:
		if !v.IsNil() {
			collect(v.Elem(), seen, visit)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				collect(v.Field(i), seen, visit)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			collect(v.Index(i), seen, visit)
		}
	}
}
