package hcl

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	hcl2 "github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"

	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/urlallow"
)

// Config is a decoded configuration: inert blocks with the ranges they
// were written at. Nothing in it has run or been built; package assemble
// builds the handlers and turns it into an engine.Config. Problems found
// while decoding, and those the assembly reports through Errorf, Warnf and
// the hooks' Bodies, are collected in Diagnostics. A Config is used by one
// goroutine while it is assembled.
type Config struct {
	// Name names the configuration (the path it was loaded from).
	Name string
	// Dir is the configuration directory; Files lists the files loaded.
	Dir   string
	Files []string
	// Settings holds the settings block.
	Settings Settings
	// Events are the custom events the configuration declares.
	Events []engine.EventSpec
	// Hooks and Builtins are the hook and builtin blocks, in file order.
	Hooks    []*HookBlock
	Builtins []*BuiltinBlock
	// RequiredRange is where settings.required is written.
	RequiredRange Range

	l *loader
}

// Refs lists the files the configuration reads besides its *.hcl files,
// as absolute paths: script files, programs of command hooks inside the
// configuration directory, files file() and fileexists() looked at, and
// whatever a kind's factory recorded with Body.Ref.
func (c *Config) Refs() []string {
	out := append([]string(nil), c.l.refs...)
	sort.Strings(out)
	return slices.Compact(out)
}

// Errorf records an error at r.
func (c *Config) Errorf(r Range, summary, format string, args ...any) {
	c.l.ev.errorf(r, summary, format, args...)
}

// Warnf records a warning at r.
func (c *Config) Warnf(r Range, summary, format string, args ...any) {
	c.l.ev.warnf(r, summary, format, args...)
}

// Diagnostics returns every problem recorded so far, with the sources for
// snippets.
func (c *Config) Diagnostics() *Diagnostics {
	return &Diagnostics{Diags: append(append(hcl2.Diagnostics(nil), c.l.diags...), c.l.ev.diags...), Files: c.l.parser.Files()}
}

// Source returns the bytes of a loaded configuration file (nil if it was
// not loaded).
func (c *Config) Source(filename string) []byte {
	if f := c.l.parser.Files()[filename]; f != nil {
		return f.Bytes
	}
	return nil
}

// Settings is the settings block.
type Settings struct {
	engine.Settings
	// HTTPAllow lists the URLs http handlers and hookctl/http may reach:
	// each entry a scheme, host, optional port and path prefix, matched as
	// parsed URLs (package urlallow). An invalid entry fails the load.
	HTTPAllow []string
	// Roots are extra directories scripts may read.
	Roots []string
	// Required lists hook ids that must be present and must not fail open.
	Required []string
	// StateFile is the file-backed kv store (default: the user's state
	// directory).
	StateFile string
	// ScriptPool bounds the warm JavaScript runtimes.
	ScriptPool int
	// ScriptMemoryLimit is how much the heap may grow while scripts run
	// before they are interrupted (nil: script.DefaultMemoryLimit; 0: no
	// limit).
	ScriptMemoryLimit *int64
}

// Options are what decoding takes besides the files; set them with
// Option functions.
type Options struct {
	// Getenv is the environment env() reads (os.LookupEnv by default).
	Getenv func(string) (string, bool)
	// Catalog resolves events against an engine's catalog (including
	// events it registered from Go) instead of the built-in one, and gives
	// the condition compiler when Conditions is nil.
	Catalog *engine.Engine
	// ProjectDir is the project the agent works in.
	ProjectDir string
	// Conditions compiles `when` conditions.
	Conditions *conditions.Compiler
}

// Option configures decoding.
type Option func(*Options)

// WithEnv replaces the environment that env() reads.
func WithEnv(getenv func(string) (string, bool)) Option {
	return func(o *Options) { o.Getenv = getenv }
}

// WithCatalog makes hooks and custom events resolve against an engine's
// catalog (including events it registered from Go) instead of the
// built-in one, and compiles conditions with the engine's compiler.
func WithCatalog(e *engine.Engine) Option {
	return func(o *Options) { o.Catalog = e }
}

// WithProjectDir names the project directory.
func WithProjectDir(dir string) Option {
	return func(o *Options) { o.ProjectDir = dir }
}

// WithConditions compiles `when` conditions with c, the engine's
// compiler (engine.ConditionCompiler), so that the condition functions the
// engine was given work in HCL hooks. Without it or WithCatalog only
// expr's own functions are known.
func WithConditions(c *conditions.Compiler) Option {
	return func(o *Options) { o.Conditions = c }
}

// Parse decodes a configuration from a file or from a directory of *.hcl
// files. The error is for a path that cannot be read; problems in the
// files are the Config's Diagnostics.
func Parse(path string, opts ...Option) (*Config, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	if !fi.IsDir() {
		return ParseFile(path, opts...), nil
	}
	matches, err := filepath.Glob(filepath.Join(path, "*.hcl"))
	if err != nil {
		return nil, err
	}
	if len(matches) == 0 {
		return nil, fmt.Errorf("config %s: no *.hcl files in the directory", path)
	}
	sort.Strings(matches)
	return parse(path, path, matches, opts), nil
}

// ParseFile decodes one configuration file.
func ParseFile(path string, opts ...Option) *Config {
	return parse(path, filepath.Dir(path), []string{path}, opts)
}

// ParseSource decodes a configuration from memory; name is used in
// diagnostics and dir is the configuration directory.
func ParseSource(name string, src []byte, dir string, opts ...Option) *Config {
	l := newLoader(dir, opts)
	f, d := l.parser.ParseHCL(src, name)
	l.diags = append(l.diags, d...)
	return l.finish(name, []string{name}, []*hcl2.File{f})
}

func parse(name, dir string, paths []string, opts []Option) *Config {
	l := newLoader(dir, opts)
	var files []*hcl2.File
	for _, p := range paths {
		f, d := l.parser.ParseHCLFile(p)
		l.diags = append(l.diags, d...)
		files = append(files, f)
	}
	return l.finish(name, paths, files)
}

type loader struct {
	dir        string
	parser     *hclparse.Parser
	diags      hcl2.Diagnostics
	getenv     func(string) (string, bool)
	catalog    *engine.Engine
	projectDir string
	refs       []string

	ev       evaluator
	builtins map[string]engine.EventSpec // the catalog when no engine is given
	custom   map[string]*customEvent     // config events by every name
	cfg      *Config
	hookAt   map[string]hcl2.Range // hook id -> where declared
	// conds compiles conditions; compiled caches them by source, since
	// hooks often share a condition and a compiled one is immutable.
	conds    *conditions.Compiler
	compiled map[string]*conditions.Program
}

type customEvent struct {
	spec engine.EventSpec
	at   hcl2.Range
}

func newLoader(dir string, opts []Option) *loader {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	l := &loader{
		dir:    abs,
		parser: hclparse.NewParser(),
		getenv: os.LookupEnv,
		custom: map[string]*customEvent{},
		hookAt: map[string]hcl2.Range{},
	}
	o := Options{Getenv: os.LookupEnv}
	for _, opt := range opts {
		opt(&o)
	}
	if o.Getenv != nil {
		l.getenv = o.Getenv
	}
	l.catalog, l.projectDir, l.conds = o.Catalog, o.ProjectDir, o.Conditions
	if l.conds == nil && l.catalog != nil {
		l.conds = l.catalog.ConditionCompiler()
	}
	if l.conds == nil {
		l.conds = conditions.NewCompiler()
	}
	if l.catalog == nil {
		l.builtins = map[string]engine.EventSpec{}
		for _, s := range engine.BuiltinEvents() {
			l.builtins[s.Name] = s
			for _, a := range s.Aliases {
				l.builtins[a] = s
			}
		}
	}
	return l
}

// lookupEvent resolves an event name against the catalog and the
// configuration's own events.
func (l *loader) lookupEvent(name string) (engine.EventSpec, bool) {
	if c, ok := l.custom[name]; ok {
		return c.spec, true
	}
	if l.catalog != nil {
		s, err := l.catalog.Event(name)
		return s, err == nil
	}
	s, ok := l.builtins[name]
	return s, ok
}

func (l *loader) knownEventNames() []string {
	var names []string
	if l.catalog != nil {
		for _, s := range l.catalog.Events() {
			names = append(names, s.Name)
			names = append(names, s.Aliases...)
		}
	} else {
		for n := range l.builtins {
			names = append(names, n)
		}
	}
	for n := range l.custom {
		names = append(names, n)
	}
	return names
}

func (l *loader) finish(name string, paths []string, files []*hcl2.File) *Config {
	l.cfg = &Config{Name: name, Dir: l.dir, Files: paths, l: l}
	l.ev.ctx = &hcl2.EvalContext{Functions: functions(l.dir, l.getenv, func(p string) { l.refs = append(l.refs, p) })}

	var settings, locals, events, hooks, builtins []*hcl2.Block
	for _, f := range files {
		if f == nil {
			continue
		}
		content, d := f.Body.Content(rootSchema)
		l.diags = append(l.diags, d...)
		for _, b := range content.Blocks {
			switch b.Type {
			case "settings":
				settings = append(settings, b)
			case "locals":
				locals = append(locals, b)
			case "event":
				events = append(events, b)
			case "hook":
				hooks = append(hooks, b)
			case "builtin":
				builtins = append(builtins, b)
			}
		}
	}
	l.decodeLocals(locals)
	l.decodeSettings(settings)
	for _, b := range events {
		l.decodeEvent(b)
	}
	for _, b := range hooks {
		l.decodeHook(b)
	}
	for _, b := range builtins {
		l.decodeBuiltin(b)
	}
	return l.cfg
}

// decodeLocals evaluates every locals attribute, in dependency order.
func (l *loader) decodeLocals(blocks []*hcl2.Block) {
	attrs := map[string]*hcl2.Attribute{}
	for _, b := range blocks {
		as, d := b.Body.JustAttributes()
		l.diags = append(l.diags, d...)
		for name, a := range as {
			if prev, dup := attrs[name]; dup {
				l.ev.errorf(a.NameRange, "Duplicate local value",
					"Local %q was already defined at %s.", name, at(prev.NameRange))
				continue
			}
			attrs[name] = a
		}
	}
	values := map[string]cty.Value{}
	pending := make([]string, 0, len(attrs))
	for n := range attrs {
		pending = append(pending, n)
	}
	sort.Strings(pending)
	for len(pending) > 0 {
		progress := false
		var next []string
		for _, name := range pending {
			a := attrs[name]
			ready := true
			for _, tr := range a.Expr.Variables() {
				if tr.RootName() != "local" || len(tr) < 2 {
					continue
				}
				if attr, ok := tr[1].(hcl2.TraverseAttr); ok {
					if _, defined := attrs[attr.Name]; defined {
						if _, done := values[attr.Name]; !done {
							ready = false
						}
					}
				}
			}
			if !ready {
				next = append(next, name)
				continue
			}
			l.ev.ctx.Variables = map[string]cty.Value{"local": cty.ObjectVal(values)}
			v, d := a.Expr.Value(l.ev.ctx)
			l.diags = append(l.diags, d...)
			if d.HasErrors() {
				v = cty.DynamicVal
			}
			values[name] = v
			progress = true
		}
		if !progress {
			for _, name := range next {
				l.ev.errorf(attrs[name].NameRange, "Local value cycle",
					"Local %q depends on itself through other locals (%s).", name, strings.Join(next, ", "))
			}
			break
		}
		pending = next
	}
	l.ev.ctx.Variables = map[string]cty.Value{"local": cty.ObjectVal(values)}
}

func (l *loader) decodeSettings(blocks []*hcl2.Block) {
	for i, b := range blocks {
		if i > 0 {
			l.ev.errorf(b.DefRange, "Duplicate settings block",
				"Only one settings block is allowed; the first is at %s.", at(blocks[0].DefRange))
			continue
		}
		content, d := b.Body.Content(settingsSchema)
		l.diags = append(l.diags, d...)
		s := &l.cfg.Settings
		for name, a := range content.Attributes {
			switch name {
			case "max_concurrency":
				if n, ok := l.ev.integer(a); ok {
					if n < 1 {
						l.ev.errorf(a.Expr.Range(), "Invalid setting", "max_concurrency must be at least 1.")
						continue
					}
					s.MaxConcurrency = n
				}
			case "default_timeout":
				s.DefaultTimeout, _ = l.ev.duration(a)
			case "stop_block_cap":
				if n, ok := l.ev.integer(a); ok {
					if n < 0 {
						l.ev.errorf(a.Expr.Range(), "Invalid setting", "stop_block_cap must not be negative (0 turns the guard off).")
						continue
					}
					s.StopBlockCap = &n
				}
			case "audit_log":
				if p, ok := l.ev.str(a); ok && p != "" {
					s.AuditLog = l.path(p)
				}
			case "http_allow":
				s.HTTPAllow, _ = l.ev.strings(a)
				if _, err := urlallow.Parse(s.HTTPAllow); err != nil {
					l.ev.errorf(a.Expr.Range(), "Invalid setting", "%s. Each entry is an http or https URL: scheme, host, optional port and path prefix, such as \"https://api.example.com/v1\".", err)
					s.HTTPAllow = nil
				}
			case "roots":
				roots, _ := l.ev.strings(a)
				for _, r := range roots {
					s.Roots = append(s.Roots, l.path(r))
				}
			case "required":
				s.Required, _ = l.ev.strings(a)
				l.cfg.RequiredRange = a.Expr.Range()
			case "state_file":
				if p, ok := l.ev.str(a); ok && p != "" {
					s.StateFile = l.path(p)
				}
			case "script_pool":
				s.ScriptPool, _ = l.ev.integer(a)
			case "script_memory_limit":
				if n, ok := l.ev.size(a); ok {
					s.ScriptMemoryLimit = &n
				}
			}
		}
	}
}

// path resolves a path relative to the configuration directory.
func (l *loader) path(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(l.dir, p)
}

// decodeEvent turns an event block into a custom EventSpec.
func (l *loader) decodeEvent(b *hcl2.Block) {
	name := b.Labels[0]
	content, d := b.Body.Content(eventSchema)
	l.diags = append(l.diags, d...)
	spec := engine.EventSpec{Name: name, Source: engine.SourceCustom}
	if prev, dup := l.custom[name]; dup {
		l.ev.errorf(b.LabelRanges[0], "Duplicate event", "Event %q is already declared at %s.", name, at(prev.at))
		return
	}
	if _, builtin := l.lookupEvent(name); builtin {
		l.ev.errorf(b.LabelRanges[0], "Event name taken", "%q is a built-in event or alias; custom events need their own names.", name)
		return
	}
	ok := true
	for attrName, a := range content.Attributes {
		switch attrName {
		case "strategy":
			if s, good := l.ev.str(a); good {
				st, err := engine.ParseStrategy(s)
				if err != nil {
					l.ev.errorf(a.Expr.Range(), "Invalid strategy", "%s.", err)
					ok = false
				}
				spec.Strategy = st
			}
		case "matcher":
			spec.MatcherField, _ = l.ev.str(a)
		case "decisions":
			spec.Decisions, _ = l.ev.strings(a)
		case "decision_field":
			spec.DecisionField, _ = l.ev.str(a)
		case "aliases":
			spec.Aliases, _ = l.ev.strings(a)
		case "default_timeout":
			spec.DefaultTimeout, _ = l.ev.duration(a)
		case "fail_closed":
			spec.FailClosed, _ = l.ev.boolean(a)
		case "description":
			spec.Description, _ = l.ev.str(a)
		case "merge":
			spec.Merge, ok = l.decodeMerge(a)
		}
	}
	if !ok {
		return
	}
	if err := spec.Validate(); err != nil && spec.Strategy != 0 {
		l.ev.errorf(b.DefRange, "Invalid event", "%s.", err)
		return
	}
	ce := &customEvent{spec: spec, at: b.DefRange}
	l.custom[name] = ce
	for _, a := range spec.Aliases {
		if _, taken := l.lookupEvent(a); taken {
			l.ev.errorf(b.DefRange, "Event alias taken", "Alias %q of event %q is already an event name or alias.", a, name)
			continue
		}
		l.custom[a] = ce
	}
	l.cfg.Events = append(l.cfg.Events, spec)
}

// decodeMerge reads `merge = { field = "rule" }` where a rule is a rule
// name or an object { rule, order, terminal, blocks, target, value }.
func (l *loader) decodeMerge(a *hcl2.Attribute) (map[string]engine.FieldRule, bool) {
	v, ok := l.ev.goValue(a)
	if !ok {
		return nil, false
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		l.ev.errorf(a.Expr.Range(), "Invalid merge rules", "merge must be an object of field = rule.")
		return nil, false
	}
	out := map[string]engine.FieldRule{}
	good := true
	fail := func(field, format string, args ...any) {
		l.ev.errorf(a.Expr.Range(), "Invalid merge rule", "Field %q: %s.", field, fmt.Sprintf(format, args...))
		good = false
	}
	for field, raw := range m {
		var fr engine.FieldRule
		switch r := raw.(type) {
		case string:
			rule, err := engine.ParseMergeRule(r)
			if err != nil {
				fail(field, "%s", err)
				continue
			}
			fr.Rule = rule
			switch rule {
			case engine.MergeSticky:
				// block and cancel are the conventional terminal flags.
				if field == "block" || field == "cancel" {
					fr.Terminal, fr.Blocks = true, true
				}
			case engine.MergeChain:
				fr.Target = field
			case engine.MergeRestrictive:
				fail(field, "a restrictive rule needs an order: write { rule = \"restrictive\", order = [\"most\", ..., \"least\"] }")
				continue
			}
		case map[string]any:
			rs, _ := r["rule"].(string)
			rule, err := engine.ParseMergeRule(rs)
			if err != nil {
				fail(field, "%s", err)
				continue
			}
			fr.Rule = rule
			for k, v := range r {
				switch k {
				case "rule":
				case "order":
					l, okList := v.([]any)
					if !okList {
						fail(field, "order must be a list of strings")
						continue
					}
					for _, x := range l {
						s, _ := x.(string)
						fr.Order = append(fr.Order, s)
					}
				case "terminal":
					fr.Terminal, _ = v.(bool)
				case "blocks":
					fr.Blocks, _ = v.(bool)
				case "target":
					fr.Target, _ = v.(string)
				case "value":
					fr.Value = v
				case "freeze_after":
					fr.FreezeAfter, _ = v.(string)
				default:
					fail(field, "unknown key %q (want rule, order, terminal, blocks, target, value, freeze_after)", k)
				}
			}
			if rule == engine.MergeChain && fr.Target == "" {
				fr.Target = field
			}
		default:
			fail(field, "want a rule name or an object")
		}
		out[field] = fr
	}
	return out, good
}
