package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/internal/fastpath"
	"github.com/hookctl/hookctl/internal/safefile"
)

// Defaults.
const (
	DefaultMaxConcurrency  = 8
	DefaultStopBlockCap    = 3
	DefaultBackgroundQueue = 1024
	DefaultBackgroundWait  = 100 * time.Millisecond
	// fallbackTimeout applies when neither the hook, the settings nor the
	// event give a timeout.
	fallbackTimeout = 60 * time.Second
)

// Engine runs hooks. It is safe for concurrent use: any number of
// goroutines may Fire while others register, unregister, enable, disable
// or Load a whole new config. Create one with New and release it with
// Close.
type Engine struct {
	snap atomic.Pointer[snapshot]

	// entries recycles the firing copies Entrants run (entrySlot).
	entries sync.Pool

	mu  sync.Mutex // guards reg and audit swaps
	reg registry
	cc  *conditions.Compiler

	log       *slog.Logger
	loops     LoopStore
	bgSize    int
	bgWait    time.Duration
	auditOpt  io.Writer
	extraEvts []EventSpec
	condOpts  []conditions.Option
	off       fastpath.Set // the optimisations turned off (withoutFastPaths)
	mw        []Middleware
	obs       Observer
	// skipTraces keeps the traces of skipped hooks (WithSkippedTraces).
	skipTraces bool
	// quietRuns leaves the traces of hooks that ran cleanly out of
	// outcomes that trace only what a reply shows (WithQuietRuns).
	quietRuns bool
	// readOutput reads a handler's result in a host's output shapes
	// (WithOutputReader; ClaudeOutput when nil).
	readOutput func(event string, raw map[string]any) Result

	closed atomic.Bool
	drain  drain

	workers workers

	fireSeq   atomic.Uint64
	fires     atomic.Uint64
	hooksRun  atomic.Uint64
	hookErrs  atomic.Uint64
	timeouts  atomic.Uint64
	bgQueued  atomic.Uint64
	bgDone    atomic.Uint64
	bgDropped atomic.Uint64
	bgPending atomic.Int64

	// audit is settings.audit_log's file; auditW the writer of
	// WithAuditLog or SetAuditLog. Each fire's record goes to both.
	audit  atomic.Pointer[auditSink]
	auditW atomic.Pointer[auditSink]

	firePool sync.Pool
	taskPool sync.Pool
}

// withoutFastPaths turns optimisations off, the engine's and its
// conditions', for the differential tests that compare each with its plain
// path (export_test.go).
func withoutFastPaths(off fastpath.Set) Option {
	return func(e *Engine) error {
		e.off |= off
		e.condOpts = append(e.condOpts, conditions.WithoutFastPaths(off))
		return nil
	}
}

// Option configures an Engine.
type Option func(*Engine) error

// WithMaxConcurrency bounds how many void, observe and background hooks run
// at once on the engine's worker pool (default 8).
func WithMaxConcurrency(n int) Option {
	return func(e *Engine) error {
		if n < 1 {
			return fmt.Errorf("max concurrency must be at least 1, got %d", n)
		}
		e.reg.base.maxConcurrency = n
		return nil
	}
}

// WithLogger sets the logger for hook failures, dropped background work and
// script logs (default: discard).
func WithLogger(l *slog.Logger) Option {
	return func(e *Engine) error {
		if l != nil {
			e.log = l
		}
		return nil
	}
}

// WithDefaultTimeout sets the per-hook timeout used when a hook sets none;
// it takes precedence over the events' own defaults.
func WithDefaultTimeout(d time.Duration) Option {
	return func(e *Engine) error {
		if d < 0 {
			return errors.New("default timeout must not be negative")
		}
		e.reg.base.defaultTimeout = d
		return nil
	}
}

// WithStopBlockCap sets how many consecutive Stop/SubagentStop blocks the
// loop guard allows per session before it lets the agent stop (default 3;
// 0 turns the guard off).
func WithStopBlockCap(n int) Option {
	return func(e *Engine) error {
		if n < 0 {
			return errors.New("stop block cap must not be negative")
		}
		e.reg.base.stopBlockCap = n
		return nil
	}
}

// WithLoopStore replaces the in-memory store of the Stop loop guard, e.g.
// with a file-backed one that survives across processes.
func WithLoopStore(s LoopStore) Option {
	return func(e *Engine) error {
		if s == nil {
			return errors.New("nil loop store")
		}
		e.loops = s
		return nil
	}
}

// WithBackgroundQueue sets the background queue's capacity and how long a
// Fire waits for room when it is full (back-pressure) before dropping the
// hook and recording the drop.
func WithBackgroundQueue(size int, wait time.Duration) Option {
	return func(e *Engine) error {
		if size < 1 || wait < 0 {
			return errors.New("background queue: size must be positive and wait not negative")
		}
		e.bgSize, e.bgWait = size, wait
		return nil
	}
}

// WithAuditLog writes one JSON line per fire (the outcome) to w, one
// Write per record, never two at once. A configuration's audit_log file
// is written besides w, not instead of it. SetAuditLog replaces w.
func WithAuditLog(w io.Writer) Option {
	return func(e *Engine) error {
		e.auditOpt = w
		return nil
	}
}

// WithSkippedTraces has every fire's Outcome.Hooks list the hooks it
// skipped (matcher or condition false, disabled, chain stopped) with their
// reasons, as --explain, tests and coverage want them. Without it a
// skipped hook costs a fire nothing but its matcher or condition test:
// Outcome.Hooks lists the hooks that ran (or failed, or were queued) and
// Outcome.Skipped counts the others. An engine with an Observer or an
// audit log keeps the skipped traces whether or not this is given, since
// both report them.
func WithSkippedTraces() Option {
	return func(e *Engine) error {
		e.skipTraces = true
		return nil
	}
}

// WithQuietRuns has a fire's Outcome.Hooks keep only the traces a host's
// reply shows: the hooks that failed or timed out (fail-closed or not), or
// whose result the engine ignored in part (a Note). A hook that ran and
// answered cleanly (ran, decided) or was queued is counted in
// Outcome.UntracedRuns instead, so that a fire of hooks that all answer
// allocates no trace at all. Everything else of the Outcome (the decision,
// the reason, the output, the state) is the same either way: the traces
// are a record of the fire, not an input of its merge.
//
// It is for callers that read no trace but the failures (a host's reply:
// protocol.HookFailures): whoever asks for the traces gets them whole,
// since WithSkippedTraces, an Observer or an audit log each turn it off.
func WithQuietRuns() Option {
	return func(e *Engine) error {
		e.quietRuns = true
		return nil
	}
}

// WithOutputReader sets how a handler's result in a host's own output
// shapes (one with hookSpecificOutput) is read into hookctl's vocabulary:
// read gets the event's canonical name and the result, which it must not
// modify. The host's command hooks' stdout should be read by the same
// function (protocol/claude.ReadOutputFor, which assemble.NewEngine sets),
// so that a script or Go handler returning an output means what a command
// hook printing it means, channel for channel. Without it, ClaudeOutput
// reads it (every channel, no event's rules).
func WithOutputReader(read func(event string, raw map[string]any) Result) Option {
	return func(e *Engine) error {
		e.readOutput = read
		return nil
	}
}

// WithEvents adds custom events to the catalog at construction.
func WithEvents(specs ...EventSpec) Option {
	return func(e *Engine) error {
		e.extraEvts = append(e.extraEvts, specs...)
		return nil
	}
}

// WithConditionOptions configures the condition compiler, e.g. with the
// helper functions of the stdlib package.
func WithConditionOptions(opts ...conditions.Option) Option {
	return func(e *Engine) error {
		e.condOpts = append(e.condOpts, opts...)
		return nil
	}
}

// New returns an engine with the built-in event catalog and no hooks.
func New(opts ...Option) (*Engine, error) {
	e := &Engine{
		log:    slog.New(slog.DiscardHandler),
		bgSize: DefaultBackgroundQueue,
		bgWait: DefaultBackgroundWait,
	}
	e.reg.base = settings{maxConcurrency: DefaultMaxConcurrency, stopBlockCap: DefaultStopBlockCap}
	for _, o := range opts {
		if err := o(e); err != nil {
			return nil, err
		}
	}
	if e.loops == nil {
		e.loops = NewMemoryLoopStore()
	}
	if err := e.reg.init(e.reg.base, e.extraEvts); err != nil {
		return nil, err
	}
	e.reg.off = e.off
	e.cc = conditions.NewCompiler(e.condOpts...)
	if e.auditOpt != nil {
		e.auditW.Store(&auditSink{w: e.auditOpt})
	}
	e.workers.init(e)
	e.firePool.New = func() any { return &fireState{off: e.off} }
	e.taskPool.New = func() any { return new(task) }
	e.snap.Store(e.reg.build())
	return e, nil
}

// SetAuditLog replaces the writer of WithAuditLog (nil: none), for an
// embedder that knows where the records go only once its configuration
// is loaded. A configuration's audit_log file is not affected. Fires in
// progress may still write their record to the previous writer; the
// engine never closes a writer it was given.
func (e *Engine) SetAuditLog(w io.Writer) {
	if w == nil {
		e.auditW.Store(nil)
		return
	}
	e.auditW.Store(&auditSink{w: w})
}

// ConditionCompiler returns the compiler the engine uses for `when`
// conditions, so loaders can report compile errors with positions.
func (e *Engine) ConditionCompiler() *conditions.Compiler { return e.cc }

// Logger returns the engine's logger, so that what a loader builds for the
// engine (script runtimes, built-ins) logs where the engine does.
func (e *Engine) Logger() *slog.Logger { return e.log }

// Resolve returns the ID of an event name or alias.
func (e *Engine) Resolve(name string) (EventID, error) {
	if id, ok := e.snap.Load().byName[name]; ok {
		return id, nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return 0, e.reg.unknown(name)
}

// Event returns the spec of an event name or alias.
func (e *Engine) Event(name string) (EventSpec, error) {
	s := e.snap.Load()
	if id, ok := s.byName[name]; ok {
		return *s.events[id].spec.clone(), nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return EventSpec{}, e.reg.unknown(name)
}

// Events returns the catalog: built-in events first, then custom ones.
func (e *Engine) Events() []EventSpec {
	s := e.snap.Load()
	out := make([]EventSpec, 0, len(s.events))
	for _, ent := range s.events {
		if ent != nil {
			out = append(out, *ent.spec.clone())
		}
	}
	return out
}

// ProgramEvent is Event without the custom events of the loaded
// configuration: the built-in events and those registered from Go. A
// configuration being loaded for this engine resolves its events against
// it, so that a reload can declare the custom events it declared before.
func (e *Engine) ProgramEvent(name string) (EventSpec, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	id, ok := e.reg.names[name]
	if !ok || e.reg.specs[id] == nil || e.reg.cfgSpecs[id] {
		return EventSpec{}, false
	}
	return *e.reg.specs[id].clone(), true
}

// ProgramEvents is Events without the custom events of the loaded
// configuration (see ProgramEvent).
func (e *Engine) ProgramEvents() []EventSpec {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]EventSpec, 0, len(e.reg.specs))
	for id, s := range e.reg.specs {
		if s != nil && !e.reg.cfgSpecs[EventID(id)] {
			out = append(out, *s.clone())
		}
	}
	return out
}

// HasHooks reports whether any hook is registered for the event. It is a
// cheap probe for callers that want to skip building a payload.
func (e *Engine) HasHooks(name string) bool {
	s := e.snap.Load()
	id, ok := s.names.lookup(name)
	return ok && len(s.events[id].all) > 0
}

// RegisterEvent adds a custom event to the catalog.
func (e *Engine) RegisterEvent(spec EventSpec) (EventID, error) {
	if e.closed.Load() {
		return 0, ErrClosed
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	id, err := e.reg.addSpec(spec, false)
	if err != nil {
		return 0, err
	}
	e.snap.Store(e.reg.build())
	return id, nil
}

// Register adds one hook. It fails if the id is taken, an event is unknown,
// the matcher or condition does not compile, or a declarative decision is
// not one the event accepts.
func (e *Engine) Register(h Hook) error {
	if e.closed.Load() {
		return ErrClosed
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	c, err := e.reg.compile(h, e.cc, e.mw)
	if err != nil {
		return err
	}
	if e.reg.hookExists(h.ID) {
		return &DuplicateHookError{ID: h.ID}
	}
	e.reg.seq++
	c.seq = e.reg.seq
	e.reg.goHooks = append(e.reg.goHooks, c)
	e.snap.Store(e.reg.build())
	return nil
}

// Unregister removes a hook registered with Register and reports whether it
// existed. Hooks from a loaded config are replaced by the next Load.
func (e *Engine) Unregister(id string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := len(e.reg.goHooks)
	e.reg.goHooks = slices.DeleteFunc(e.reg.goHooks, func(h *compiledHook) bool { return h.ID == id })
	if len(e.reg.goHooks) == n {
		return false
	}
	delete(e.reg.disabled, id)
	e.snap.Store(e.reg.build())
	return true
}

// SetEnabled enables or disables a hook by id, wherever it came from. A
// disabled hook stays in the trace as skipped (WithSkippedTraces).
func (e *Engine) SetEnabled(id string, enabled bool) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.reg.hookExists(id) {
		return fmt.Errorf("no hook with id %q", id)
	}
	if enabled {
		delete(e.reg.disabled, id)
	} else {
		e.reg.disabled[id] = true
	}
	e.snap.Store(e.reg.build())
	return nil
}

// Settings are the engine-wide knobs of a config (the HCL settings block).
// Zero values keep the engine's options.
type Settings struct {
	MaxConcurrency int
	DefaultTimeout time.Duration
	// StopBlockCap overrides the Stop loop guard's cap when set.
	StopBlockCap *int
	// AuditLog is a file the engine appends one JSON record per fire to.
	AuditLog string
}

// Config is a whole set of custom events and hooks, as loaded from HCL.
type Config struct {
	Settings Settings
	Events   []EventSpec
	Hooks    []Hook
	// Name describes where the config came from, for logs.
	Name string
}

// LoadError lists every problem found in a config. Nothing of the config
// was applied.
type LoadError struct{ Errs []error }

func (e *LoadError) Error() string {
	if len(e.Errs) == 1 {
		return e.Errs[0].Error()
	}
	return fmt.Sprintf("%d problems in config:\n%s", len(e.Errs), errors.Join(e.Errs...))
}

// Unwrap returns the individual errors.
func (e *LoadError) Unwrap() []error { return e.Errs }

// Load swaps in a whole config atomically: its custom events and hooks
// replace those of the previously loaded config (hooks added with Register
// stay). Fires in progress finish on the old config. If anything in cfg is
// wrong, Load reports every problem and changes nothing.
func (e *Engine) Load(cfg *Config) error {
	if e.closed.Load() {
		return ErrClosed
	}
	if cfg == nil {
		cfg = &Config{}
	}
	e.mu.Lock()
	defer e.mu.Unlock()

	trial, hooks, errs := e.try(cfg)
	var sink *auditSink
	if len(errs) == 0 && cfg.Settings.AuditLog != "" {
		var err error
		if sink, err = e.openAudit(cfg.Settings.AuditLog); err != nil {
			errs = append(errs, fmt.Errorf("settings: audit_log: %w", err))
		}
	}
	if len(errs) > 0 {
		return &LoadError{Errs: errs}
	}
	for _, c := range hooks {
		trial.seq++
		c.seq = trial.seq
	}
	trial.cfgHooks = hooks
	trial.cfgSet = cfg.Settings
	trial.hasCfg = true
	trial.cfgName = cfg.Name
	for id := range trial.disabled {
		if !trial.hookExists(id) {
			delete(trial.disabled, id)
		}
	}
	e.reg = trial
	snap := e.reg.build()
	e.snap.Store(snap)
	e.workers.tune(snap.settings.maxConcurrency)
	e.swapAudit(sink)
	return nil
}

// try validates cfg against a copy of the registry: every problem the
// engine finds in a config is found here, once, for Load and Check alike.
func (e *Engine) try(cfg *Config) (registry, []*compiledHook, []error) {
	trial := e.reg.clone()
	trial.removeCfgSpecs()
	var errs []error
	for _, s := range cfg.Events {
		if _, err := trial.addSpec(s, true); err != nil {
			errs = append(errs, err)
		}
	}
	if cfg.Settings.MaxConcurrency < 0 || cfg.Settings.DefaultTimeout < 0 ||
		cfg.Settings.StopBlockCap != nil && *cfg.Settings.StopBlockCap < 0 {
		errs = append(errs, errors.New("settings: values must not be negative"))
	}
	ids := map[string]bool{}
	for _, h := range trial.goHooks {
		ids[h.ID] = true
	}
	var hooks []*compiledHook
	for _, h := range cfg.Hooks {
		c, err := trial.compile(h, e.cc, e.mw)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if ids[h.ID] {
			errs = append(errs, &DuplicateHookError{ID: h.ID})
			continue
		}
		ids[h.ID] = true
		c.fromCfg = true
		hooks = append(hooks, c)
	}
	// Hooks registered from Go must still name known events.
	for _, h := range trial.goHooks {
		for _, n := range h.events {
			if _, ok := trial.lookup(n); !ok {
				errs = append(errs, fmt.Errorf("hook %q (registered from Go) is on event %s, which the new config removes", h.ID, n))
			}
		}
	}
	return trial, hooks, errs
}

// Check reports every problem Load would find in cfg, as a *LoadError
// whose errors are *HookConfigError for problems of one hook (with the
// field they are in), and changes nothing. Loaders use it to report the
// problems at the place the hook was written.
func (e *Engine) Check(cfg *Config) error {
	if e.closed.Load() {
		return ErrClosed
	}
	if cfg == nil {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, _, errs := e.try(cfg); len(errs) > 0 {
		return &LoadError{Errs: errs}
	}
	return nil
}

// clone copies the registry so a Load can be tried without touching it.
func (r *registry) clone() registry {
	c := *r
	c.specs = slices.Clone(r.specs)
	c.names = make(map[string]EventID, len(r.names))
	for k, v := range r.names {
		c.names[k] = v
	}
	c.cfgSpecs = make(map[EventID]bool, len(r.cfgSpecs))
	for k, v := range r.cfgSpecs {
		c.cfgSpecs[k] = v
	}
	c.goHooks = slices.Clone(r.goHooks)
	c.cfgHooks = slices.Clone(r.cfgHooks)
	c.disabled = make(map[string]bool, len(r.disabled))
	for k, v := range r.disabled {
		c.disabled[k] = v
	}
	return c
}

// HookInfo describes one registered hook of one event, for listings.
type HookInfo struct {
	ID         string
	Event      string
	Matcher    string
	When       string
	Priority   int
	Handler    string
	Phase      Phase
	Timeout    time.Duration
	OnError    string
	Background bool
	Observe    bool
	Disabled   bool
	Source     string
	// Layer is the configuration layer of the hook (engine.Hook.Layer).
	Layer string
}

// Hooks returns the hooks of an event in firing order: the chain, then
// parallel (void or observe) hooks, then background hooks.
func (e *Engine) Hooks(event string) ([]HookInfo, error) {
	s := e.snap.Load()
	id, ok := s.byName[event]
	if !ok {
		e.mu.Lock()
		defer e.mu.Unlock()
		return nil, e.reg.unknown(event)
	}
	ent := s.events[id]
	var out []HookInfo
	add := func(hs []*compiledHook, phase Phase) {
		for _, h := range hs {
			info := h.info()
			info.Event, info.Phase = ent.spec.Name, phase
			out = append(out, info)
		}
	}
	if ent.spec.Strategy == Void {
		add(ent.parallel, PhaseVoid)
	} else {
		add(ent.chain, PhaseChain)
		add(ent.parallel, PhaseObserve)
	}
	add(ent.background, PhaseBackground)
	return out, nil
}

// EventsWithHooks returns the canonical names of events that have hooks,
// sorted.
func (e *Engine) EventsWithHooks() []string {
	s := e.snap.Load()
	var out []string
	for _, ent := range s.events {
		if ent != nil && len(ent.all) > 0 {
			out = append(out, ent.spec.Name)
		}
	}
	sort.Strings(out)
	return out
}

// Stats are the engine's counters since New.
type Stats struct {
	// Fires counts fires of events that had hooks; a fire of an event
	// without hooks returns at once and is not counted (counting it would
	// cost the no-hook path its speed).
	Fires        uint64 `json:"fires"`
	HooksRun     uint64 `json:"hooks_run"`
	HookErrors   uint64 `json:"hook_errors"`
	HookTimeouts uint64 `json:"hook_timeouts"`
	// BackgroundQueued, BackgroundDone and BackgroundDropped count
	// background hooks. A hook a fire admits is queued, or dropped at once
	// when the queue stays full (its trace in that fire's outcome says
	// so); a queued one ends done, or dropped when Close gives up waiting.
	// Once the engine is closed, Done + Dropped counts every hook admitted.
	BackgroundQueued  uint64 `json:"background_queued"`
	BackgroundDone    uint64 `json:"background_done"`
	BackgroundDropped uint64 `json:"background_dropped"`
	// BackgroundPending is the number of background hooks queued or
	// running now (the queue's depth, the hooks on a worker included),
	// and BackgroundCapacity the queue's size (WithBackgroundQueue).
	BackgroundPending  int64 `json:"background_pending"`
	BackgroundCapacity int   `json:"background_capacity"`
	// ActiveFires is the number of fires in progress now (fires of events
	// without hooks excepted, as in Fires).
	ActiveFires int64 `json:"active_fires"`
}

// Stats returns the engine's counters.
func (e *Engine) Stats() Stats {
	return Stats{
		Fires: e.fires.Load(), HooksRun: e.hooksRun.Load(), HookErrors: e.hookErrs.Load(),
		HookTimeouts: e.timeouts.Load(), BackgroundQueued: e.bgQueued.Load(),
		BackgroundDone: e.bgDone.Load(), BackgroundDropped: e.bgDropped.Load(),
		BackgroundPending: max(e.bgPending.Load(), 0), BackgroundCapacity: e.bgSize,
		ActiveFires: e.drain.active(),
	}
}

// Closed reports whether Close was called: the engine fires no more.
func (e *Engine) Closed() bool { return e.closed.Load() }

// Close stops accepting fires, waits for fires in progress, drains the
// background queue and releases the worker pool. If ctx ends first, running
// background hooks are cancelled, what is still queued is recorded as
// dropped, and ctx's error is returned. Close is idempotent.
func (e *Engine) Close(ctx context.Context) error {
	if !e.closed.CompareAndSwap(false, true) {
		return nil
	}
	var errs []error
	select {
	case <-e.drain.close():
	case <-ctx.Done():
		errs = append(errs, fmt.Errorf("waiting for fires in progress: %w", ctx.Err()))
	}
	if err := e.workers.close(ctx); err != nil {
		errs = append(errs, err)
	}
	if s := e.audit.Swap(nil); s != nil && s.owned {
		if err := s.w.(io.Closer).Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// drain counts the fires in progress, so that Close can wait for them
// without polling: enter admits a fire unless the engine is closing,
// leave ends it, and close returns a channel closed once none is left.
// It is lock-free: a fire pays two atomic adds.
type drain struct {
	n       atomic.Int64
	closing atomic.Bool
	idle    chan struct{} // set before closing, closed by the last leave
	once    sync.Once
}

func (d *drain) enter() bool {
	d.n.Add(1)
	if d.closing.Load() {
		d.leave()
		return false
	}
	return true
}

func (d *drain) leave() {
	if d.n.Add(-1) == 0 && d.closing.Load() {
		d.once.Do(func() { close(d.idle) })
	}
}

func (d *drain) active() int64 { return d.n.Load() }

// close stops admitting fires; it must be called once.
func (d *drain) close() <-chan struct{} {
	d.idle = make(chan struct{})
	d.closing.Store(true)
	if d.n.Load() == 0 {
		d.once.Do(func() { close(d.idle) })
	}
	return d.idle
}

// auditSink writes one JSON line per fire.
type auditSink struct {
	mu    sync.Mutex
	w     io.Writer
	path  string
	owned bool
}

func (e *Engine) openAudit(path string) (*auditSink, error) {
	if cur := e.audit.Load(); cur != nil && cur.path == path {
		return cur, nil
	}
	// Never through a link or into a FIFO or device: a link placed after
	// trust (to /dev/stdout, say) would put the record before the reply;
	// nor into a file with other hard links, which the records would
	// reach under another name.
	f, err := safefile.OpenFileOwn(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	return &auditSink{w: f, path: path, owned: true}, nil
}

func (e *Engine) swapAudit(sink *auditSink) {
	if sink == e.audit.Load() {
		return
	}
	old := e.audit.Swap(sink)
	if old != nil && old.owned {
		old.mu.Lock()
		_ = old.w.(io.Closer).Close()
		old.mu.Unlock()
	}
}
