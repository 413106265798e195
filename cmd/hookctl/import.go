package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/hcl"
	claudeproto "github.com/hookctl/hookctl/protocol/claude"
	"github.com/hookctl/hookctl/protocol/hosts"
)

func newImportCmd(a *app) *cobra.Command {
	var out, hostName string
	cmd := &cobra.Command{
		Use:   "import [--host] HOST FILE",
		Short: "Turn a host's hook configuration (Claude Code, Codex, Gemini CLI, Cursor, Copilot CLI, crush) into hooks.hcl",
		Long: `import claude reads the "hooks" of a Claude Code settings file (settings.json,
settings.local.json, a plugin's hooks.json) and writes an equivalent hooks.hcl:
command hooks run unchanged through the command handler, matchers and timeouts
carry over, "if" permission rules become permissionRule() conditions, async
hooks become background hooks. What cannot be expressed is kept as a comment
and reported. The result is checked by loading it.

Other hosts' command hooks (--host codex, gemini, cursor, copilot, crush; or
the host as the first argument) are imported with their events mapped to the
catalog's and protocol = "<host>": hookctl runs each script unchanged, giving
it the payload in its host's shape and reading its reply as that host would.`,
		Example: `  hookctl import claude .claude/settings.json > .claude/hooks.hcl
  hookctl import --host crush crush.json -o hooks.hcl
  hookctl import gemini .gemini/settings.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if hostName != "" && len(args) == 1 {
				return nil
			}
			if hostName == "" && len(args) == 2 {
				return nil
			}
			return usageError("usage: hookctl import [--host] HOST FILE (HOST: %s)", strings.Join(hosts.New().Names(), ", "))
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if hostName == "" {
				hostName, args = args[0], args[1:]
			}
			h, ok := hosts.New().Lookup(hostName)
			if !ok {
				return usageError("unknown host %q: want one of %s", hostName, strings.Join(hosts.New().Names(), ", "))
			}
			data, err := os.ReadFile(args[0])
			if err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			settings, hostWarnings, err := h.ToClaudeSettings(data)
			for _, w := range hostWarnings {
				fmt.Fprintf(a.stderr, "hookctl: warning: %s\n", w)
			}
			if err != nil {
				return &exitError{code: exitFailure, err: fmt.Errorf("%s: %w", args[0], err)}
			}
			text, warnings, err := claudeproto.ImportHost(settings, h.Name(), h.Title())
			if err != nil {
				return &exitError{code: exitFailure, err: fmt.Errorf("%s: %w", args[0], err)}
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
	cmd.Flags().StringVar(&hostName, "host", "", "the host whose configuration FILE is: "+strings.Join(hosts.New().Names(), ", "))
	return cmd
}
