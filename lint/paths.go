package lint

import (
	"errors"
	"fmt"
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
// the matched tools' tool_input) do not have. prefix is how the reader
// names the payload ("" in a condition, "event." in a script); root
// misspellings in conditions keep their own summary.
func lintPaths(eng *engine.Engine, h engine.Hook, r hcl.Range, paths []payloadPath, prefix string, warn func(hcl.Diagnostic)) {
	for ev, spec := range hookEvents(eng, h) {
		if ev != spec.Name {
			// An alias (OpenClaw's before_tool_call): the host that fires
			// it may send other fields.
			continue
		}
		if _, ok := schema.Payload(spec.Name); !ok {
			continue
		}
		tools := toolsOf(h, spec)
		for _, p := range paths {
			_, err := schema.Resolve(spec.Name, tools, p.elems)
			var u *schema.UnknownFieldError
			if !errors.As(err, &u) {
				continue
			}
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
			detail := fmt.Sprintf("%s%s: %s has no field %q", prefix, u.Path, u.Parent, u.Name)
			if u.Suggestion != "" {
				detail += fmt.Sprintf("; did you mean %q?", u.Suggestion)
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
			warn(d)
		}
	}
}

// conditionPaths returns the payload paths an expr condition reads: the
// member chains rooted at a payload field (tool_input.command,
// tool_input["command"], $env.cwd), up to their first property that is
// not a constant. r is where the condition is written: when it is a
// one-line string without escapes, each path's position is exact.
func conditionPaths(src string, r hcl.Range) []payloadPath {
	tree, err := parser.Parse(src)
	if err != nil {
		return nil
	}
	v := &pathVisitor{skip: map[ast.Node]bool{}, bound: map[string]bool{conditions.StateName: true}}
	ast.Walk(&tree.Node, v)
	exact := r.Start.Line == r.End.Line && r.End.Column-r.Start.Column == len(src)+2 && isASCII(src)
	var out []payloadPath
	seen := map[string]bool{}
	for _, n := range v.nodes {
		if v.skip[n] {
			continue
		}
		elems, locs, _, ok := exprChain(n)
		if !ok || len(elems) == 0 || v.bound[elems[0]] {
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
				at.Start.Column = r.Start.Column + 1 + locs[i].From
				at.End.Column = r.Start.Column + 1 + locs[i].To
				at.Start.Byte, at.End.Byte = 0, 0
				return at, true
			}
		}
		out = append(out, p)
	}
	return out
}

// pathVisitor collects the nodes that may start a member chain, the
// nodes inside a longer chain (skipped: the longer one is checked), the
// callees of calls (functions, not fields) and the names a let binds.
type pathVisitor struct {
	nodes []ast.Node
	skip  map[ast.Node]bool
	bound map[string]bool
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
	case *ast.VariableDeclaratorNode:
		v.bound[m.Name] = true
	}
}

// exprChain returns the path of a member chain rooted at an identifier,
// and where each element is in the source. cut is set once a computed
// property ends what is known of the path.
func exprChain(n ast.Node) (elems []string, locs []locRange, cut, ok bool) {
	switch m := n.(type) {
	case *ast.IdentifierNode:
		if m.Value == "$env" {
			return nil, nil, false, true
		}
		return []string{m.Value}, []locRange{loc(m)}, false, true
	case *ast.ChainNode:
		return exprChain(m.Node)
	case *ast.MemberNode:
		elems, locs, cut, ok := exprChain(m.Node)
		if !ok || cut {
			return elems, locs, cut, ok
		}
		switch p := m.Property.(type) {
		case *ast.StringNode:
			return append(elems, p.Value), append(locs, loc(p)), false, true
		case *ast.IntegerNode:
			return append(elems, fmt.Sprint(p.Value)), append(locs, loc(p)), false, true
		}
		return elems, locs, true, true
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
