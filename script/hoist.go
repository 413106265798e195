package script

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
)

// Regular expression literals are hoisted: JavaScript creates a new RegExp
// object every time a literal is evaluated, so a hook testing three
// patterns allocates three objects per call. A literal without the g or y
// flag has no state a later use could see (its lastIndex is ignored), so
// the source is rewritten to create each such literal once, when the
// program is loaded, and reuse it. The only difference a script can
// observe is identity: evaluating the same literal twice yields the same
// object.

// hoistPrefix names the hoisted variables: short, so that the name plus
// padding takes the literal's place and columns after it stay the same.
// Source that already mentions it gets hoistPrefixLong instead.
const (
	hoistPrefix     = "_$"
	hoistPrefixLong = "__hookctl_re"
)

// hoistRegexps finds the hoistable regex literals of src, parsed as a
// whole program, in the byte range [from, to) and returns the declarations
// to put in front ("var __hookctl_re0=/a/,...;", "" when none) and src with
// the literals replaced by the variables. Any parse problem leaves src
// alone: the compiler reports it.
//
// plan, when not nil, registers a literal's prefilter (prefilter.go) and
// returns its index, or -1 when it has none.
func hoistRegexps(src string, from, to int, plan func(pattern, flags string) int) (string, string) {
	prog, err := parser.ParseFile(nil, "", src, 0)
	if err != nil {
		return "", src
	}
	var lits []*ast.RegExpLiteral
	collectRegexps(reflect.ValueOf(prog), map[uintptr]bool{}, &lits)
	type repl struct {
		start, end int
		name       string
	}
	var repls []repl
	var decls []string
	prefix := hoistPrefix
	if strings.Contains(src, prefix) {
		prefix = hoistPrefixLong
		if strings.Contains(src, prefix) {
			return "", src
		}
	}
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
		if plan != nil {
			if idx := plan(l.Pattern, l.Flags); idx >= 0 {
				init = fmt.Sprintf("%s(%s,%d)", regexpHelper, l.Literal, idx)
			}
		}
		decls = append(decls, name+"="+init)
		if pad := len(l.Literal) - len(name); pad > 0 {
			name += strings.Repeat(" ", pad)
		}
		repls = append(repls, repl{start, end, name})
	}
	if len(repls) == 0 {
		return "", src
	}
	sort.Slice(repls, func(i, j int) bool { return repls[i].start < repls[j].start })
	var b strings.Builder
	last := 0
	for _, r := range repls {
		if r.start < last {
			continue // overlapping: cannot happen for literals
		}
		b.WriteString(src[last:r.start])
		b.WriteString(r.name)
		last = r.end
	}
	b.WriteString(src[last:])
	return "var " + strings.Join(decls, ",") + ";", b.String()
}

var regexpType = reflect.TypeOf((*ast.RegExpLiteral)(nil))

// collectRegexps walks any AST value by reflection, collecting regex
// literals.
func collectRegexps(v reflect.Value, seen map[uintptr]bool, out *[]*ast.RegExpLiteral) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.Type() == regexpType {
			*out = append(*out, v.Interface().(*ast.RegExpLiteral))
			return
		}
		p := v.Pointer()
		if seen[p] {
			return
		}
		seen[p] = true
		collectRegexps(v.Elem(), seen, out)
	case reflect.Interface:
		if !v.IsNil() {
			collectRegexps(v.Elem(), seen, out)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				collectRegexps(v.Field(i), seen, out)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			collectRegexps(v.Index(i), seen, out)
		}
	}
}
