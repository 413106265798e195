package hooktest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/handler/command"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/internal/suggest"
	"github.com/hookctl/hookctl/state/kv"
)

// Options configure Run; set them with Option functions.
type Options struct {
	// Run, when set, selects the tests whose name it matches.
	Run *regexp.Regexp
	// EngineOptions are given to the engine the tests run on (a logger,
	// say), after the standard condition functions.
	EngineOptions []engine.Option
	// AssembleOptions are given to the assembly of the configuration (the
	// project directory, say), after the engine and the test store.
	AssembleOptions []assemble.Option
	// Layers, when set, are the layers the configuration is merged with
	// (assemble.LoadLayers): the tests run on every layer's hooks, as
	// the agent's events do. The configuration at Run's path, its tests
	// beside it, is the project layer.
	Layers []assemble.Part
	// ProjectOptions are given to the assembly of the project layer alone
	// (the file check of a signed configuration, say).
	ProjectOptions []assemble.Option
}

// WithProjectOptions gives options to the project layer's assembly
// alone: see Options.ProjectOptions.
func WithProjectOptions(opts ...assemble.Option) Option {
	return func(o *Options) { o.ProjectOptions = append(o.ProjectOptions, opts...) }
}

// WithLayers merges the configuration with the layers above it (the
// managed and user layers) for the tests: see Options.Layers.
func WithLayers(parts ...assemble.Part) Option {
	return func(o *Options) { o.Layers = append(o.Layers, parts...) }
}

// Option configures Run.
type Option func(*Options)

// WithRun runs only the tests whose name re matches.
func WithRun(re *regexp.Regexp) Option { return func(o *Options) { o.Run = re } }

// WithEngineOptions adds options of the engine the tests run on.
func WithEngineOptions(opts ...engine.Option) Option {
	return func(o *Options) { o.EngineOptions = append(o.EngineOptions, opts...) }
}

// WithAssembleOptions adds options of the configuration's assembly.
func WithAssembleOptions(opts ...assemble.Option) Option {
	return func(o *Options) { o.AssembleOptions = append(o.AssembleOptions, opts...) }
}

// NoTestsError is Run's error for a configuration with no test files
// beside it.
type NoTestsError struct {
	// Config is the configuration path; Dir the directory searched.
	Config, Dir string
}

func (e *NoTestsError) Error() string {
	return fmt.Sprintf("no test files (*%s) in %s for %s", hcl.TestFileSuffix, e.Dir, e.Config)
}

// Run loads the configuration at path (a file or a directory) into one
// engine, decodes the test files beside it and runs the tests, in file
// order. The error is for what stops every test: a configuration or test
// file with problems (*hcl.Diagnostics, all of them at once, each with
// file:line:column), no test files (*NoTestsError), a path that cannot be
// read. Failing tests are in the Report.
func Run(ctx context.Context, path string, opts ...Option) (*Report, error) {
	var o Options
	for _, opt := range opts {
		opt(&o)
	}
	files, err := hcl.TestFiles(path)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, &NoTestsError{Config: path, Dir: configDir(path)}
	}
	tests := hcl.ParseTests(files)

	store := newScoped()
	// Expectations and coverage read the skipped hooks' traces.
	eng, err := assemble.NewEngine(append([]engine.Option{engine.WithSkippedTraces()}, append(slices.Clone(o.EngineOptions), engine.WithLoopStore(loopStore(store)), engine.WithObserver(bgObserver{}))...)...)
	if err != nil {
		return nil, err
	}
	defer eng.Close(context.WithoutCancel(ctx))
	aopts := append([]assemble.Option{assemble.WithEngine(eng), assemble.WithStore(store)}, o.AssembleOptions...)
	parts := append(slices.Clone(o.Layers), assemble.Part{Layer: assemble.LayerProject, Path: path, Options: o.ProjectOptions})
	cfg, err := assemble.LoadLayers(parts, aopts...)
	if err != nil {
		var d *hcl.Diagnostics
		if errors.As(err, &d) {
			return nil, d.Join(tests.Diagnostics())
		}
		return nil, err
	}
	defer cfg.Close()
	cfg.Engine.Settings.AuditLog = "" // test fires are not audited
	if err := eng.Load(cfg.Engine); err != nil {
		return nil, fmt.Errorf("loading %s: %w", path, err)
	}

	plan := check(eng, tests)
	if d := tests.Diagnostics(); d.HasErrors() {
		return nil, d
	}
	rep := &Report{Config: path, Files: files, Coverage: newCoverage(eng, cfg.Engine.Hooks)}
	if w := cfg.Warnings.Join(tests.Diagnostics().OnlyWarnings()); len(w.List) > 0 {
		rep.Warnings = w
	}
	start := time.Now()
	for i, p := range plan {
		if o.Run != nil && !o.Run.MatchString(p.tb.Name) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res := runOne(withScope(ctx, i+1), eng, p)
		rep.Coverage.add(res.Outcome)
		rep.Tests = append(rep.Tests, res)
	}
	rep.Duration = time.Since(start)
	return rep, nil
}

// configDir is the directory test files are looked for in.
func configDir(path string) string {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return path
	}
	return filepath.Dir(path)
}

// loopStore keeps the Stop loop guard's counts in the test's store.
func loopStore(s *scoped) engine.LoopStore { return kv.LoopStore(s) }

// planned is a test with the event it fires, resolved.
type planned struct {
	tb    *hcl.TestBlock
	event engine.EventSpec
}

// check resolves each test's event against the loaded engine (the test's
// event, else its payload's hook_event_name) and checks that every hook
// the test names is a hook of that event and that the decision it expects
// is one the event takes. Problems are recorded in tests' diagnostics.
func check(eng *engine.Engine, tests *hcl.Tests) []planned {
	var names []string
	for _, s := range eng.Events() {
		names = append(names, s.Name)
		names = append(names, s.Aliases...)
	}
	var out []planned
	for _, tb := range tests.Tests {
		name, at := tb.Event, tb.Ranges["event"]
		fromPayload, _ := tb.Payload["hook_event_name"].(string)
		if name == "" {
			name, at = fromPayload, tb.Range
			if r, ok := tb.Ranges["payload"]; ok {
				at = r
			} else if r, ok := tb.Ranges["payload_file"]; ok {
				at = r
			}
			if name == "" {
				tests.Errorf(tb.Range, "Missing event", "Test %q names no event: give event = \"...\", or a payload with hook_event_name.", tb.Name)
				continue
			}
		}
		spec, err := eng.Event(name)
		if err != nil {
			detail := fmt.Sprintf("%q is not an event of the catalog or of this configuration.", name)
			if s := suggest.Closest(name, names); s != "" {
				detail += fmt.Sprintf(" Did you mean %q?", s)
			}
			tests.Errorf(at, "Unknown event", "%s Run `hookctl events` for the list.", detail)
			continue
		}
		if fromPayload != "" && tb.Event != "" {
			if ps, err := eng.Event(fromPayload); err != nil || ps.Name != spec.Name {
				tests.Warnf(tb.Ranges["event"], "Event differs from the payload", "Test %q fires %s, but its payload's hook_event_name is %q.", tb.Name, spec.Name, fromPayload)
			}
		} else if fromPayload == "" && spec.Source == engine.SourceClaudeCode {
			tb.Payload["hook_event_name"] = spec.Name // as Claude Code sends it
		}
		ok := true
		if e := tb.Expect; e != nil {
			ok = checkExpect(eng, tests, tb, spec)
		}
		if ok {
			out = append(out, planned{tb: tb, event: spec})
		}
	}
	return out
}

func checkExpect(eng *engine.Engine, tests *hcl.Tests, tb *hcl.TestBlock, spec engine.EventSpec) bool {
	e, ok := tb.Expect, true
	if e.Has("decision") && e.Decision != "" && len(spec.Decisions) > 0 && !slices.Contains(spec.Decisions, e.Decision) {
		tests.Errorf(e.Ranges["decision"], "Invalid decision", "%s takes the decisions %s, not %q.", spec.Name, strings.Join(spec.Decisions, ", "), e.Decision)
		ok = false
	}
	if e.Has("decision") && e.Decision != "" && len(spec.Decisions) == 0 {
		tests.Errorf(e.Ranges["decision"], "Invalid decision", "%s takes no decision; expect decision = \"\" or leave it out.", spec.Name)
		ok = false
	}
	infos, _ := eng.Hooks(spec.Name)
	var ids []string
	for _, h := range infos {
		ids = append(ids, h.ID)
	}
	for _, id := range sortedKeys(e.Hooks) {
		if slices.Contains(ids, id) {
			continue
		}
		detail := fmt.Sprintf("%q is not a hook of %s", id, spec.Name)
		if len(ids) == 0 {
			detail += ", which has no hooks."
		} else {
			detail += fmt.Sprintf("; its hooks are %s.", strings.Join(ids, ", "))
		}
		if slices.Contains(ids, "builtin:"+id) {
			detail += fmt.Sprintf(" Did you mean %q (a built-in's id)?", "builtin:"+id)
		} else if s := suggest.Closest(id, ids); s != "" {
			detail += fmt.Sprintf(" Did you mean %q?", s)
		}
		tests.Errorf(e.HookRanges[id], "Unknown hook", "%s", detail)
		ok = false
	}
	return ok
}

// runOne fires one test's event and compares the outcome.
func runOne(ctx context.Context, eng *engine.Engine, p planned) Result {
	tb := p.tb
	res := Result{Name: tb.Name, File: tb.Range.Filename, Line: tb.Range.Start.Line, Event: p.event.Name}
	ctx = command.WithEnv(ctx, tb.Env)
	bg := newBGCollector()
	ctx = context.WithValue(ctx, bgKey{}, bg)
	start := time.Now()
	out, err := eng.Fire(ctx, engine.Event{Name: p.event.Name, Payload: tb.Payload})
	res.Duration = time.Since(start)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	res.Outcome = &out
	res.Background = bg.wait(ctx, &out)
	res.Failures = compare(tb, out, res.Background)
	res.Passed = len(res.Failures) == 0
	return res
}
