package assemble

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hookctl/hookctl/builtin"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/suggest"
)

// buildBuiltin enables a hook of the built-in pack, reporting unknown
// built-ins and options, and ids that clash with declared hooks.
func buildBuiltin(cfg *hcl.Config, bb *hcl.BuiltinBlock, x *Build, declared map[string]hcl.Range) []engine.Hook {
	spec, ok := builtin.Lookup(bb.Name)
	if !ok {
		var names []string
		for _, s := range builtin.Specs() {
			names = append(names, s.Name)
		}
		detail := fmt.Sprintf("There is no built-in hook %q. The built-ins are: %s.", bb.Name, strings.Join(names, ", "))
		if s := suggest.Closest(bb.Name, names); s != "" {
			detail += fmt.Sprintf(" Did you mean %q?", s)
		}
		cfg.Errorf(bb.NameRange, "Unknown built-in", "%s", detail)
		return nil
	}
	known := map[string]bool{"priority": true, "id": true, "enabled": true}
	for _, o := range spec.Options {
		known[o.Name] = true
	}
	bc := builtin.Config{Options: map[string]any{}, Store: x.Store(), Dir: cfg.Dir, Logger: x.Logger(), Shell: x.shellCache(),
		Priority: bb.Priority, ID: bb.ID}
	if o := x.opts; o.envGiven {
		bc.Getenv = func(k string) string { v, _ := o.Getenv(k); return v }
	}
	keys := make([]string, 0, len(bb.OptionRanges))
	for k := range bb.OptionRanges {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !known[k] {
			names := make([]string, 0, len(known))
			for n := range known {
				names = append(names, n)
			}
			sort.Strings(names)
			cfg.Errorf(bb.OptionRanges[k], "Unsupported argument",
				"Built-in %q has no option %q; its options are %s.", bb.Name, k, strings.Join(names, ", "))
			continue
		}
		if v, ok := bb.Options[k]; ok {
			bc.Options[k] = v
		}
	}
	if !bb.Enabled {
		return nil
	}
	hooks, err := builtin.New(bb.Name, bc)
	if err != nil {
		cfg.Errorf(bb.Range, "Invalid built-in", "%s.", err)
		return nil
	}
	var out []engine.Hook
	for _, h := range hooks {
		if prev, dup := declared[h.ID]; dup {
			cfg.Errorf(bb.Range, "Duplicate hook id",
				"Built-in %q adds hook %q, which is already declared at %s; set id = \"...\" in the builtin block.", bb.Name, h.ID, at(prev))
			continue
		}
		declared[h.ID] = bb.Range
		h.Source = fmt.Sprintf("%s:%d", bb.Range.Filename, bb.Range.Start.Line)
		out = append(out, h)
	}
	return out
}

func at(r hcl.Range) string {
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}
