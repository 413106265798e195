package builtin

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/lib/paths"
	"github.com/hookctl/hookctl/lib/shell"
	"github.com/hookctl/hookctl/state/kv"
)

// OptionSpec describes one option of a builtin. Type is one of "string",
// "bool", "number", "duration" (a string such as "5m") or "list" (a list
// of strings). Default is the value used when the option is not given, nil
// when it has none. It is a plain value, safe to share once built.
type OptionSpec struct {
	Name, Type, Doc string
	Default         any
}

// Option types.
const (
	TypeString   = "string"
	TypeBool     = "bool"
	TypeNumber   = "number"
	TypeDuration = "duration"
	TypeList     = "list"
)

// Spec describes a builtin: its name, what it does, the events it hooks,
// its default priority and its options (sorted by name). Specs and Lookup
// return fresh copies that the caller owns.
type Spec struct {
	Name, Description string
	Events            []string
	Priority          int
	Options           []OptionSpec
}

// Config configures one instance of a builtin. New reads it and does not
// modify it; the hooks it returns keep the Store, Logger, Now and Dir, which
// must therefore be safe for concurrent use.
type Config struct {
	// ID is the hook id; "" means "builtin:<name>".
	ID string
	// Priority overrides the builtin's default priority when not nil.
	Priority *int
	// Options are the attribute values of the HCL block: string, bool,
	// float64 or int64 (any Go integer is accepted), []any or []string of
	// strings, and durations as strings like "5m" (or time.Duration).
	Options map[string]any
	// Store keeps the state of stateful builtins (compaction-guard); nil
	// means a fresh kv.NewMemory.
	Store kv.Store
	// Dir is the config's directory: relative paths (log files) resolve
	// against it. "" means the process's working directory.
	Dir string
	// Logger receives the logs of builtins that log (notification-router)
	// and reports of failed side effects; nil means the engine's logger.
	Logger *slog.Logger
	// Now is the clock (nil means time.Now): compaction-guard measures
	// intervals with it and the loggers stamp records with it.
	Now func() time.Time
	// Home is the home directory that ~ and $HOME stand for in commands
	// and paths; "" means $HOME of the environment (Getenv).
	Home string
	// Getenv is the environment the builtins read: HOME (when Home is
	// ""; the process's when the environment has none), CLAUDE_PROJECT_DIR (dangerous-commands' project, the payload's
	// cwd without it) and TMPDIR (temporary files dangerous-commands lets
	// be deleted). nil means the process's environment (os.Getenv); an
	// embedder or a server answering for another process gives that
	// process's.
	Getenv func(string) string
	// Shell parses command lines; builtins of one configuration share one
	// so a command line is parsed once however many guards look at it
	// (nil: a cache of its own per builtin).
	Shell *shell.Cache

	// system is the path rules commands' arguments are read with (zero:
	// the host's); tests set it to check Windows' rules on Linux.
	system paths.System
}

// ErrUnknownBuiltin is wrapped by the error New returns for a name that is
// not a builtin.
var ErrUnknownBuiltin = errors.New("unknown builtin")

// OptionError reports an option New cannot accept: unknown, of the wrong
// type, or with a bad value. Test for it with errors.As.
type OptionError struct {
	Builtin string // the builtin's name
	Option  string // the option's name
	Msg     string // what is wrong
}

func (e *OptionError) Error() string {
	return fmt.Sprintf("builtin %q: option %q: %s", e.Builtin, e.Option, e.Msg)
}

// builder turns validated options into hooks.
type builder func(b *build) ([]engine.Hook, error)

type entry struct {
	spec  Spec
	build builder
}

// build carries what a builder needs.
type build struct {
	spec  Spec
	cfg   Config
	opts  options
	id    string
	prio  int
	home  string
	now   func() time.Time
	shell *shell.Cache
	// getenv is Config.Getenv, os.Getenv by default.
	getenv func(string) string
}

// hook returns a hook with the instance's id and priority.
func (b *build) hook(h engine.Hook) engine.Hook {
	h.ID = b.id
	h.Priority = b.prio
	return h
}

// optErr returns an OptionError for this builtin.
func (b *build) optErr(option, format string, args ...any) error {
	return &OptionError{Builtin: b.spec.Name, Option: option, Msg: fmt.Sprintf(format, args...)}
}

// logger returns the configured logger, or the engine's one from the call.
func (b *build) logger(c *engine.Call) *slog.Logger {
	if b.cfg.Logger != nil {
		return b.cfg.Logger
	}
	if c != nil && c.Logger != nil {
		return c.Logger
	}
	return slog.New(slog.DiscardHandler)
}

// entries lists every builtin. The list is built afresh by each call and
// never shared, so the package holds no mutable state.
func entries() []entry {
	return []entry{
		{dangerousSpec(), buildDangerous},
		{secretSpec(), buildSecretFiles},
		{readOnlySpec(), buildReadOnly},
		{promptLengthSpec(), buildPromptLength},
		{compactionSpec(), buildCompaction},
		{sessionLogSpec(), buildSessionLog},
		{toolLogSpec(), buildToolLog},
		{taskLogSpec(), buildTaskLog},
		{notificationSpec(), buildNotification},
	}
}

func find(name string) (entry, bool) {
	for _, e := range entries() {
		if e.spec.Name == name {
			return e, true
		}
	}
	return entry{}, false
}

// Specs returns the spec of every builtin, sorted by name. The slice and
// everything in it are the caller's.
func Specs() []Spec {
	es := entries()
	out := make([]Spec, len(es))
	for i, e := range es {
		out[i] = e.spec
	}
	slices.SortFunc(out, func(a, b Spec) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Lookup returns the spec of the named builtin.
func Lookup(name string) (Spec, bool) {
	e, ok := find(name)
	return e.spec, ok
}

// Names returns the builtins' names, sorted.
func Names() []string {
	specs := Specs()
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}

// New returns the hooks of the named builtin configured by cfg, ready to
// be registered with an engine. It fails, naming the option, on an unknown
// name (ErrUnknownBuiltin), an unknown option, an option of the wrong type
// or a bad value (*OptionError). Every builtin yields one hook with id
// cfg.ID (default "builtin:<name>"); builtins on several events set
// Hook.Events. New is safe for concurrent use, and so are the handlers of
// the hooks it returns.
func New(name string, cfg Config) ([]engine.Hook, error) {
	e, ok := find(name)
	if !ok {
		return nil, fmt.Errorf("%w %q (builtins: %s)", ErrUnknownBuiltin, name, strings.Join(Names(), ", "))
	}
	opts, err := parseOptions(e.spec, cfg.Options)
	if err != nil {
		return nil, err
	}
	b := &build{spec: e.spec, cfg: cfg, opts: opts, id: cfg.ID, prio: e.spec.Priority, home: cfg.Home, now: cfg.Now}
	if b.id == "" {
		b.id = "builtin:" + name
	}
	if cfg.Priority != nil {
		b.prio = *cfg.Priority
	}
	b.getenv = cfg.Getenv
	if b.getenv == nil {
		b.getenv = os.Getenv
	}
	switch {
	case b.home != "":
	case cfg.Getenv != nil && cfg.Getenv("HOME") != "":
		b.home = paths.Home(paths.WithGetenv(cfg.Getenv))
	default:
		// $HOME, else the OS's idea of it: a guard needs a home to see
		// what ~ stands for, and the process's is the best guess.
		b.home = paths.Home()
	}
	if b.home != "" {
		b.home = paths.Normalize(b.home)
	}
	if b.now == nil {
		b.now = time.Now
	}
	b.shell = cfg.Shell
	if b.shell == nil {
		b.shell = shell.NewCache(0)
	}
	return e.build(b)
}

// handler is the handler of every builtin: a Go function, cheap (inline)
// or not, reported as kind "builtin" in traces.
type handler struct {
	fn    func(ctx context.Context, c *engine.Call) (engine.Result, error)
	cheap bool
}

// Handle calls the builtin.
func (h *handler) Handle(ctx context.Context, c *engine.Call) (engine.Result, error) {
	return h.fn(ctx, c)
}

// Kind implements engine.Kinded.
func (*handler) Kind() string { return "builtin" }

// ToolAware implements engine.ToolAware: the built-ins find the canonical
// tool name themselves (toolOf).
func (*handler) ToolAware() bool { return true }

// Inline implements engine.Inliner: cheap, CPU-bound builtins run on the
// firing goroutine.
func (h *handler) Inline() bool { return h.cheap }

// SelfTimed implements engine.SelfTimed: a cheap builtin has nothing to
// wait for, so it needs no deadline of its own.
func (h *handler) SelfTimed() bool { return h.cheap }

// cheap returns a handler for a fast, CPU-bound builtin.
func cheap(fn func(ctx context.Context, c *engine.Call) (engine.Result, error)) engine.Handler {
	return &handler{fn: fn, cheap: true}
}

// slow returns a handler for a builtin that does I/O.
func slow(fn func(ctx context.Context, c *engine.Call) (engine.Result, error)) engine.Handler {
	return &handler{fn: fn}
}

// ---- payload access ---------------------------------------------------

// str returns the string under key, or "".
func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// toolOf returns the canonical name of the payload's tool (Bash for
// crush's bash, Gemini's run_shell_command, ...): the engine's tool field,
// else tool_name (or toolName) made canonical.
func toolOf(p map[string]any) string {
	if t := str(p, engine.ToolField); t != "" {
		return t
	}
	if t := str(p, "tool_name"); t != "" {
		return engine.CanonicalTool(t)
	}
	return engine.CanonicalTool(str(p, "toolName"))
}

// object returns the map under key, or nil.
func object(m map[string]any, key string) map[string]any {
	o, _ := m[key].(map[string]any)
	return o
}

// truncate cuts s to at most n runes, saying how much was cut.
func truncate(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	count := 0
	for i := range s {
		if count == n {
			rest := len([]rune(s[i:]))
			return s[:i] + fmt.Sprintf("…[%d more characters]", rest)
		}
		count++
	}
	return s
}

// lazyRegexp compiles expr the first time it is needed, so that loading
// the package (every hookctl command does) costs nothing.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
