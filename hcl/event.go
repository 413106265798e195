package hcl

import (
	"fmt"

	hcl2 "github.com/hashicorp/hcl/v2"

	"github.com/hookctl/hookctl/engine"
)

type customEvent struct {
	spec engine.EventSpec
	at   hcl2.Range
}

// decodeEvent turns an event block into a custom EventSpec.
func (l *loader) decodeEvent(b *hcl2.Block) {
	name := b.Labels[0]
	content, d := b.Body.Content(eventSchema)
	l.diags = append(l.diags, d...)
	spec := engine.EventSpec{Name: name, Source: engine.SourceCustom}
	if prev, dup := l.custom[name]; dup {
		l.ev.errorf(b.LabelRanges[0], "Duplicate event", "Event %q is already declared at %s.", name, at(prev.at))
		return
	}
	if _, builtin := l.lookupEvent(name); builtin {
		l.ev.errorf(b.LabelRanges[0], "Event name taken", "%q is a built-in event or alias; custom events need their own names.", name)
		return
	}
	ok := true
	for attrName, a := range content.Attributes {
		switch attrName {
		case "strategy":
			if s, good := l.ev.str(a); good {
				st, err := engine.ParseStrategy(s)
				if err != nil {
					l.ev.errorf(a.Expr.Range(), "Invalid strategy", "%s.", err)
					ok = false
				}
				spec.Strategy = st
			}
		case "matcher":
			spec.MatcherField, _ = l.ev.str(a)
		case "decisions":
			spec.Decisions, _ = l.ev.strings(a)
		case "decision_field":
			spec.DecisionField, _ = l.ev.str(a)
		case "aliases":
			spec.Aliases, _ = l.ev.strings(a)
		case "default_timeout":
			spec.DefaultTimeout, _ = l.ev.duration(a)
		case "fail_closed":
			spec.FailClosed, _ = l.ev.boolean(a)
		case "description":
			spec.Description, _ = l.ev.str(a)
		case "merge":
			spec.Merge, ok = l.decodeMerge(a)
		}
	}
	if !ok {
		return
	}
	if err := spec.Validate(); err != nil && spec.Strategy != 0 {
		l.ev.errorf(b.DefRange, "Invalid event", "%s.", err)
		return
	}
	ce := &customEvent{spec: spec, at: b.DefRange}
	l.custom[name] = ce
	for _, a := range spec.Aliases {
		if _, taken := l.lookupEvent(a); taken {
			l.ev.errorf(b.DefRange, "Event alias taken", "Alias %q of event %q is already an event name or alias.", a, name)
			continue
		}
		l.custom[a] = ce
	}
	l.cfg.Events = append(l.cfg.Events, spec)
}

// decodeMerge reads `merge = { field = "rule" }` where a rule is a rule
// name or an object { rule, order, terminal, blocks, target, value }.
func (l *loader) decodeMerge(a *hcl2.Attribute) (map[string]engine.FieldRule, bool) {
	v, ok := l.ev.goValue(a)
	if !ok {
		return nil, false
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		l.ev.errorf(a.Expr.Range(), "Invalid merge rules", "merge must be an object of field = rule.")
		return nil, false
	}
	out := map[string]engine.FieldRule{}
	good := true
	fail := func(field, format string, args ...any) {
		l.ev.errorf(a.Expr.Range(), "Invalid merge rule", "Field %q: %s.", field, fmt.Sprintf(format, args...))
		good = false
	}
	for field, raw := range m {
		var fr engine.FieldRule
		switch r := raw.(type) {
		case string:
			rule, err := engine.ParseMergeRule(r)
			if err != nil {
				fail(field, "%s", err)
				continue
			}
			fr.Rule = rule
			switch rule {
			case engine.MergeSticky:
				// block and cancel are the conventional terminal flags.
				if field == "block" || field == "cancel" {
					fr.Terminal, fr.Blocks = true, true
				}
			case engine.MergeChain:
				fr.Target = field
			case engine.MergeRestrictive:
				fail(field, "a restrictive rule needs an order: write { rule = \"restrictive\", order = [\"most\", ..., \"least\"] }")
				continue
			}
		case map[string]any:
			rs, _ := r["rule"].(string)
			rule, err := engine.ParseMergeRule(rs)
			if err != nil {
				fail(field, "%s", err)
				continue
			}
			fr.Rule = rule
			for k, v := range r {
				switch k {
				case "rule":
				case "order":
					l, okList := v.([]any)
					if !okList {
						fail(field, "order must be a list of strings")
						continue
					}
					for _, x := range l {
						s, _ := x.(string)
						fr.Order = append(fr.Order, s)
					}
				case "terminal":
					fr.Terminal, _ = v.(bool)
				case "blocks":
					fr.Blocks, _ = v.(bool)
				case "target":
					fr.Target, _ = v.(string)
				case "value":
					fr.Value = v
				case "freeze_after":
					fr.FreezeAfter, _ = v.(string)
				default:
					fail(field, "unknown key %q (want rule, order, terminal, blocks, target, value, freeze_after)", k)
				}
			}
			if rule == engine.MergeChain && fr.Target == "" {
				fr.Target = field
			}
		default:
			fail(field, "want a rule name or an object")
		}
		out[field] = fr
	}
	return out, good
}
