package main

import (
	"errors"
	"os"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/lsp"
	"github.com/hookctl/hookctl/runtime"
)

func newLSPCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "lsp",
		Short: "Language server for hook configurations (*.hcl) and tests (*_test.hcl), over stdio",
		Long: `lsp speaks the Language Server Protocol on stdin and stdout, for an editor to
start: diagnostics as you type (the checks of hookctl validate, on the directory
of the file with the unsaved buffers read instead of the disk, and of hookctl
test for *_test.hcl files), each with its HK code; completion of block types,
attributes, event names, tool names in matchers, built-ins and their options and
payload paths in when; hover on events, built-ins, options and payload fields;
go-to-definition of script files and required modules. Logs go to stderr.

Like validate it needs no trust and loads the configuration it checks, which
runs the top level of its scripts in the sandbox. See docs/lsp.md for editor
set-up (VS Code, Neovim, Helix).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			srv := lsp.New(
				lsp.WithLogger(a.logger()),
				lsp.WithEngineOptions(engine.WithLogger(a.logger())),
				lsp.WithProjectDir(projectDir()),
				lsp.WithLayers(upperLayers),
				lsp.WithVersion(version()),
			)
			err := srv.Serve(cmd.Context(), a.stdin, a.stdout)
			if errors.Is(err, lsp.ErrExitWithoutShutdown) {
				return silent(exitFailure)
			}
			return err
		},
	}
}

// upperLayers are the managed and user layers a configuration directory
// is checked with in the editor (none that cannot be discovered or
// checked; the directory itself is never one of them).
func upperLayers(dir string) []assemble.Part {
	layers, err := runtime.New().OpenLayers("", dir, os.Getenv)
	if err != nil {
		return nil
	}
	var out []assemble.Part
	for _, p := range runtime.Parts(layers) {
		if p.Layer == runtime.LayerProject || samePath("", p.Path, dir) {
			continue
		}
		out = append(out, p)
	}
	return out
}
