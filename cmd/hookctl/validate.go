package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/lint"
)

func newValidateCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "validate [--config PATH]",
		Short: "Check a configuration: diagnostics on stderr, exit 0 or 1",
		Long: `validate loads the configuration the way fire, claude and serve do and reports
every problem at once, each with file:line:column and a source snippet:
unknown blocks and attributes, duplicate hook ids, unknown events, two handlers
on one hook, bad durations, matchers and conditions, JavaScript syntax errors
and missing scripts. Warnings are printed but do not fail: a matcher on an event
without a matcher field (Claude Code ignores it), permission-rule syntax in a
matcher (Bash(git *)), a matcher or a when regex that can never match (a^b, $x,
[^\s\S]), and a matcher that differs from a Claude Code tool or matcher value
only by case (bash for Bash: matchers are case-sensitive).

validate needs no trust (see hookctl trust): you run it on purpose, on the
configuration you name. Loading a configuration runs the top level of its scripts
(in the sandbox), as fire, list and bench do too.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			defer a.escapeOutput(true)()
			path, err := a.discover()
			if err != nil {
				return err
			}
			eng, cfg, err := a.loadPath(path, false, nil)
			if err != nil {
				return err
			}
			defer cfg.Close()
			defer eng.Close(cmd.Context())
			// The loader's warnings and validate's own, in file order.
			warnings := cfg.Warnings.With(lint.Check(cfg.Decoded(), eng)...)
			warnings.Render(a.stderr)
			n := len(cfg.Engine.Hooks)
			fmt.Fprintf(a.stderr, "%s: ok (%d hook(s), %d custom event(s))\n", cfg.Engine.Name, n, len(cfg.Engine.Events))
			return nil
		},
	}
}
