package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/termsafe"
	"github.com/hookctl/hookctl/lint"
	"github.com/hookctl/hookctl/runtime"
)

func newValidateCmd(a *app) *cobra.Command {
	var asJSON, strict bool
	cmd := &cobra.Command{
		Use:   "validate [--config PATH] [--json] [--strict]",
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

--strict counts the warnings as errors: they are reported with severity error
and make the exit status 1 (for CI).

--json prints one JSON object on stdout instead of the text on stderr, load
errors (syntax, unknown blocks) included:
{"ok", "config", "strict", "hooks", "custom_events", "errors", "warnings",
"diagnostics": [{"file", "line", "column", "end_line", "end_column",
"severity", "code", "summary", "detail", "suggestion"}]}; docs/formatting.md
describes each field. The exit status is the same as without it.

validate needs no trust (see hookctl trust): you run it on purpose, on the
configuration you name. Loading a configuration runs the top level of its scripts
(in the sandbox), as fire, list and bench do too.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// JSON is written unescaped (termsafe.JSON makes it safe).
			defer a.escapeOutput(!asJSON)()
			var res *validation
			layers, err := a.layers()
			var ee *exitError
			switch {
			case errors.As(err, &ee) && ee.code == exitFailure:
				// A managed or user layer refused: an error of the
				// configuration.
				res = &validation{path: a.configPath, diags: &hcl.Diagnostics{}, loadErr: ee.err}
			case err != nil:
				return err
			default:
				res = a.validate(cmd.Context(), layers)
			}
			if strict {
				res.strict()
			}
			if asJSON {
				return a.validateJSON(res)
			}
			return a.validateText(res)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the diagnostics as a JSON object on stdout")
	cmd.Flags().BoolVar(&strict, "strict", false, "count warnings as errors (exit 1)")
	return cmd
}

// validation is what validate found.
type validation struct {
	// path is the configuration as discovered, name as the engine names
	// it.
	path, name string
	// diags are every error and warning, loader's and lint's.
	diags *hcl.Diagnostics
	// loadErr is a failure that is not a diagnostic: a file that cannot
	// be read, the engine refusing the configuration.
	loadErr error
	// loaded is set when the configuration loaded; hooks and events
	// count its hooks and custom events.
	loaded        bool
	hooks, events int
	// strictMode is --strict; strictWarnings counts the warnings it made
	// errors.
	strictMode     bool
	strictWarnings int
}

// validate loads the configuration at path as fire does and runs lint's
// checks on it, collecting every diagnostic instead of printing it.
func (a *app) validate(ctx context.Context, layers []runtime.Layer) *validation {
	path := layers[len(layers)-1].Path
	v := &validation{path: path, name: path, diags: &hcl.Diagnostics{}}
	fail := func(err error) *validation {
		var d *hcl.Diagnostics
		if errors.As(err, &d) {
			v.diags = d
			return v
		}
		v.loadErr = err
		return v
	}
	eng, err := assemble.NewEngine(engine.WithLogger(a.logger()))
	if err != nil {
		return fail(err)
	}
	a.timings.Mark("engine")
	parts, err := a.parts(ctx, layers)
	if err != nil {
		eng.Close(ctx)
		return fail(err)
	}
	cfg, err := assemble.LoadLayers(parts, assemble.WithEngine(eng), assemble.WithProjectDir(projectDir()), assemble.WithPhaseTimer(a.timings.Phase()))
	if err != nil {
		eng.Close(ctx)
		return fail(err)
	}
	// The engine, then the configuration.
	defer func() {
		eng.Close(ctx)
		cfg.Close()
	}()
	v.name = cfg.Engine.Name
	if err := eng.Load(cfg.Engine); err != nil {
		// The loader's warnings stay with the engine's errors.
		v.diags = cfg.Warnings
		return fail(fmt.Errorf("loading %s: %w", cfg.Engine.Name, err))
	}
	a.timings.Mark("load")
	// The loader's warnings and validate's own.
	v.diags = cfg.Warnings
	if len(cfg.Layers) == 0 {
		v.diags = v.diags.With(lint.Check(cfg.Decoded(), eng)...)
	}
	for _, l := range cfg.Layers {
		v.diags = v.diags.With(lint.Check(l.Decoded(), eng)...)
	}
	v.loaded = true
	v.hooks, v.events = len(cfg.Engine.Hooks), len(cfg.Engine.Events)
	return v
}

// strict makes every warning an error (--strict).
func (v *validation) strict() {
	v.strictMode = true
	list := append([]hcl.Diagnostic(nil), v.diags.List...)
	for i := range list {
		if list[i].Severity == hcl.SeverityWarning {
			list[i].Severity = hcl.SeverityError
			v.strictWarnings++
		}
	}
	v.diags = v.diags.With()
	v.diags.List = list
}

// ok reports whether the configuration passed: it loaded and has no
// error (none with --strict, warnings included).
func (v *validation) ok() bool { return v.loaded && !v.diags.HasErrors() }

// all is every diagnostic, a load error included as diagnostics without
// a position (one per problem the engine found).
func (v *validation) all() []hcl.Diagnostic {
	ds := append([]hcl.Diagnostic(nil), v.diags.List...)
	if v.loadErr == nil {
		return ds
	}
	var pe *fs.PathError
	if errors.As(v.loadErr, &pe) {
		// The configuration named cannot be read (missing, not a
		// directory, no permission): the HCL library's summary and code.
		return append(ds, hcl.Diagnostic{File: v.path, Severity: hcl.SeverityError, Code: hcl.CodeReadFile,
			Summary: "Failed to read file", Detail: v.loadErr.Error()})
	}
	errs := []error{v.loadErr}
	var le *engine.LoadError
	if errors.As(v.loadErr, &le) && len(le.Errs) > 0 {
		errs = le.Errs
	}
	for _, e := range errs {
		ds = append(ds, hcl.Diagnostic{Severity: hcl.SeverityError, Code: hcl.CodeOther, Summary: e.Error()})
	}
	return ds
}

// validateText prints the diagnostics on stderr, as every command does,
// then the verdict.
func (a *app) validateText(v *validation) error {
	v.diags.Render(a.stderr)
	if v.loadErr != nil {
		return &exitError{code: exitFailure, err: v.loadErr}
	}
	if !v.ok() {
		if v.loaded && v.strictWarnings > 0 {
			fmt.Fprintf(a.stderr, "%s: %d warning(s) are errors under --strict\n", v.name, v.strictWarnings)
		}
		return silent(exitFailure)
	}
	fmt.Fprintf(a.stderr, "%s: ok (%d hook(s), %d custom event(s))\n", v.name, v.hooks, v.events)
	return nil
}

// validateReport is validate --json's output (docs/formatting.md).
type validateReport struct {
	// OK is whether the configuration loaded without errors (without
	// warnings either, with --strict): exit status 0.
	OK bool `json:"ok"`
	// Config is the configuration validated, as the engine names it.
	Config string `json:"config"`
	// Strict is --strict: the warnings were made errors.
	Strict bool `json:"strict"`
	// Hooks and CustomEvents count what the configuration declares; they
	// are absent when it did not load.
	Hooks        *int `json:"hooks,omitempty"`
	CustomEvents *int `json:"custom_events,omitempty"`
	// Errors and Warnings count Diagnostics by severity.
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	// Diagnostics are sorted by file, line and column (those without a
	// position last); never null.
	Diagnostics []diagnosticJSON `json:"diagnostics"`
}

// diagnosticJSON is one hcl.Diagnostic in JSON: every field is always
// present (0 or "" when unknown).
type diagnosticJSON struct {
	File       string `json:"file"`
	Line       int    `json:"line"`
	Column     int    `json:"column"`
	EndLine    int    `json:"end_line"`
	EndColumn  int    `json:"end_column"`
	Severity   string `json:"severity"`
	Code       string `json:"code"`
	Summary    string `json:"summary"`
	Detail     string `json:"detail"`
	Suggestion string `json:"suggestion"`
}

// validateJSON prints the report on stdout; exit status 1 unless ok.
func (a *app) validateJSON(v *validation) error {
	ds := v.all()
	hcl.SortDiagnostics(ds)
	rep := validateReport{OK: v.ok(), Config: v.name, Strict: v.strictMode, Diagnostics: make([]diagnosticJSON, 0, len(ds))}
	if v.loaded {
		rep.Hooks, rep.CustomEvents = &v.hooks, &v.events
	}
	for _, d := range ds {
		switch d.Severity {
		case hcl.SeverityError:
			rep.Errors++
		case hcl.SeverityWarning:
			rep.Warnings++
		}
		rep.Diagnostics = append(rep.Diagnostics, diagnosticJSON{
			File: d.File, Line: d.Line, Column: d.Column, EndLine: d.EndLine, EndColumn: d.EndColumn,
			Severity: string(d.Severity), Code: string(d.Code), Summary: d.Summary, Detail: d.Detail, Suggestion: d.Suggestion,
		})
	}
	b, err := termsafe.JSON(rep)
	if err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	if _, err := a.stdout.Write(b); err != nil {
		return &exitError{code: exitFailure, err: err}
	}
	if !rep.OK {
		return silent(exitFailure)
	}
	return nil
}
