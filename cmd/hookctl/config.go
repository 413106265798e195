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

// projectDir is the project the agent works in: $CLAUDE_PROJECT_DIR or the
// working directory.
func projectDir() string {
	cwd, _ := os.Getwd()
	return runtime.ProjectDir(cwd, os.Getenv)
}

// load discovers the configuration and loads it into a new engine,
// printing its diagnostics; a configuration with errors is exit status 1.
// Close the engine, then the configuration.
func (a *app) load(engOpts ...engine.Option) (*engine.Engine, *assemble.Config, error) {
	path, err := a.discover()
	if err != nil {
		return nil, nil, err
	}
	return a.loadPath(path, true, engOpts)
}

// loadPath builds an engine with the standard condition functions, then
// assembles the configuration at path for it and loads it, printing its
// errors and, when warnings is set, its warnings.
func (a *app) loadPath(path string, warnings bool, engOpts []engine.Option, opts ...assemble.Option) (*engine.Engine, *assemble.Config, error) {
	eng, cfg, err := a.assemblePath(path, warnings, engOpts, opts...)
	if err != nil {
		return nil, nil, err
	}
	return a.loadInto(eng, cfg)
}

// assemblePath builds an engine and assembles the configuration at path
// for it, without loading it, printing its errors and, when warnings is
// set, its warnings.
func (a *app) assemblePath(path string, warnings bool, engOpts []engine.Option, opts ...assemble.Option) (*engine.Engine, *assemble.Config, error) {
	eng, err := a.newEngine(engOpts...)
	if err != nil {
		return nil, nil, err
	}
	a.timings.Mark("engine")
	path, signed, err := a.openSigned(context.Background(), path)
	if err != nil {
		eng.Close(context.Background())
		return nil, nil, err
	}
	opts = append(append([]assemble.Option{assemble.WithEngine(eng), assemble.WithProjectDir(projectDir()), assemble.WithPhaseTimer(a.timings.Phase())}, signed...), opts...)
	cfg, err := assemble.Load(path, opts...)
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
