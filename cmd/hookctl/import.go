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
)

func newImportCmd(a *app) *cobra.Command {
	var out, hostName, pluginRoot, pluginData string
	cmd := &cobra.Command{
		Use:   "import [--host] HOST FILE|PLUGIN_DIR",
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
it the payload in its host's shape and reading its reply as that host would.

A Claude Code plugin is imported the way Claude Code runs it: import claude
PLUGIN_DIR (a directory with .claude-plugin/plugin.json) reads its
hooks/hooks.json and the hooks its plugin.json declares, and import claude
--plugin-root DIR FILE a plugin's hooks file given apart. Every imported
command hook gets the plugin's CLAUDE_PLUGIN_ROOT (the directory, absolute)
and CLAUDE_PLUGIN_DATA (--plugin-data, default
~/.claude/plugins/data/<plugin name>) in its env. A ${VAR} that neither the
import nor hookctl sets is a warning naming it.`,
		Example: `  hookctl import claude .claude/settings.json > .claude/hooks.hcl
  hookctl import claude ~/src/my-plugin -o .claude/hooks.hcl
  hookctl import claude --plugin-root ~/src/my-plugin hooks.json
  hookctl import --host crush crush.json -o hooks.hcl
  hookctl import gemini .gemini/settings.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if hostName != "" && len(args) == 1 {
				return nil
			}
			if hostName == "" && len(args) == 2 {
				return nil
			}
			return usageError("usage: hookctl import [--host] HOST FILE (HOST: %s)", strings.Join(a.registry().Names(), ", "))
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if hostName == "" {
				hostName, args = args[0], args[1:]
			}
			h, ok := a.registry().Lookup(hostName)
			if !ok {
				return usageError("unknown host %q: want one of %s", hostName, strings.Join(a.registry().Names(), ", "))
			}
			var opts claudeproto.ImportOptions
			var data []byte
			_, isClaude := h.(*claudeproto.Protocol)
			if (pluginRoot != "" || pluginData != "") && !isClaude {
				return usageError("--plugin-root and --plugin-data are for Claude Code plugins (import claude)")
			}
			if fi, err := os.Stat(args[0]); err == nil && fi.IsDir() {
				if !isClaude || !claudeproto.IsPlugin(args[0]) {
					return &exitError{code: exitFailure, err: fmt.Errorf("%s is a directory, not a Claude Code plugin (no %s)", args[0], claudeproto.PluginManifest)}
				}
				if pluginRoot != "" {
					return usageError("--plugin-root is for a hooks file given apart; %s is the plugin", args[0])
				}
				p, err := claudeproto.LoadPlugin(args[0])
				if err != nil {
					return &exitError{code: exitFailure, err: err}
				}
				data, pluginRoot = p.Settings, p.Root
				opts.Header = fmt.Sprintf("Imported from the Claude Code plugin %s (%s: %s) by `hookctl import claude`.", p.Name, p.Root, strings.Join(p.Sources, ", "))
				if pluginData == "" {
					pluginData = defaultPluginData(p.Name)
				}
			} else {
				data, err = os.ReadFile(args[0])
				if err != nil {
					return &exitError{code: exitFailure, err: err}
				}
			}
			if pluginRoot != "" {
				root, err := filepath.Abs(pluginRoot)
				if err != nil {
					return &exitError{code: exitFailure, err: err}
				}
				if opts.Header == "" {
					opts.Header = fmt.Sprintf("Imported from %s, hooks of the Claude Code plugin at %s, by `hookctl import claude`.", args[0], root)
					if pluginData == "" {
						pluginData = defaultPluginData(filepath.Base(root))
					}
				}
				opts.Env = claudeproto.PluginEnv(root, pluginData)
			}
			settings, hostWarnings, err := h.ToClaudeSettings(data)
			for _, w := range hostWarnings {
				fmt.Fprintf(a.stderr, "hookctl: warning: %s\n", w)
			}
			if err != nil {
				return &exitError{code: exitFailure, err: fmt.Errorf("%s: %w", args[0], err)}
			}
			opts.Host, opts.Title = h.Name(), h.Title()
			text, warnings, err := claudeproto.ImportWith(settings, opts)
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
	cmd.Flags().StringVar(&pluginRoot, "plugin-root", "", "import claude: FILE holds the hooks of the Claude Code plugin in this directory (its CLAUDE_PLUGIN_ROOT)")
	cmd.Flags().StringVar(&pluginData, "plugin-data", "", "import claude of a plugin: its CLAUDE_PLUGIN_DATA (default ~/.claude/plugins/data/<plugin name>)")
	cmd.Flags().StringVar(&hostName, "host", "", "the host whose configuration FILE is: "+strings.Join(a.registry().Names(), ", "))
	_ = cmd.RegisterFlagCompletionFunc("host", a.hostFlag)
	cmd.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if hostName == "" && len(args) == 0 {
			return a.completeHosts(toComplete), cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveDefault // FILE or PLUGIN_DIR
	}
	return cmd
}

// defaultPluginData is where Claude Code keeps a plugin's data
// (~/.claude/plugins/data/<name>); empty when there is no home directory.
func defaultPluginData(name string) string {
	home, err := os.UserHomeDir()
	if err != nil || name == "" {
		return ""
	}
	return filepath.Join(home, ".claude", "plugins", "data", name)
}
