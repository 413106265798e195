package lint

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"

	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/schema"
)

// Payload paths: a condition or a script reading a field its event's
// payload does not have (tool_input.comand on Bash) is always missing
// there, so the condition never holds and the hook silently never fires.
// Paths are checked against package schema: the event's payload, and on
// tool events tool_input as the tools the hook's matcher can match take
// it (closed when every one of them is known, so any unknown field is
// reported; open for MCP and unknown tools, where only a near name is).

// Summaries of the payload-path warnings.
const (
	summaryUnknownField = "Unknown payload field"
	summaryUnknownPath  = "Unknown payload path"
)

// payloadPath is a path a hook reads, with where it is written (zero:
// the attribute's range).
type payloadPath struct {
	elems []string
	// at returns where the element i of the path is written.
	at func(i int) (hcl.Range, bool)
}

// toolsOf returns the tools a hook's matcher can match on a tool event:
// nil when it may match any tool (no matcher, "*", a regular expression).
func toolsOf(h engine.Hook, spec engine.EventSpec) []string {
	if spec.MatcherField != "tool_name" {
		return nil
	}
	m, err := engine.CompileMatcherMode(h.Matcher, spec.MatcherMode)
	if err != nil || m.MatchesAll() || m.IsRegexp() {
		return nil
	}
	return matcherNames(h.Matcher, spec.MatcherMode)
}

// matcherNames splits a matcher that is not a regular expression into the
// names it lists.
func matcherNames(src string, mode engine.MatcherMode) []string {
	seps := "|,"
	if mode != engine.MatcherClaude {
		seps = "|"
	}
	var parts []string
	for _, part := range strings.FieldsFunc(strings.TrimSpace(src), func(r rune) bool { return strings.ContainsRune(seps, r) }) {
		if p := strings.TrimSpace(part); p != "" {
			parts = append(parts, p)
		}
	}
	return parts
}

// lintPaths warns about each path that the hook's events' payloads (and
// the matched tools' tool_input) do not have. A path one of the hook's
// events has, or that one of them cannot check (its payload is not
// known, an alias), is not reported: the hook may read it for that
// event. prefix is how the reader names the payload ("" in a condition,
// "event." in a script); root misspellings in conditions keep their own
// summary.
func lintPaths(eng *engine.Engine, h engine.Hook, r hcl.Range, paths []payloadPath, prefix string, warn func(hcl.Diagnostic)) {
	type checked struct {
		event string
		tools []string
	}
	var events []checked
	for ev, spec := range hookEvents(eng, h) {
		if _, ok := schema.Payload(spec.Name); !ok || ev != spec.Name {
			// An unknown payload, or an alias (OpenClaw's
			// before_tool_call): the host that fires it may send other
			// fields; nothing can be said.
			return
		}
		events = append(events, checked{spec.Name, toolsOf(h, spec)})
	}
	for _, p := range paths {
		var first *schema.UnknownFieldError
		for _, c := range events {
			_, err := schema.Resolve(c.event, c.tools, p.elems)
			var u *schema.UnknownFieldError
			if !errors.As(err, &u) || u.Name == elemOf {
				// A predicate's element of what is not an array: not
				// checked.
				first = nil
				break
			}
			if first == nil {
				first = u
			}
		}
		if first != nil {
			warn(pathDiagnostic(first, p, r, prefix))
		}
	}
}

// pathDiagnostic is the warning about an unknown path.
func pathDiagnostic(u *schema.UnknownFieldError, p payloadPath, r hcl.Range, prefix string) hcl.Diagnostic {
	depth := strings.Count(u.Path, ".") + 1
	at := r
	if p.at != nil {
		if rr, ok := p.at(depth - 1); ok {
			at = rr
		}
	}
	summary := summaryUnknownPath
	if prefix == "" && depth == 1 {
		summary = summaryUnknownField
	}
	detail := hcl.Detailf("%s%s: %s has no field %q", prefix, u.Path, u.Parent, u.Name)
	if u.Suggestion != "" {
		detail += hcl.Detailf("; did you mean %q?", u.Suggestion)
	} else {
		detail += "."
	}
	if prefix == "" {
		detail += " It is always missing here, so the condition reads nil."
	} else {
		detail += " It is always undefined here."
	}
	d := hcl.NewDiagnostic(hcl.SeverityWarning, at, summary, detail)
	d.Suggestion = u.Suggestion
	return d
}

// conditionPaths returns the payload paths an expr condition reads: the
// member chains rooted at a payload field (tool_input.command,
// tool_input["command"], $env.cwd, get(tool_input, "command")), up to
// their first property that is not a constant; through a let that binds
// a payload path (let t = tool_input; t.command) and a predicate's
// element (any(tool_input.edits, #.old_string != ""), the element
// written "*"). r is where the condition is written and file the
// content of its file (nil when unknown): when it is a one-line quoted
// string, each path's position is exact, through escapes and non-ASCII
// text (hcl.StringColumns).
func conditionPaths(src string, r hcl.Range, file []byte) []payloadPath {
	tree, err := parser.Parse(src)
	if err != nil {
		return nil
	}
	v := &pathVisitor{skip: map[ast.Node]bool{}, bound: map[string]bool{conditions.StateName: true},
		lets: map[string][]ast.Node{}, owner: map[*ast.PointerNode]*ast.BuiltinNode{}}
	ast.Walk(&tree.Node, v)
	// Builtins are visited inner first: the innermost predicate owns
	// its pointers.
	for _, b := range v.builtins {
		pred := b.Arguments[1]
		ast.Walk(&pred, pointerOwner{v.owner, b})
	}
	cols, exact := hcl.StringColumns(file, r)
	if !exact || len(cols) != len(src)+1 {
		cols, exact = nil, r.Start.Line == r.End.Line && r.End.Column-r.Start.Column == len(src)+2 && isASCII(src)
	}
	// expr's offsets count characters; cols is indexed by byte.
	var byteOf []int
	if cols != nil {
		for i := range src {
			byteOf = append(byteOf, i)
		}
		byteOf = append(byteOf, len(src))
	}
	column := func(off int) int {
		if cols != nil && off < len(byteOf) {
			return cols[byteOf[off]]
		}
		return r.Start.Column + 1 + off
	}
	var out []payloadPath
	seen := map[string]bool{}
	for _, n := range v.nodes {
		if v.skip[n] {
			continue
		}
		elems, locs, _, ok := v.chain(n, 0)
		if !ok || len(elems) == 0 {
			continue
		}
		key := strings.Join(elems, "\x00")
		if seen[key] {
			continue
		}
		seen[key] = true
		p := payloadPath{elems: elems}
		if exact {
			p.at = func(i int) (hcl.Range, bool) {
				if i >= len(locs) {
					return hcl.Range{}, false
				}
				at := r
				at.Start.Column = column(locs[i].From)
				at.End.Column = column(locs[i].To)
				at.Start.Byte, at.End.Byte = 0, 0
				return at, true
			}
		}
		out = append(out, p)
	}
	return out
}

// elemOf is the path element of a predicate's element (#): Resolve takes
// it for an array's element; on anything else it is not checked.
const elemOf = "*"

// pathVisitor collects the nodes that may start a member chain, the
// nodes inside a longer chain (skipped: the longer one is checked), the
// callees of calls (functions, not fields), the names a let binds with
// their values, and the builtins that take a predicate.
type pathVisitor struct {
	nodes    []ast.Node
	skip     map[ast.Node]bool
	bound    map[string]bool
	lets     map[string][]ast.Node
	builtins []*ast.BuiltinNode
	owner    map[*ast.PointerNode]*ast.BuiltinNode
}

func (v *pathVisitor) Visit(n *ast.Node) {
	switch m := (*n).(type) {
	case *ast.IdentifierNode:
		v.nodes = append(v.nodes, m)
	case *ast.MemberNode:
		v.nodes = append(v.nodes, m)
		v.skip[m.Node] = true
		if c, ok := m.Node.(*ast.ChainNode); ok {
			v.skip[c.Node] = true
		}
	case *ast.CallNode:
		v.skip[m.Callee] = true
	case *ast.BuiltinNode:
		if _, ok := getKey(m); ok {
			v.nodes = append(v.nodes, m)
			v.skip[m.Arguments[0]] = true
		}
		if len(m.Arguments) >= 2 {
			if _, ok := m.Arguments[1].(*ast.PredicateNode); ok {
				v.builtins = append(v.builtins, m)
			}
		}
	case *ast.VariableDeclaratorNode:
		v.bound[m.Name] = true
		v.lets[m.Name] = append(v.lets[m.Name], m.Value)
	}
}

// pointerOwner gives each pointer (#) in a predicate the builtin whose
// element it is, unless an inner one has it.
type pointerOwner struct {
	owner map[*ast.PointerNode]*ast.BuiltinNode
	b     *ast.BuiltinNode
}

func (p pointerOwner) Visit(n *ast.Node) {
	if ptr, ok := (*n).(*ast.PointerNode); ok && ptr.Name == "" {
		if _, taken := p.owner[ptr]; !taken {
			p.owner[ptr] = p.b
		}
	}
}

// getKey returns the constant key of the builtin get(x, "key") (or
// get(x, 0)).
func getKey(c *ast.BuiltinNode) (ast.Node, bool) {
	if c.Name != "get" || len(c.Arguments) != 2 {
		return nil, false
	}
	switch k := c.Arguments[1].(type) {
	case *ast.StringNode, *ast.IntegerNode:
		return k, true
	}
	return nil, false
}

// maxAliasDepth bounds how many lets and predicates a path is followed
// through.
const maxAliasDepth = 16

// chain returns the path of a member chain rooted at a payload field, and
// where each element is in the source. A name a let binds is followed to
// its value when it is bound once (else it is not the payload); cut is
// set once a computed property ends what is known of the path.
func (v *pathVisitor) chain(n ast.Node, depth int) (elems []string, locs []locRange, cut, ok bool) {
	if depth > maxAliasDepth {
		return nil, nil, false, false
	}
	member := func(inner ast.Node, prop ast.Node) ([]string, []locRange, bool, bool) {
		elems, locs, cut, ok := v.chain(inner, depth)
		if !ok || cut {
			return elems, locs, cut, ok
		}
		switch p := prop.(type) {
		case *ast.StringNode:
			return append(slices.Clip(elems), p.Value), append(slices.Clip(locs), loc(p)), false, true
		case *ast.IntegerNode:
			return append(slices.Clip(elems), fmt.Sprint(p.Value)), append(slices.Clip(locs), loc(p)), false, true
		}
		return elems, locs, true, true
	}
	switch m := n.(type) {
	case *ast.IdentifierNode:
		if m.Value == "$env" {
			return nil, nil, false, true
		}
		if vals := v.lets[m.Value]; len(vals) == 1 {
			elems, locs, cut, ok := v.chain(vals[0], depth+1)
			if !ok || cut || len(elems) == 0 {
				return nil, nil, false, false
			}
			return elems, locs, false, true
		}
		if v.bound[m.Value] {
			return nil, nil, false, false
		}
		return []string{m.Value}, []locRange{loc(m)}, false, true
	case *ast.PointerNode:
		b, found := v.owner[m]
		if m.Name != "" || !found {
			return nil, nil, false, false
		}
		elems, locs, cut, ok := v.chain(b.Arguments[0], depth+1)
		if !ok || cut || len(elems) == 0 {
			return nil, nil, false, false
		}
		return append(slices.Clip(elems), elemOf), append(slices.Clip(locs), loc(m)), false, true
	case *ast.ChainNode:
		return v.chain(m.Node, depth)
	case *ast.MemberNode:
		return member(m.Node, m.Property)
	case *ast.BuiltinNode:
		if k, isGet := getKey(m); isGet {
			return member(m.Arguments[0], k)
		}
	}
	return nil, nil, false, false
}

type locRange struct{ From, To int }

func loc(n ast.Node) locRange {
	l := n.Location()
	return locRange{l.From, l.To}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
