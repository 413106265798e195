package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/stdlib"
)

// discover finds the configuration: --config, then $HOOKCTL_CONFIG, then
// ./hooks.hcl, then ./.hookctl/, then (for the Claude adapter)
// $CLAUDE_PROJECT_DIR/.claude/hooks.hcl.
func (a *app) discover(forClaude bool) (string, error) {
	if a.configPath != "" {
		return a.configPath, nil
	}
	if p := os.Getenv("HOOKCTL_CONFIG"); p != "" {
		return p, nil
	}
	candidates := []string{"hooks.hcl", ".hookctl"}
	if forClaude {
		if dir := os.Getenv("CLAUDE_PROJECT_DIR"); dir != "" {
			candidates = append(candidates, filepath.Join(dir, ".claude", "hooks.hcl"))
		}
	}
	for _, c := range candidates {
		if _, err := os.Stat(c); err == nil {
			return c, nil
		}
	}
	where := "--config, $HOOKCTL_CONFIG, ./hooks.hcl or ./.hookctl/"
	if forClaude {
		where = "--config, $HOOKCTL_CONFIG, ./hooks.hcl, ./.hookctl/ or $CLAUDE_PROJECT_DIR/.claude/hooks.hcl"
	}
	return "", usageError("no configuration found: give %s", where)
}

// projectDir is the project the agent works in: $CLAUDE_PROJECT_DIR or the
// working directory.
func projectDir() string {
	if d := os.Getenv("CLAUDE_PROJECT_DIR"); d != "" {
		return d
	}
	d, _ := os.Getwd()
	return d
}

// load discovers and loads the configuration, printing its diagnostics;
// a configuration with errors is exit status 1.
func (a *app) load(forClaude bool, opts ...hcl.Option) (*hcl.Config, error) {
	path, err := a.discover(forClaude)
	if err != nil {
		return nil, err
	}
	return a.loadPath(path, true, opts...)
}

// loadPath loads the configuration at path, printing its errors and,
// when warnings is set, its warnings.
func (a *app) loadPath(path string, warnings bool, opts ...hcl.Option) (*hcl.Config, error) {
	opts = append([]hcl.Option{hcl.WithProjectDir(projectDir()), hcl.WithLogger(a.logger())}, opts...)
	cfg, err := hcl.Load(path, opts...)
	if err != nil {
		var d *hcl.Diagnostics
		if errors.As(err, &d) {
			d.Render(a.stderr)
			return nil, silent(exitFailure)
		}
		return nil, &exitError{code: exitFailure, err: err}
	}
	if warnings && cfg.Warnings != nil && len(cfg.Warnings.Diags) > 0 {
		cfg.Warnings.Render(a.stderr)
	}
	return cfg, nil
}

// newEngine builds an engine with the standard condition functions and
// loads cfg into it; a failure is exit status 1.
func (a *app) newEngine(cfg *hcl.Config, opts ...engine.Option) (*engine.Engine, error) {
	opts = append([]engine.Option{
		engine.WithLogger(a.logger()),
		engine.WithConditionOptions(conditions.WithFunctions(stdlib.ConditionFunctions()...)),
	}, opts...)
	eng, err := engine.New(opts...)
	if err != nil {
		return nil, &exitError{code: exitFailure, err: err}
	}
	if cfg != nil {
		if err := eng.Load(cfg.Engine); err != nil {
			eng.Close(context.Background())
			return nil, &exitError{code: exitFailure, err: fmt.Errorf("loading %s: %w", cfg.Engine.Name, err)}
		}
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
