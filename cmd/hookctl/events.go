package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/catalogdoc"
)

func newEventsCmd(a *app) *cobra.Command {
	var asJSON, markdown bool
	var source string
	cmd := &cobra.Command{
		Use:   "events [--source claude-code|openclaw|custom] [--json|--markdown]",
		Short: "Print the event catalog: names, aliases, strategy, matcher field, decisions",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var specs []engine.EventSpec
			if a.configPath != "" {
				// With a configuration, its custom events are listed too.
				eng, cfg, err := a.load()
				if err != nil {
					return err
				}
				defer cfg.Close()
				defer eng.Close(cmd.Context())
				specs = eng.Events()
			} else {
				specs = engine.BuiltinEvents()
			}
			if source != "" {
				var keep []engine.EventSpec
				for _, s := range specs {
					if s.Source == source || source == "custom" && s.Source == "" {
						keep = append(keep, s)
					}
				}
				specs = keep
			}
			switch {
			case asJSON:
				return writeEventsJSON(a, specs)
			case markdown:
				writeEventsMarkdown(a, specs)
				return nil
			}
			tw := tabwriter.NewWriter(a.stdout, 2, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "EVENT\tSTRATEGY\tMATCHER\tDECISIONS\tALIASES")
			for _, s := range specs {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", s.Name, s.Strategy, dash(s.MatcherField), dash(strings.Join(s.Decisions, ">")), strings.Join(s.Aliases, " "))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print a Markdown table (the event table of docs/events.md)")
	cmd.Flags().StringVar(&source, "source", "", "only events from claude-code, openclaw or custom")
	_ = cmd.RegisterFlagCompletionFunc("source", fixed("claude-code", "openclaw", "custom"))
	return cmd
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func writeEventsJSON(a *app, specs []engine.EventSpec) error {
	type rule struct {
		Rule  string   `json:"rule"`
		Order []string `json:"order,omitempty"`
	}
	type event struct {
		Name           string          `json:"name"`
		Aliases        []string        `json:"aliases,omitempty"`
		Strategy       string          `json:"strategy"`
		MatcherField   string          `json:"matcher_field,omitempty"`
		Decisions      []string        `json:"decisions,omitempty"`
		DecisionField  string          `json:"decision_field,omitempty"`
		Merge          map[string]rule `json:"merge,omitempty"`
		Fields         []string        `json:"fields"`
		DefaultTimeout string          `json:"default_timeout,omitempty"`
		FailClosed     bool            `json:"fail_closed,omitempty"`
		StopGuard      bool            `json:"stop_guard,omitempty"`
		Source         string          `json:"source"`
		Description    string          `json:"description,omitempty"`
	}
	out := make([]event, 0, len(specs))
	for _, s := range specs {
		e := event{Name: s.Name, Aliases: s.Aliases, Strategy: s.Strategy.String(), MatcherField: s.MatcherField,
			Decisions: s.Decisions, DecisionField: s.DecisionField, Fields: s.ResultFields(), FailClosed: s.FailClosed,
			StopGuard: s.StopGuard, Source: s.Source, Description: s.Description}
		if s.DefaultTimeout > 0 {
			e.DefaultTimeout = s.DefaultTimeout.String()
		}
		if len(s.Merge) > 0 {
			e.Merge = map[string]rule{}
			for f, r := range s.Merge {
				e.Merge[f] = rule{Rule: r.Rule.String(), Order: r.Order}
			}
		}
		out = append(out, e)
	}
	return writeJSON(a.stdout, out, true)
}

// writeEventsMarkdown prints the catalog as the event table of docs/events.md.
func writeEventsMarkdown(a *app, specs []engine.EventSpec) {
	fmt.Fprint(a.stdout, catalogdoc.Table(specs))
}
