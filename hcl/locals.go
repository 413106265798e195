package hcl

import (
	"sort"
	"strings"

	hcl2 "github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// decodeLocals evaluates every locals attribute, in dependency order.
func (l *loader) decodeLocals(blocks []*hcl2.Block) {
	attrs := map[string]*hcl2.Attribute{}
	for _, b := range blocks {
		as, d := b.Body.JustAttributes()
		l.diags = append(l.diags, d...)
		for name, a := range as {
			if prev, dup := attrs[name]; dup {
				l.ev.errorf(a.NameRange, "Duplicate local value",
					"Local %q was already defined at %s.", name, at(prev.NameRange))
				continue
			}
			attrs[name] = a
		}
	}
	values := map[string]cty.Value{}
	pending := make([]string, 0, len(attrs))
	for n := range attrs {
		pending = append(pending, n)
	}
	sort.Strings(pending)
	for len(pending) > 0 {
		progress := false
		var next []string
		for _, name := range pending {
			a := attrs[name]
			ready := true
			for _, tr := range a.Expr.Variables() {
				if tr.RootName() != "local" || len(tr) < 2 {
					continue
				}
				if attr, ok := tr[1].(hcl2.TraverseAttr); ok {
					if _, defined := attrs[attr.Name]; defined {
						if _, done := values[attr.Name]; !done {
							ready = false
						}
					}
				}
			}
			if !ready {
				next = append(next, name)
				continue
			}
			l.ev.ctx.Variables = map[string]cty.Value{"local": cty.ObjectVal(values)}
			v, d := a.Expr.Value(l.ev.ctx)
			l.diags = append(l.diags, d...)
			if d.HasErrors() {
				v = cty.DynamicVal
			}
			values[name] = v
			progress = true
		}
		if !progress {
			for _, name := range next {
				l.ev.errorf(attrs[name].NameRange, "Local value cycle",
					"Local %q depends on itself through other locals (%s).", name, strings.Join(next, ", "))
			}
			break
		}
		pending = next
	}
	l.ev.ctx.Variables = map[string]cty.Value{"local": cty.ObjectVal(values)}
}
