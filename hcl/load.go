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

	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/safefile"
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
	// Functions are the condition functions the configuration declares
	// (function blocks): the embedding program supplies them.
	Functions []*FunctionBlock
	// RequiredRange is where settings.required is written.
	RequiredRange Range
	// StateRange is where settings.state is written, for messages about
	// its servers.
	StateRange Range
	// LayersRange is where settings.managed_only or allow_layers is
	// written.
	LayersRange Range

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
	return fromHCL(append(append(hcl2.Diagnostics(nil), c.l.diags...), c.l.ev.diags...), c.l.parser.Files())
}

// CheckSyntax parses files as HCL without decoding them; the syntax
// errors are the result (nil when there is none).
func CheckSyntax(files ...string) (*Diagnostics, error) {
	p := hclparse.NewParser()
	var all hcl2.Diagnostics
	for _, name := range files {
		src, err := safefile.ReadRegular(name)
		if err != nil {
			return nil, err
		}
		_, d := p.ParseHCL(src, name)
		all = append(all, parsed(d)...)
	}
	if !all.HasErrors() {
		return nil, nil
	}
	return fromHCL(all, p.Files()), nil
}

// Source returns the bytes of a loaded configuration file (nil if it was
// not loaded).
func (c *Config) Source(filename string) []byte {
	if f := c.l.parser.Files()[filename]; f != nil {
		return f.Bytes
	}
	return nil
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
	// FileCheck, when set, must accept every file file() reads (its path
	// and the bytes read) or the read fails.
	FileCheck func(path string, content []byte) error
	// Overlay holds file contents read instead of the disk's (see
	// WithOverlay).
	Overlay map[string][]byte
}

// Option configures decoding.
type Option func(*Options)

func optionsOf(opts []Option) Options {
	var o Options
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

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

// WithFileCheck makes file() pass every file it reads through check.
func WithFileCheck(check func(path string, content []byte) error) Option {
	return func(o *Options) { o.FileCheck = check }
}

// WithConditions compiles `when` conditions with c, the engine's
// compiler (engine.ConditionCompiler), so that the condition functions the
// engine was given work in HCL hooks. Without it or WithCatalog only
// expr's own functions are known.
func WithConditions(c *conditions.Compiler) Option {
	return func(o *Options) { o.Conditions = c }
}

// TestFileSuffix ends the name of a test file: `test` blocks for
// `hookctl test` (package hooktest), kept beside the configuration and
// never loaded as configuration.
const TestFileSuffix = "_test.hcl"

// IsTestFile reports whether the file named is a test file (*_test.hcl).
func IsTestFile(name string) bool {
	return strings.HasSuffix(filepath.Base(name), TestFileSuffix)
}

// ConfigFiles lists, sorted, the files of a configuration directory that
// Parse loads: every *.hcl file but the test files (*_test.hcl).
//
// A directory that cannot be listed (absent, not a directory, not
// readable) lists nothing, as filepath.Glob did; the name of dir is never
// read as a pattern (a directory named proj[1] lists itself, not proj1).
// A daemon looks for them through a listing cache (package
// internal/dirlist), filtering its names with IsConfigFile.
func ConfigFiles(dir string) ([]string, error) {
	return dirFiles(dir, IsConfigFile), nil
}

// IsConfigFile reports whether a directory entry named name is one of
// the configuration files ConfigFiles lists: *.hcl, not a test file.
func IsConfigFile(name string) bool {
	return strings.HasSuffix(name, ".hcl") && !IsTestFile(name)
}

// TestFiles lists, sorted, the test files of the configuration at path:
// the *_test.hcl files of the directory it names, or of the directory of
// the file it names.
func TestFiles(path string) ([]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	dir := path
	if !fi.IsDir() {
		dir = filepath.Dir(path)
	}
	return dirFiles(dir, IsTestFile), nil
}

// dirFiles lists, sorted, the entries of dir whose names keep accepts;
// nothing when dir cannot be listed. The name of dir is never read as a
// glob pattern, and the directory is opened without trying the poller
// (os.ReadDir; filepath.Glob's open cost five more system calls).
func dirFiles(dir string, keep func(name string) bool) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if keep(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out // os.ReadDir sorts by name
}

// Parse decodes a configuration from a file or from a directory of *.hcl
// files (test files, *_test.hcl, excepted). The error is for a path that
// cannot be read or is a test file; problems in the files are the
// Config's Diagnostics.
func Parse(path string, opts ...Option) (*Config, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	if !fi.IsDir() {
		if IsTestFile(path) {
			return nil, fmt.Errorf("config %s: a *%s file holds tests, not configuration: name the configuration (hookctl test finds the tests beside it)", path, TestFileSuffix)
		}
		return ParseFile(path, opts...), nil
	}
	matches, err := ConfigFiles(path)
	if err != nil {
		return nil, err
	}
	matches = withOverlayFiles(path, matches, optionsOf(opts).Overlay)
	if len(matches) == 0 {
		if tests, _ := TestFiles(path); len(tests) > 0 {
			return nil, fmt.Errorf("config %s: no *.hcl files in the directory but test files (*%s), which are not configuration", path, TestFileSuffix)
		}
		return nil, fmt.Errorf("config %s: no *.hcl files in the directory", path)
	}
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
	l.diags = append(l.diags, parsed(d)...)
	return l.finish(name, []string{name}, []*hcl2.File{f})
}

func parse(name, dir string, paths []string, opts []Option) *Config {
	l := newLoader(dir, opts)
	var files []*hcl2.File
	for _, p := range paths {
		f, d := l.parseFile(p)
		l.diags = append(l.diags, parsed(d)...)
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
	fileCheck  func(path string, content []byte) error
	overlay    map[string][]byte

	ev       evaluator
	builtins map[string]engine.EventSpec // the catalog when no engine is given
	custom   map[string]*customEvent     // config events by every name
	cfg      *Config
	hookAt   map[string]hcl2.Range // hook id -> where declared
	// conds compiles conditions; compiled caches them by source, since
	// hooks often share a condition and a compiled one is immutable.
	conds    *conditions.Compiler
	compiled map[string]*conditions.Program
	// lines holds, per configuration file, where each of its lines
	// starts, computed once (lineStarts): positions inside inline bodies
	// are mapped with it, not by splitting the file per body.
	lines map[string][]int
}

func newLoader(dir string, opts []Option) *loader {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	l := &loader{
		dir:    abs,
		parser: hclparse.NewParser(),
		custom: map[string]*customEvent{},
		hookAt: map[string]hcl2.Range{},
	}
	o := optionsOf(opts)
	l.overlay = o.Overlay
	l.getenv = o.Getenv
	if l.getenv == nil {
		l.getenv = os.LookupEnv
	}
	l.catalog, l.projectDir, l.conds, l.fileCheck = o.Catalog, o.ProjectDir, o.Conditions, o.FileCheck
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
		// Not the events the loaded configuration declared: a reload
		// declares them again.
		return l.catalog.ProgramEvent(name)
	}
	s, ok := l.builtins[name]
	return s, ok
}

func (l *loader) knownEventNames() []string {
	var names []string
	if l.catalog != nil {
		for _, s := range l.catalog.ProgramEvents() {
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
	l.ev.ctx = &hcl2.EvalContext{Functions: functions(l.dir, l.getenv, func(p string) { l.refs = append(l.refs, p) }, l.fileCheck)}

	var settings, locals, events, hooks, builtins, funcs []*hcl2.Block
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
			case "function":
				funcs = append(funcs, b)
			}
		}
	}
	l.decodeLocals(locals)
	l.decodeSettings(settings)
	l.decodeFunctions(funcs) // before the conditions that call them
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
