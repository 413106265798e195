package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newValidateCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "validate [--config PATH]",
		Short: "Check a configuration: diagnostics on stderr, exit 0 or 1",
		Long: `validate loads the configuration the way fire, claude and serve do and reports
every problem at once, each with file:line:column and a source snippet:
unknown blocks and attributes, duplicate hook ids, unknown events, two handlers
on one hook, bad durations, matchers and conditions, JavaScript syntax errors
and missing scripts. Warnings (matchers that cannot work, permission-rule
syntax in a matcher, ...) are printed but do not fail.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := a.load(false)
			if err != nil {
				return err
			}
			defer cfg.Close()
			eng, err := a.newEngine(cfg)
			if err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			defer eng.Close(cmd.Context())
			n := len(cfg.Engine.Hooks)
			fmt.Fprintf(a.stderr, "%s: ok (%d hook(s), %d custom event(s))\n", cfg.Engine.Name, n, len(cfg.Engine.Events))
			return nil
		},
	}
}
