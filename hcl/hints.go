package hcl

import (
	"fmt"
	"strings"

	hcl2 "github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// interpolationHints adds to each "Unknown variable" inside a string or a
// heredoc how to keep ${...} from HCL: a js or ts body's template literal,
// a shell command's ${VAR}, a `when` written with ${...} all reach HCL's
// interpolation first, which knows no `event` or `tool_input`.
func interpolationHints(expr hcl2.Expression, ds hcl2.Diagnostics) hcl2.Diagnostics {
	if !ds.HasErrors() {
		return ds
	}
	var template hclsyntax.Expression
	switch e := expr.(type) {
	case *hclsyntax.TemplateExpr, *hclsyntax.TemplateWrapExpr:
		template = e.(hclsyntax.Expression)
	default:
		return ds
	}
	for _, d := range ds {
		if d.Summary != "Unknown variable" || d.Subject == nil {
			continue
		}
		text := traversalText(template, *d.Subject)
		if text == "" {
			continue
		}
		d.Detail += fmt.Sprintf(" HCL interpolates ${...} in strings and heredocs: for JavaScript's ${...} (a template literal) or a shell's, write $${%s}.", text)
	}
	return ds
}

// traversalText returns the text of the variable reference of template
// whose root is at r ("event.tool_name", "tool_input[\"command\"]").
func traversalText(template hclsyntax.Expression, r hcl2.Range) string {
	var out string
	_ = hclsyntax.VisitAll(template, func(n hclsyntax.Node) hcl2.Diagnostics {
		st, ok := n.(*hclsyntax.ScopeTraversalExpr)
		if !ok || out != "" || len(st.Traversal) == 0 || st.Traversal.SourceRange().Start != r.Start {
			return nil
		}
		var b strings.Builder
		for _, t := range st.Traversal {
			switch t := t.(type) {
			case hcl2.TraverseRoot:
				b.WriteString(t.Name)
			case hcl2.TraverseAttr:
				b.WriteString("." + t.Name)
			case hcl2.TraverseIndex:
				if t.Key.Type() == cty.String && t.Key.IsKnown() && !t.Key.IsNull() {
					fmt.Fprintf(&b, "[%q]", t.Key.AsString())
				} else {
					b.WriteString("[...]")
				}
			case hcl2.TraverseSplat:
				b.WriteString("[*]")
			}
		}
		out = b.String()
		return nil
	})
	return out
}
