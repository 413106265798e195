// Package catalogdoc renders the event catalog as the Markdown table of
// docs/events.md and of `hookctl events --markdown`.
package catalogdoc

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hookctl/hookctl/engine"
)

// Table renders event specs as a Markdown table, one row an event.
func Table(specs []engine.EventSpec) string {
	var b strings.Builder
	b.WriteString("| event | source | strategy | matcher field | decisions | own result fields | aliases |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	for _, s := range specs {
		var fields []string
		for f, r := range s.Merge {
			fields = append(fields, fmt.Sprintf("`%s` (%s)", f, r.Rule))
		}
		sort.Strings(fields)
		dec := strings.Join(s.Decisions, " > ")
		if s.DecisionField != "" && dec != "" {
			dec = "`" + s.DecisionField + "`: " + dec
		}
		if s.FailClosed {
			dec += " (fails closed)"
		}
		aliases := make([]string, len(s.Aliases))
		for i, al := range s.Aliases {
			aliases[i] = "`" + al + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s | %s |\n", s.Name, s.Source, s.Strategy, dash(s.MatcherField),
			dash(strings.TrimSpace(dec)), dash(strings.Join(fields, ", ")), dash(strings.Join(aliases, " ")))
	}
	return b.String()
}
