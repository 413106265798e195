package hcl

import (
	"sort"

	hcl2 "github.com/hashicorp/hcl/v2"
)

// decodeBuiltin reads a builtin block into an inert BuiltinBlock; which
// built-ins exist and which options each takes is the assembly's to
// check.
func (l *loader) decodeBuiltin(b *hcl2.Block) {
	attrs, d := b.Body.JustAttributes()
	l.diags = append(l.diags, d...)
	bb := &BuiltinBlock{
		Name: b.Labels[0], Enabled: true,
		Options: map[string]any{}, OptionRanges: map[string]Range{},
		Range: b.DefRange, NameRange: b.LabelRanges[0],
	}
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		a := attrs[k]
		switch k {
		case "priority":
			if p, ok := l.ev.integer(a); ok {
				bb.Priority = &p
			}
		case "id":
			bb.ID, _ = l.ev.str(a)
		case "enabled":
			bb.Enabled, _ = l.ev.boolean(a)
		default:
			bb.OptionRanges[k] = a.NameRange
			if v, ok := l.ev.goValue(a); ok {
				bb.Options[k] = v
			}
		}
	}
	l.cfg.Builtins = append(l.cfg.Builtins, bb)
}
