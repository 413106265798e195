package assemble

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/hcl"
	"github.com/hookctl/hookctl/lib/shell"
	"github.com/hookctl/hookctl/llm"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/claude"
	"github.com/hookctl/hookctl/protocol/hosts"
	"github.com/hookctl/hookctl/script"
	"github.com/hookctl/hookctl/state/kv"
	"github.com/hookctl/hookctl/stdlib"
)

// Config is an assembled configuration: what the engine loads, plus what
// was built for it (the script runtimes). A Config is immutable once
// loaded; Close releases it when it no longer serves.
type Config struct {
	// Engine is the engine's view: settings, custom events and hooks with
	// their handlers built.
	Engine *engine.Config
	// Dir is the configuration directory; Files lists the files loaded.
	Dir   string
	Files []string
	// Settings holds the settings block, including the parts the engine
	// does not use itself.
	Settings hcl.Settings
	// Warnings are problems that did not stop the load.
	Warnings *hcl.Diagnostics
	// Layers are the configurations a layered load (LoadLayers) merged,
	// managed first; nil for a configuration loaded alone.
	Layers []*Config

	parsed *hcl.Config
	pool   *script.Pool
	hash   configHash
}

// Close releases the configuration's script runtimes.
func (c *Config) Close() {
	if c != nil && c.pool != nil {
		c.pool.Close()
	}
	if c != nil {
		for _, l := range c.Layers {
			l.Close()
		}
	}
}

// Refs lists every file the configuration reads besides its *.hcl files:
// the files the decoded configuration names (scripts, programs, file()
// reads) and the modules its scripts loaded.
func (c *Config) Refs() []string {
	var out []string
	if c.Layers == nil {
		out = c.parsed.Refs()
	}
	if c.pool != nil {
		out = append(out, c.pool.Files()...)
	}
	for _, l := range c.Layers {
		out = append(out, l.Refs()...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Decoded returns the decoded configuration the engine's view was built
// from: its blocks and their ranges.
func (c *Config) Decoded() *hcl.Config { return c.parsed }

// Source returns the bytes of one of the configuration's files.
func (c *Config) Source(filename string) []byte {
	for _, l := range c.Layers {
		if b := l.Source(filename); b != nil {
			return b
		}
	}
	return c.parsed.Source(filename)
}

// ScriptStats reports the use of the configuration's script runtimes
// (zero when it has no JavaScript).
func (c *Config) ScriptStats() script.PoolStats {
	if c == nil {
		return script.PoolStats{}
	}
	var st script.PoolStats
	if c.pool != nil {
		st = c.pool.Stats()
	}
	for _, l := range c.Layers {
		ls := l.ScriptStats()
		st.Created += ls.Created
		st.CreateTime += ls.CreateTime
	}
	return st
}

// Options are what assembling takes besides the configuration; set them
// with Option functions.
type Options struct {
	// Engine is the engine the configuration is built for: its catalog
	// resolves events, its condition compiler (with every function given
	// to it) compiles `when`, its logger receives ctx.log, console and
	// built-in logs, and its checks validate every hook before the load
	// succeeds.
	Engine *engine.Engine
	// ProjectDir is the project the agent works in: scripts may read it.
	ProjectDir string
	// Logger overrides the engine's logger for scripts and built-ins.
	Logger *slog.Logger
	// Store is the kv store of hookctl/kv and stateful built-ins (in
	// memory by default).
	Store kv.Store
	// Getenv is the environment env(), header values and the built-in
	// hooks read (the process's, os.LookupEnv, by default).
	Getenv func(string) (string, bool)
	// AgentRunner runs agent handlers; without one they are a load error.
	AgentRunner llm.AgentRunner
	// Provider serves prompt handlers that name no provider in HCL.
	Provider llm.Provider
	// envGiven is set by WithEnv: the built-ins read Getenv rather than
	// the process's environment (with its fallbacks).
	envGiven bool
	// ScriptOptions are given to the configuration's script pool, after
	// the standard library's: script.WithModule adds a module every
	// script can require.
	ScriptOptions []script.Option
	// Kinds builds handlers by kind (DefaultKinds when nil).
	Kinds map[string]Factory
	// Protocols are the conventions a command hook's protocol attribute
	// may name (hosts.New() when nil).
	Protocols *protocol.Registry
	// FileCheck, when set, must accept every file the configuration
	// loads at load or run time (file() reads, scripts and the modules
	// they require), given its real path and the bytes read.
	FileCheck func(path string, content []byte) error
	// Events, when set, are the only events the configuration will fire
	// (a one-shot command fires one): a script runtime is made ready in
	// the background only if a script hook is on one of them, since
	// locking a runtime down costs milliseconds of CPU that an event
	// without script hooks never needs.
	Events []string
	// PhaseTimer, when set, is told how long each phase of Load took:
	// "parse" (reading and decoding the HCL) and "build" (compiling the
	// hooks, conditions and scripts).
	PhaseTimer func(phase string, took time.Duration)
	// Overlay holds configuration file contents read instead of the
	// disk's (see WithOverlay).
	Overlay map[string][]byte
	// deferRequired leaves settings.required to LoadLayers, which
	// resolves it across the layers.
	deferRequired bool
}

// WithPhaseTimer sets Options.PhaseTimer.
func WithPhaseTimer(f func(phase string, took time.Duration)) Option {
	return func(o *Options) { o.PhaseTimer = f }
}

// WithEvents says which events the configuration will fire (see
// Options.Events).
func WithEvents(events ...string) Option { return func(o *Options) { o.Events = events } }

// Option configures assembling.
type Option func(*Options)

// WithProtocols sets the protocols command hooks may speak (see
// Options.Protocols).
func WithProtocols(r *protocol.Registry) Option { return func(o *Options) { o.Protocols = r } }

// WithEngine builds the configuration for e (see Options.Engine).
func WithEngine(e *engine.Engine) Option { return func(o *Options) { o.Engine = e } }

// WithProjectDir adds the project directory to the roots scripts may read.
func WithProjectDir(dir string) Option { return func(o *Options) { o.ProjectDir = dir } }

// WithLogger sets the logger scripts and built-ins log to.
func WithLogger(l *slog.Logger) Option { return func(o *Options) { o.Logger = l } }

// WithStore sets the kv store of hookctl/kv and stateful built-ins.
func WithStore(s kv.Store) Option { return func(o *Options) { o.Store = s } }

// WithEnv replaces the environment that env(), header values and the
// built-in hooks (the project, the home and the temporary directory of
// dangerous-commands...) read: the environment of the agent the
// configuration answers for, when it is not the process's.
func WithEnv(getenv func(string) (string, bool)) Option {
	return func(o *Options) { o.Getenv, o.envGiven = getenv, getenv != nil }
}

// WithAgentRunner supplies the runner of agent handlers.
func WithAgentRunner(r llm.AgentRunner) Option { return func(o *Options) { o.AgentRunner = r } }

// WithProvider supplies the provider of prompt handlers that name none.
func WithProvider(p llm.Provider) Option { return func(o *Options) { o.Provider = p } }

// WithScriptOptions adds options of the configuration's script pool.
func WithScriptOptions(opts ...script.Option) Option {
	return func(o *Options) { o.ScriptOptions = append(o.ScriptOptions, opts...) }
}

// WithFileCheck makes every file the configuration loads pass check
// (see Options.FileCheck): hookctl claude and serve check each against
// the trust record.
func WithFileCheck(check func(path string, content []byte) error) Option {
	return func(o *Options) { o.FileCheck = check }
}

// WithKind sets the factory of a handler kind, replacing the default.
func WithKind(kind string, f Factory) Option {
	return func(o *Options) {
		if o.Kinds == nil {
			o.Kinds = DefaultKinds()
		}
		o.Kinds[kind] = f
	}
}

func resolve(opts []Option) Options {
	o := Options{Getenv: os.LookupEnv}
	for _, opt := range opts {
		opt(&o)
	}
	if o.Kinds == nil {
		o.Kinds = DefaultKinds()
	}
	if o.Protocols == nil {
		o.Protocols = hosts.New()
	}
	if o.Store == nil {
		o.Store = kv.NewMemory()
	}
	if o.Logger == nil && o.Engine != nil {
		o.Logger = o.Engine.Logger()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

func (o *Options) hclOptions() []hcl.Option {
	opts := []hcl.Option{hcl.WithEnv(o.Getenv), hcl.WithProjectDir(o.ProjectDir), hcl.WithFileCheck(o.FileCheck), hcl.WithOverlay(o.Overlay)}
	if o.Engine != nil {
		opts = append(opts, hcl.WithCatalog(o.Engine))
	} else {
		opts = append(opts, hcl.WithConditions(conditions.NewCompiler(standardConditions())))
	}
	return opts
}

// NewEngine returns an engine with hookctl's standard condition functions
// (stdlib.ConditionFunctions: glob, hasCommand, hasSecret, ...) before
// opts, the engine the hookctl command runs. Configurations assembled for
// it (WithEngine) compile their conditions with its compiler, so a
// function added here with engine.WithConditionOptions works in every
// HCL hook's `when`.
func NewEngine(opts ...engine.Option) (*engine.Engine, error) {
	return engine.New(append([]engine.Option{
		engine.WithConditionOptions(standardConditions()),
		// A handler's result in Claude Code's shapes is read as a command
		// hook printing it is.
		engine.WithOutputReader(claude.ReadOutputFor),
	}, opts...)...)
}

// standardConditions adds hookctl's standard condition functions.
func standardConditions() conditions.Option {
	return conditions.WithFunctions(stdlib.ConditionFunctions()...)
}

// Load decodes and assembles the configuration at path, a file or a
// directory of *.hcl files. On any problem it returns *hcl.Diagnostics
// listing every one with file:line:column, and nothing is half-built.
func Load(path string, opts ...Option) (*Config, error) {
	o := resolve(opts)
	start := time.Now()
	parsed, err := hcl.Parse(path, o.hclOptions()...)
	if err != nil {
		return nil, err
	}
	if o.PhaseTimer == nil {
		return build(parsed, &o)
	}
	built := time.Now()
	o.PhaseTimer("parse", built.Sub(start))
	cfg, err := build(parsed, &o)
	o.PhaseTimer("build", time.Since(built))
	return cfg, err
}

// LoadSource assembles a configuration held in memory; name is used in
// diagnostics and dir is the configuration directory.
func LoadSource(name string, src []byte, dir string, opts ...Option) (*Config, error) {
	o := resolve(opts)
	return build(hcl.ParseSource(name, src, dir, o.hclOptions()...), &o)
}

// Build is what a kind's factory gets besides the hook's block: the
// resources the hooks of one configuration share. It is used by one
// goroutine, during the load.
type Build struct {
	cfg   *hcl.Config
	opts  *Options
	pool  *script.Pool
	err   error
	shell *shell.Cache
	fired map[string]bool // the names of the events Options.Events fires
}

// Store is the kv store.
func (x *Build) Store() kv.Store { return x.opts.Store }

// Logger is the logger of scripts and built-ins.
func (x *Build) Logger() *slog.Logger { return x.opts.Logger }

// Config is the decoded configuration.
func (x *Build) Config() *hcl.Config { return x.cfg }

// Options are the assembly's options.
func (x *Build) Options() *Options { return x.opts }

// Scripts returns the configuration's script pool, creating it on first
// use: the standard library's modules, the project and the configured
// roots, the settings' pool size and memory limit, then the caller's
// ScriptOptions.
func (x *Build) Scripts() (*script.Pool, error) {
	if x.pool != nil || x.err != nil {
		return x.pool, x.err
	}
	s := x.cfg.Settings
	mods, err := stdlib.Modules(stdlib.Options{Store: x.opts.Store, HTTPAllow: s.HTTPAllow, Logger: x.opts.Logger})
	if err != nil {
		x.err = err
		return nil, err
	}
	opts := append(mods, script.WithRoots(x.opts.ProjectDir), script.WithRoots(s.Roots...), script.WithLogger(x.opts.Logger))
	if s.ScriptPool > 0 {
		opts = append(opts, script.WithSize(s.ScriptPool))
	}
	if s.ScriptMemoryLimit != nil {
		opts = append(opts, script.WithMemoryLimit(*s.ScriptMemoryLimit))
	}
	if x.opts.FileCheck != nil {
		opts = append(opts, script.WithFileCheck(x.opts.FileCheck))
	}
	opts = append(opts, x.opts.ScriptOptions...)
	p, err := script.NewPool(x.cfg.Dir, opts...)
	if err != nil {
		x.err = err
		return nil, err
	}
	if x.scriptsFire() {
		p.Prewarm() // ready by the time the configuration is
	}
	x.pool = p
	return p, nil
}

// scriptsFire reports whether a script hook may run on the events the
// configuration will fire (all of them when Options.Events is not set).
func (x *Build) scriptsFire() bool {
	for _, hb := range x.cfg.Hooks {
		if isScript(hb) && x.fires(hb) {
			return true
		}
	}
	return false
}

func isScript(hb *hcl.HookBlock) bool {
	return hb.Kind == "js" || hb.Kind == "ts" || hb.Kind == "script"
}

// fires reports whether hb is on one of the events the configuration will
// fire (every hook is when Options.Events is not set).
func (x *Build) fires(hb *hcl.HookBlock) bool {
	if len(x.opts.Events) == 0 {
		return true
	}
	if x.fired == nil {
		x.fired = map[string]bool{}
		for _, ev := range x.opts.Events {
			for _, n := range eventNames(ev) {
				x.fired[n] = true
			}
		}
	}
	for _, ev := range append([]string{hb.Hook.Event}, hb.Hook.Events...) {
		for _, n := range eventNames(ev) {
			if x.fired[n] {
				return true
			}
		}
	}
	return false
}

// notBuilt stands in for a script hook on an event the configuration was
// not loaded to fire (Options.Events): its code is not compiled. Were it
// called, it fails, so its error policy applies; it never allows quietly.
func notBuilt(events []string) engine.Handler {
	return engine.HandlerFunc(func(context.Context, *engine.Call) (engine.Result, error) {
		return nil, fmt.Errorf("hook not built: the configuration was loaded to fire %s only", strings.Join(events, ", "))
	})
}

// eventNames is an event's canonical name and aliases in the catalog (the
// name alone when the catalog does not have it).
func eventNames(name string) []string {
	for _, s := range engine.BuiltinEvents() {
		if s.Name == name || slices.Contains(s.Aliases, name) {
			return append([]string{s.Name}, s.Aliases...)
		}
	}
	return []string{name}
}

// shellCache is the parse cache the built-ins of one configuration share.
func (x *Build) shellCache() *shell.Cache {
	if x.shell == nil {
		x.shell = shell.NewCache(0)
	}
	return x.shell
}

// build turns a decoded configuration into an engine.Config.
func build(parsed *hcl.Config, o *Options) (*Config, error) {
	x := &Build{cfg: parsed, opts: o}
	ec := &engine.Config{Name: parsed.Name, Settings: parsed.Settings.Settings, Events: parsed.Events}
	declared := map[string]hcl.Range{}
	where := map[string]*hcl.HookBlock{}
	var invalid []engine.Hook
	for _, hb := range parsed.Hooks {
		declared[hb.Hook.ID] = hb.Range
		where[hb.Hook.ID] = hb
		checkCapabilities(parsed, hb)
		h := hb.Hook
		if hb.Invalid {
			// Not built, but checked below for its other problems.
			if h.Handler == nil {
				h.Handler = engine.Static(nil)
			}
			invalid = append(invalid, h)
			continue
		}
		if hb.Kind != "command" {
			// env, cwd and protocol say how a program runs: on any other
			// hook they would be silently ignored.
			for _, a := range []string{"env", "cwd", "protocol", "shell"} {
				if r, ok := hb.Ranges[a]; ok {
					parsed.Errorf(r, "Attribute only for command hooks", "%s applies to command hooks only; this hook's handler is %s.", a, hb.Kind)
				}
			}
		}
		if hb.Kind != "declarative" {
			f := o.Kinds[hb.Kind]
			if f == nil {
				parsed.Errorf(hb.Range, "Unknown handler kind", "No factory builds %s handlers.", hb.Kind)
				continue
			}
			if isScript(hb) && !x.fires(hb) {
				// A one-shot run compiles only the fired events' scripts.
				h.Handler = notBuilt(o.Events)
			} else if h.Handler = f(hb, x); h.Handler == nil {
				continue
			}
		}
		ec.Hooks = append(ec.Hooks, h)
	}
	for _, bb := range parsed.Builtins {
		ec.Hooks = append(ec.Hooks, buildBuiltin(parsed, bb, x, declared)...)
	}
	if !o.deferRequired {
		checkRequired(parsed, ec, declared)
	}
	check := o.Engine
	if check == nil {
		// The checks are the engine's: without one, a throwaway engine of
		// the decoded catalog runs them.
		if e, err := NewEngine(); err == nil {
			defer e.Close(context.Background())
			check = e
		}
	}
	if check != nil {
		all := *ec
		all.Hooks = append(slices.Clone(ec.Hooks), invalid...)
		mapEngineErrors(parsed, check.Check(&all), where)
	}
	diags := parsed.Diagnostics()
	if diags.HasErrors() {
		if x.pool != nil {
			x.pool.Close()
		}
		return nil, diags
	}
	return &Config{
		Engine: ec, Dir: parsed.Dir, Files: parsed.Files, Settings: parsed.Settings,
		Warnings: diags.OnlyWarnings(),
		parsed:   parsed, pool: x.pool,
	}, nil
}

// checkCapabilities reports capabilities allow does not know.
func checkCapabilities(cfg *hcl.Config, hb *hcl.HookBlock) {
	for _, c := range hb.Allow {
		if !slices.Contains([]string{stdlib.CapExec, stdlib.CapNet, stdlib.CapWrite, stdlib.CapRead, "all"}, c) {
			cfg.Errorf(hb.AllowRange, "Unknown capability",
				"allow lists capabilities: exec, net, write, read (or all), not %q.", c)
		}
	}
}

// checkRequired makes the hooks settings.required lists fail closed and
// reports those that are missing or disabled.
func checkRequired(cfg *hcl.Config, ec *engine.Config, declared map[string]hcl.Range) {
	for _, id := range cfg.Settings.Required {
		found := false
		for i := range ec.Hooks {
			h := &ec.Hooks[i]
			if h.ID != id {
				continue
			}
			found = true
			if h.OnError.Policy == engine.ErrorDefault || h.OnError.Policy == engine.ErrorIgnore {
				h.OnError.Policy = engine.ErrorBlock // a required hook fails closed
			}
			if h.Disabled {
				cfg.Errorf(declared[id], "Required hook disabled", "Hook %q is listed in settings.required but has enabled = false.", id)
			}
		}
		if !found {
			cfg.Errorf(cfg.RequiredRange, "Required hook missing", "settings.required lists %q, but no hook has that id.", id)
		}
	}
}

// mapEngineErrors reports the engine's verdict on the assembled hooks at
// the attribute each error names.
func mapEngineErrors(cfg *hcl.Config, err error, where map[string]*hcl.HookBlock) {
	for _, e := range flatten(err) {
		var he *engine.HookConfigError
		if errors.As(e, &he) {
			if hb := where[he.ID]; hb != nil {
				if hb.Invalid && !slices.Contains([]string{"matcher", "decision", "observe"}, he.Field) {
					continue // the decoder reported this hook's own problems
				}
				summary, detail := describe(he)
				cfg.Errorf(hb.RangeOf(he.Field), summary, "%s", detail)
				continue
			}
		}
		r := cfg.RequiredRange
		if len(cfg.Files) > 0 && r.Filename == "" {
			r = hcl.Range{Filename: cfg.Files[0], Start: hcl.Pos{Line: 1, Column: 1}, End: hcl.Pos{Line: 1, Column: 1}}
		}
		cfg.Errorf(r, "Invalid configuration", "%s.", e)
	}
}

// flatten unwraps joined errors (a *engine.LoadError holds one per
// problem; one hook's problems are joined).
func flatten(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}

// summaries name an engine's hook problem by the field it is in.
var summaries = map[string]string{
	"decision": "Decision not accepted",
	"matcher":  "Invalid matcher",
	"observe":  "Conflicting switches",
	"when":     "Invalid condition",
	"event":    "Unknown event",
	"timeout":  "Invalid duration",
	"on_error": "Invalid on_error",
	"retry":    "Invalid retry",
}

// describe turns an engine's hook problem into a diagnostic's summary and
// detail.
func describe(he *engine.HookConfigError) (summary, detail string) {
	summary = summaries[he.Field]
	if summary == "" {
		summary = "Invalid hook"
	}
	var me *engine.MatcherError
	if errors.As(he.Err, &me) {
		return summary, fmt.Sprintf("%q is not a valid regular expression: %v.", me.Matcher, me.Err)
	}
	msg := he.Err.Error()
	if msg != "" {
		msg = strings.ToUpper(msg[:1]) + msg[1:]
	}
	return summary, msg + "."
}
