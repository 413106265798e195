package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/bundle"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/runtime"
)

// discover finds the configuration, the same way for every command
// (runtime.Discover): --config, then $HOOKCTL_CONFIG, then ./hooks.hcl,
// then ./.hookctl/, then $CLAUDE_PROJECT_DIR/.claude/hooks.hcl, then
// ./.claude/hooks.hcl. Finding none is a usage error.
func (a *app) discover() (string, error) {
	path, err := runtime.Discover(a.configPath, "", os.Getenv)
	if err != nil {
		return "", usageError("%v", err)
	}
	return path, nil
}

// openSigned is the configuration at path as it is loaded: a signed
// bundle or directory (runtime.OpenSigned) is verified against the keys
// trusted with hookctl trust --pub and becomes its verified directory,
// every file it loads checked against the signed manifest; a bundle that
// does not verify is exit status 1 (its hooks never run). Any other path
// is returned as it is.
func (a *app) openSigned(ctx context.Context, path string) (string, []assemble.Option, error) {
	signed, err := runtime.OpenSigned(ctx, path, nil, os.Getenv)
	if err != nil && bundle.IsBundle(path) {
		return "", nil, &exitError{code: exitFailure, err: fmt.Errorf("signed configuration %s not verified: %w; its hooks did not run", path, err)}
	}
	if signed == nil {
		return path, nil, nil
	}
	return signed.Path, []assemble.Option{assemble.WithFileCheck(signed.Check)}, nil
}

// parts are the layers as assemble.LoadLayers loads them, a signed
// project (a bundle, a signed directory) opened by openSigned.
func (a *app) parts(ctx context.Context, layers []runtime.Layer) ([]assemble.Part, error) {
	parts := runtime.Parts(layers)
	for i := range parts {
		if parts[i].Layer != runtime.LayerProject {
			continue
		}
		path, signed, err := a.openSigned(ctx, parts[i].Path)
		if err != nil {
			return nil, err
		}
		parts[i].Path, parts[i].Options = path, signed
	}
	return parts, nil
}

// layers discovers the configuration's layers (runtime.DiscoverLayers:
// the managed directory and its drop-ins, the user's directory, the
// project as discover finds it) and checks the managed and user ones. No
// layer at all is a usage error; a managed or user layer refused is exit
// status 1.
func (a *app) layers() ([]runtime.Layer, error) {
	// Relative to the working directory, as the project's files are
	// named in diagnostics.
	layers, err := runtime.New().OpenLayers(a.configPath, "", os.Getenv)
	if errors.Is(err, runtime.ErrNoConfig) {
		return nil, usageError("%v", err)
	}
	if err != nil {
		return nil, &exitError{code: exitFailure, err: err}
	}
	return layers, nil
}

// withProject returns layers with the project layer replaced by path.
func withProject(layers []runtime.Layer, path string) []runtime.Layer {
	out := []runtime.Layer{}
	for _, l := range layers {
		if l.Name != runtime.LayerProject {
			out = append(out, l)
		}
	}
	return append(out, runtime.Layer{Name: runtime.LayerProject, Path: path})
}

// projectDir is the project the agent works in: $CLAUDE_PROJECT_DIR or the
// working directory.
func projectDir() string {
	cwd, _ := os.Getwd()
	return runtime.ProjectDir(cwd, os.Getenv)
}

// load discovers the configuration's layers and loads them into a new
// engine, printing their diagnostics; a configuration with errors is exit
// status 1. Close the engine, then the configuration.
func (a *app) load(engOpts ...engine.Option) (*engine.Engine, *assemble.Config, error) {
	layers, err := a.layers()
	if err != nil {
		return nil, nil, err
	}
	return a.loadLayers(layers, true, engOpts)
}

// loadLayers builds an engine with the standard condition functions, then
// assembles the configuration's layers for it and loads them, printing
// their errors and, when warnings is set, their warnings.
func (a *app) loadLayers(layers []runtime.Layer, warnings bool, engOpts []engine.Option, opts ...assemble.Option) (*engine.Engine, *assemble.Config, error) {
	eng, cfg, err := a.assembleLayers(layers, warnings, engOpts, opts...)
	if err != nil {
		return nil, nil, err
	}
	return a.loadInto(eng, cfg)
}

// assembleLayers builds an engine and assembles the configuration's
// layers for it, without loading it, printing its errors and, when
// warnings is set, its warnings.
func (a *app) assembleLayers(layers []runtime.Layer, warnings bool, engOpts []engine.Option, opts ...assemble.Option) (*engine.Engine, *assemble.Config, error) {
	eng, err := a.newEngine(engOpts...)
	if err != nil {
		return nil, nil, err
	}
	a.timings.Mark("engine")
	parts, err := a.parts(context.Background(), layers)
	if err != nil {
		eng.Close(context.Background())
		return nil, nil, err
	}
	opts = append([]assemble.Option{assemble.WithEngine(eng), assemble.WithProjectDir(projectDir()), assemble.WithPhaseTimer(a.timings.Phase())}, opts...)
	cfg, err := assemble.LoadLayers(parts, opts...)
	if err != nil {
		eng.Close(context.Background())
		var d *hcl.Diagnostics
		if errors.As(err, &d) {
			d.Render(a.stderr)
			return nil, nil, silent(exitFailure)
		}
		return nil, nil, &exitError{code: exitFailure, err: err}
	}
	if warnings && len(cfg.Warnings.List) > 0 {
		cfg.Warnings.Render(a.stderr)
	}
	return eng, cfg, nil
}

// loadInto loads an assembled configuration into its engine; a failure
// closes both.
func (a *app) loadInto(eng *engine.Engine, cfg *assemble.Config) (*engine.Engine, *assemble.Config, error) {
	if err := eng.Load(cfg.Engine); err != nil {
		eng.Close(context.Background())
		cfg.Close()
		return nil, nil, &exitError{code: exitFailure, err: fmt.Errorf("loading %s: %w", cfg.Engine.Name, err)}
	}
	a.timings.Mark("load")
	return eng, cfg, nil
}

// newEngine builds an engine with the standard condition functions and
// the CLI's logger, tracing skipped hooks (fire's output and --explain,
// test and replay list them); a failure is exit status 1.
func (a *app) newEngine(opts ...engine.Option) (*engine.Engine, error) {
	eng, err := assemble.NewEngine(append([]engine.Option{engine.WithLogger(a.logger()), engine.WithSkippedTraces()}, opts...)...)
	if err != nil {
		return nil, &exitError{code: exitFailure, err: err}
	}
	return eng, nil
}

// payload reads the payload from path (or stdin for "-") and applies the
// --set assignments; a failure is exit status 1.
func (a *app) payload(path string, sets []string) (map[string]any, error) {
	payload, err := readPayload(a.stdin, path)
	if err != nil {
		return nil, &exitError{code: exitFailure, err: err}
	}
	for _, s := range sets {
		if err := setField(payload, s); err != nil {
			return nil, &exitError{code: exitFailure, err: err}
		}
	}
	return payload, nil
}
