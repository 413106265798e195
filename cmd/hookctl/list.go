package main

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/termsafe"
)

func newListCmd(a *app) *cobra.Command {
	var event string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--config PATH] [--event E]",
		Short: "List the hooks of each event in firing order",
		Long: `list prints, for each event with hooks (or only --event E), its hooks in
the order they fire: id, phase, priority, handler, then the layer (managed,
user or project, when the configuration has more than the project's), the
matcher, the timeout, (disabled) and, last, "when:" and the condition, where
they are set. --json prints an object of event name to its hooks, each with id,
phase, priority, handler, matcher, when, timeout, on_error, disabled, source
and layer.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			defer a.escapeOutput(!asJSON)()
			eng, cfg, err := a.load()
			if err != nil {
				return err
			}
			defer cfg.Close()
			defer eng.Close(cmd.Context())
			events := eng.EventsWithHooks()
			if event != "" {
				spec, err := eng.Event(event)
				if err != nil {
					return &exitError{code: exitFailure, err: err}
				}
				events = []string{spec.Name}
			}
			byEvent := map[string][]engine.HookInfo{}
			for _, ev := range events {
				hooks, err := eng.Hooks(ev)
				if err != nil {
					return &exitError{code: exitFailure, err: err}
				}
				byEvent[ev] = hooks
			}
			if asJSON {
				type hook struct {
					ID       string `json:"id"`
					Phase    string `json:"phase"`
					Priority int    `json:"priority"`
					Handler  string `json:"handler"`
					Matcher  string `json:"matcher,omitempty"`
					When     string `json:"when,omitempty"`
					Timeout  string `json:"timeout,omitempty"`
					OnError  string `json:"on_error,omitempty"`
					Disabled bool   `json:"disabled,omitempty"`
					Source   string `json:"source,omitempty"`
					Layer    string `json:"layer,omitempty"`
				}
				out := map[string][]hook{}
				for ev, hs := range byEvent {
					list := []hook{}
					for _, h := range hs {
						hh := hook{ID: h.ID, Phase: string(h.Phase), Priority: h.Priority, Handler: h.Handler, Matcher: h.Matcher,
							When: h.When, OnError: h.OnError, Disabled: h.Disabled, Source: h.Source, Layer: h.Layer}
						if h.Timeout > 0 {
							hh.Timeout = h.Timeout.String()
						}
						list = append(list, hh)
					}
					out[ev] = list
				}
				return writeJSON(a.stdout, out, true)
			}
			if len(events) == 0 {
				fmt.Fprintln(a.stdout, "no hooks")
				return nil
			}
			tw := tabwriter.NewWriter(a.stdout, 2, 4, 2, ' ', 0)
			for i, ev := range events {
				if i > 0 {
					fmt.Fprintln(tw)
				}
				fmt.Fprintf(tw, "%s\n", termsafe.Escape(ev))
				if len(byEvent[ev]) == 0 {
					fmt.Fprintln(tw, "  (no hooks)")
				}
				for n, h := range byEvent[ev] {
					extra := ""
					if h.Layer != "" {
						extra += " layer=" + h.Layer
					}
					if h.Matcher != "" {
						extra += " matcher=" + termsafe.Escape(h.Matcher)
					}
					if h.Timeout > 0 {
						extra += " timeout=" + h.Timeout.Round(time.Millisecond).String()
					}
					if h.Disabled {
						extra += " (disabled)"
					}
					if h.When != "" {
						// Last: a condition has spaces of its own.
						extra += " when: " + termsafe.Escape(strings.TrimSpace(h.When))
					}
					fmt.Fprintf(tw, "  %d.\t%s\t%s\tpriority %d\t%s\t%s\n", n+1, termsafe.Escape(h.ID), string(h.Phase), h.Priority, termsafe.Escape(h.Handler), extra)
				}
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVarP(&event, "event", "e", "", "only this event")
	_ = cmd.RegisterFlagCompletionFunc("event", a.eventFlag)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
