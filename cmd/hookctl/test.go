package main

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/hooktest"
	"github.com/hookctl/hookctl/internal/safefile"
	"github.com/hookctl/hookctl/runtime"
)

func newTestCmd(a *app) *cobra.Command {
	var run, junit string
	var asJSON, verbose bool
	cmd := &cobra.Command{
		Use:   "test [--config PATH] [--run REGEX] [--json] [--junit FILE] [-v]",
		Short: "Run the test blocks of the *_test.hcl files beside the configuration",
		Long: `test runs the tests of a configuration: the test blocks of the *_test.hcl files
beside it (in the directory --config names, or in the directory of the file it
names). Test files are never loaded as configuration.

  test "rm is denied" {
    event   = "PreToolUse"            # or the payload's hook_event_name
    payload = { tool_name = "Bash", tool_input = { command = "rm -rf /" } }
    # payload_file = "payloads/rm.json"  (relative to the test file)
    # set = { "tool_input.command" = "rm -rf ~" }  (dotted paths, on either)
    # env = { LINT_LEVEL = "strict" }  (for the test's command hooks)
    expect {
      decision        = "deny"
      blocked         = true
      reason_contains = "rm -rf"
      hooks           = { no-rm = "decided", pip-to-uv = "skipped" }
      # updated_input, output, state: the keys given must match;
      # additional_context: the whole text;
      # additional_context_contains: a part of it
    }
  }

The configuration is loaded once, into one engine, and every test fires its
event at it, in file order, with its own kv store and Stop loop-guard count. A
hook that fails (error, timeout, panic) fails the test unless the test expects
that status of it: hooks = { no-rm = "error" }, even when its on_error makes
the outcome what the test expects. A relative cwd in a payload is relative to
the test file. An attribute an expect block does not take is an error that
lists the ones it does.

The output is go test's: each failing test by name with what differed (-v: every
test and its hooks), then the coverage (the hooks no test reached: skipped
every time, by matcher, condition or a stopped chain; and the hooks that can
decide but never did), then a line that starts with ok or FAIL. --json prints
the same as JSON instead; --junit FILE also writes JUnit XML. Exit 0 when every
test passed, 1 when one failed or the configuration or a test file has a
problem. Like fire, test needs no trust: it runs the hooks you point it at.`,
		Example: `  hookctl test --config examples
  hookctl test --config .claude/hooks.hcl --run 'rm|pip' -v
  hookctl test --junit report.xml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			defer a.escapeOutput(!asJSON)()
			var opts []hooktest.Option
			if run != "" {
				re, err := regexp.Compile(run)
				if err != nil {
					return usageError("--run: %v", err)
				}
				opts = append(opts, hooktest.WithRun(re))
			}
			layers, err := a.layers()
			if err != nil {
				return err
			}
			// The tests beside the project's configuration (else the
			// last layer's) run on the hooks of every layer.
			path := layers[len(layers)-1].Path
			var upper []assemble.Part
			for _, p := range runtime.Parts(layers) {
				if p.Layer == runtime.LayerProject {
					path = p.Path
					continue
				}
				upper = append(upper, p)
			}
			if _, ok := runtime.ProjectLayer(layers); !ok {
				upper = upper[:len(upper)-1]
			}
			opts = append(opts, hooktest.WithLayers(upper...))
			if !cmd.Flags().Changed("log-level") {
				// A failing hook is a failing test, said in the results;
				// the engine's warning would say it twice.
				a.logLevel = "error"
			}
			path, signed, err := a.openSigned(cmd.Context(), path)
			if err != nil {
				return err
			}
			opts = append(opts,
				hooktest.WithEngineOptions(engine.WithLogger(a.logger())),
				hooktest.WithAssembleOptions(assemble.WithProjectDir(projectDir())),
				hooktest.WithProjectOptions(signed...))
			rep, err := hooktest.Run(cmd.Context(), path, opts...)
			if err != nil {
				var d *hcl.Diagnostics
				if errors.As(err, &d) {
					d.Render(a.stderr)
					return silent(exitFailure)
				}
				return &exitError{code: exitFailure, err: err}
			}
			if rep.Warnings != nil {
				rep.Warnings.Render(a.stderr)
			}
			if junit != "" {
				var b bytes.Buffer
				if err := rep.WriteJUnit(&b); err != nil {
					return &exitError{code: exitFailure, err: err}
				}
				if err := safefile.WriteFileOwn(junit, b.Bytes(), 0o644); err != nil {
					return &exitError{code: exitFailure, err: fmt.Errorf("--junit: %w", err)}
				}
			}
			if asJSON {
				err = rep.WriteJSON(a.stdout)
			} else {
				err = rep.WriteText(a.stdout, verbose)
			}
			if err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			if !rep.Passed() {
				return silent(exitFailure)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&run, "run", "", "run only the tests whose name matches this regular expression")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the results and coverage as JSON")
	cmd.Flags().StringVar(&junit, "junit", "", "also write the results as JUnit XML to this file")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "print every test and the trace of its hooks")
	return cmd
}
