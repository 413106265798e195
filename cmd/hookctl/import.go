package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/claude"
	"github.com/hookctl/hookctl/hcl"
)

func newImportCmd(a *app) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "import claude SETTINGS.json",
		Short: "Turn a Claude Code hooks configuration into hooks.hcl",
		Long: `import claude reads the "hooks" of a Claude Code settings file (settings.json,
settings.local.json, a plugin's hooks.json) and writes an equivalent hooks.hcl:
command hooks run unchanged through the command handler, matchers and timeouts
carry over, "if" permission rules become permissionRule() conditions, async
hooks become background hooks. What cannot be expressed is kept as a comment
and reported. The result is checked by loading it.`,
		Example: `  hookctl import claude .claude/settings.json > .claude/hooks.hcl`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 || args[0] != "claude" {
				return usageError("usage: hookctl import claude SETTINGS.json")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := os.ReadFile(args[1])
			if err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			text, warnings, err := claude.Import(data)
			if err != nil {
				return &exitError{code: exitFailure, err: fmt.Errorf("%s: %w", args[1], err)}
			}
			for _, w := range warnings {
				fmt.Fprintf(a.stderr, "hookctl: warning: %s\n", w)
			}
			dir := "."
			if out != "" {
				dir = filepath.Dir(out)
			}
			cfg, err := assemble.LoadSource("imported.hcl", []byte(text), dir)
			if err != nil {
				var d *hcl.Diagnostics
				if errors.As(err, &d) {
					d.Render(a.stderr)
				}
				return &exitError{code: exitFailure, err: errors.New("the imported configuration does not load (see above)")}
			}
			cfg.Close()
			if out == "" {
				fmt.Fprint(a.stdout, text)
				return nil
			}
			if err := os.WriteFile(out, []byte(text), 0o644); err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			fmt.Fprintf(a.stderr, "hookctl: wrote %s (%d hook(s))\n", out, len(cfg.Engine.Hooks))
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to this file instead of stdout")
	return cmd
}
