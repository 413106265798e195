package script

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/console"
	"github.com/dop251/goja_nodejs/require"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsjobs"
	"github.com/hookctl/hookctl/internal/jsregexp"
	"github.com/hookctl/hookctl/internal/jsrewrite"
	"github.com/hookctl/hookctl/internal/safefile"
)

// Defaults.
const (
	// DefaultStackLimit is the JavaScript call-stack depth past which a
	// script throws RangeError.
	DefaultStackLimit = 1000
	// DefaultLoadTimeout bounds a module's top-level code when it is first
	// required.
	DefaultLoadTimeout = 5 * time.Second
	// MaxSourceSize bounds a script file.
	MaxSourceSize = 4 << 20
)

// Module is a native module: it fills module.exports for one runtime. It is
// called once per runtime, the first time a script requires it.
type Module func(vm *VM, module *goja.Object)

// Option configures a Pool.
type Option func(*Pool)

// WithSize bounds how many runtimes the pool keeps, hence how many scripts
// run at once (default 2 × GOMAXPROCS, at least 4).
func WithSize(n int) Option {
	return func(p *Pool) {
		if n > 0 {
			p.size = n
		}
	}
}

// WithRoots adds directories scripts may read through the standard
// library (the configuration's directory is always one).
func WithRoots(dirs ...string) Option {
	return func(p *Pool) {
		for _, d := range dirs {
			if d == "" {
				continue
			}
			if abs, err := filepath.Abs(d); err == nil {
				p.roots = append(p.roots, abs)
			}
		}
	}
}

// WithModule makes a native module available to require(name).
func WithModule(name string, m Module) Option {
	return func(p *Pool) { p.modules[name] = m }
}

// WithLogger sets where ctx.log and console write (default: discard).
func WithLogger(l *slog.Logger) Option {
	return func(p *Pool) {
		if l != nil {
			p.log = l
		}
	}
}

// WithStackLimit sets the call-stack limit (default DefaultStackLimit).
func WithStackLimit(n int) Option {
	return func(p *Pool) {
		if n > 0 {
			p.stackLimit = n
		}
	}
}

// WithFileCheck makes every module file a script loads (its own file
// included) pass check(realPath, content) first: an error refuses the
// load. hookctl uses it to run only the files a trust record pinned.
func WithFileCheck(check func(path string, content []byte) error) Option {
	return func(p *Pool) { p.fileCheck = check }
}

// WithNestedEntry turns on or off (default on) running the script hooks of
// one fire nested in one runtime entered for the fire (entry.go). Off, each
// hook checks a runtime out for itself: slower, and otherwise the same,
// which the differential tests hold it to.
func WithNestedEntry(on bool) Option {
	return func(p *Pool) { p.noEntry = !on }
}

// WithValue attaches a value native modules can read with VM.Value (a kv
// store, an HTTP client, ...).
func WithValue(key, value any) Option {
	return func(p *Pool) { p.values[key] = value }
}

// Pool holds the compiled programs and warm runtimes of one configuration.
// It is safe for concurrent use.
type Pool struct {
	Sandbox
	size       int
	nested     atomic.Uint64 // calls run in a fire's entry (entry.go)
	noEntry    bool          // WithNestedEntry(false)
	stackLimit int
	log        *slog.Logger
	modules    map[string]Module
	values     map[any]any
	fileCheck  func(path string, content []byte) error
	// off is the fast paths turned off (fastpath.go).
	off fastPath

	registry *require.Registry
	// transforms keeps TypeScript and ES module transforms (transform.go).
	transforms *TransformCache

	// code holds what was compiled: programs, regex plans, result keys
	// and position maps, shared by every runtime.
	code programs

	mu sync.Mutex // guards the runtimes below

	// The memory watchdog (memory.go).
	memLimit uint64
	running  atomic.Int64 // scripts in a call
	watching atomic.Bool
	watchers sync.WaitGroup
	closing  chan struct{} // closed by Close: the watchdog stops at once
	vms      map[*goja.Runtime]*VM
	// created and createTime count the runtimes made (PoolStats).
	created    int
	createTime time.Duration
	discarded  int // broken runtimes dropped (PoolStats)
	// slots bounds the runtimes in use; idle is a stack of warm ones, so
	// the runtime used last (its caches hot) is used next.
	slots   chan struct{}
	idle    []*VM
	warming chan struct{} // closed when the runtime Prewarm makes is idle
	closed  bool
}

// NewPool returns a pool for the configuration in dir: relative requires
// resolve inside dir and nowhere else.
func NewPool(dir string, opts ...Option) (*Pool, error) {
	// Regular expressions cannot be held to the deadline without it
	// (regexp_deadline.go): refuse to run scripts.
	if err := jsregexp.Check(); err != nil {
		return nil, err
	}
	// Nor promise jobs to the hook that queued them (handler.go, drain).
	if err := jsjobs.Check(); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	p := &Pool{
		Sandbox:    Sandbox{dir: abs, roots: []string{abs}},
		size:       max(4, 2*runtime.GOMAXPROCS(0)),
		stackLimit: DefaultStackLimit,
		memLimit:   DefaultMemoryLimit,
		closing:    make(chan struct{}),
		log:        slog.New(slog.DiscardHandler),
		modules:    map[string]Module{},
		values:     map[any]any{},
		vms:        map[*goja.Runtime]*VM{},
	}
	for _, o := range opts {
		o(p)
	}
	if p.transforms == nil {
		p.transforms = NewTransformCache(0, 0)
	}
	p.registry = require.NewRegistry(
		require.WithLoader(p.loadSource),
		require.WithPathResolver(p.resolvePath),
	)
	for name, m := range p.modules {
		p.registry.RegisterNativeModule(name, p.nativeLoader(m))
	}
	p.registry.RegisterNativeModule("console", func(rt *goja.Runtime, module *goja.Object) {
		p.vmOf(rt).consoleModule(module)
	})
	p.slots = make(chan struct{}, p.size)
	return p, nil
}

// Close drops the warm runtimes. Calls in progress finish normally.
func (p *Pool) Close() {
	p.mu.Lock()
	if w := p.warming; w != nil {
		p.mu.Unlock()
		<-w
		p.mu.Lock()
	}
	if !p.closed {
		close(p.closing)
	}
	p.closed = true
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	p.watchers.Wait()
	for _, vm := range idle {
		vm.dispose()
	}
}

func (p *Pool) nativeLoader(m Module) require.ModuleLoader {
	return func(rt *goja.Runtime, module *goja.Object) {
		vm := p.vmOf(rt)
		m(vm, module)
		vm.deepFreeze(module.Get("exports")) // shared by every hook of the runtime
	}
}

func (p *Pool) vmOf(rt *goja.Runtime) *VM {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.vms[rt]
}

// acquire checks a runtime out for a call that started at since,
// creating one in a free slot. With every runtime in use it waits, until
// ctx ends or the deadline passes (a zero deadline is none); running out
// of time there is a timeout of the hook. waited says it waited.
func (p *Pool) acquire(ctx context.Context, deadline, since time.Time) (vm *VM, waited bool, err error) {
	select {
	case p.slots <- struct{}{}:
	default:
		waited = true
		var expire <-chan time.Time
		if !deadline.IsZero() {
			t := time.NewTimer(time.Until(deadline))
			defer t.Stop()
			expire = t.C
		}
		select {
		case p.slots <- struct{}{}:
		case <-ctx.Done():
			return nil, true, fmt.Errorf("waiting for a script runtime: %w", ctx.Err())
		case <-expire:
			return nil, true, &Error{Message: fmt.Sprintf("all %d script runtimes stayed busy until the hook's deadline", p.size), cause: ErrTimeout}
		}
	}
	return p.checkout(since), waited, nil
}

// tryAcquire checks out a runtime if a slot is free now, and returns nil
// otherwise.
func (p *Pool) tryAcquire(since time.Time) *VM {
	select {
	case p.slots <- struct{}{}:
		return p.checkout(since)
	default:
		return nil
	}
}

// checkout takes an idle runtime, or makes one, for the slot taken.
func (p *Pool) checkout(since time.Time) (vm *VM) {
	p.mu.Lock()
	if n := len(p.idle); n == 0 && p.warming != nil {
		// A runtime is being made ready (Prewarm): waiting for it is
		// quicker than making another.
		w := p.warming
		p.mu.Unlock()
		<-w
		p.mu.Lock()
	}
	if n := len(p.idle); n > 0 {
		vm = p.idle[n-1]
		p.idle = p.idle[:n-1]
		vm.since = since
		p.mu.Unlock()
		return vm
	}
	p.mu.Unlock()
	vm = p.newVM()
	p.mu.Lock()
	vm.since = since
	p.mu.Unlock()
	return vm
}

// Prewarm starts making a runtime ready in the background (a fresh one is
// locked down first, a millisecond or two), so that the first call finds
// one waiting. A command that loads a configuration and fires once calls
// it before compiling the hooks.
func (p *Pool) Prewarm() {
	p.mu.Lock()
	if p.closed || p.warming != nil || len(p.idle) > 0 {
		p.mu.Unlock()
		return
	}
	done := make(chan struct{})
	p.warming = done
	p.mu.Unlock()
	go func() {
		vm := p.newVM()
		p.mu.Lock()
		keep := !p.closed
		if keep {
			p.idle = append(p.idle, vm)
		}
		p.warming = nil
		p.mu.Unlock()
		if !keep {
			vm.dispose()
		}
		close(done)
	}()
}

// Runtimes reports how many runtimes the pool holds idle or is making
// ready.
func (p *Pool) Runtimes() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.idle)
	if p.warming != nil {
		n++
	}
	return n
}

// release returns a runtime; a broken one is dropped and its slot freed.
func (p *Pool) release(vm *VM) {
	p.mu.Lock()
	vm.since = time.Time{}
	keep := !vm.broken && !p.closed
	if keep {
		p.idle = append(p.idle, vm)
	} else if vm.broken {
		p.discarded++
	}
	p.mu.Unlock()
	if !keep {
		vm.dispose()
	}
	<-p.slots
}

func (p *Pool) newVM() *VM {
	start := time.Now()
	defer func() {
		took := time.Since(start)
		p.mu.Lock()
		p.created++
		p.createTime += took
		p.mu.Unlock()
	}()
	rt := goja.New()
	rt.SetFieldNameMapper(goja.TagFieldNameMapper("json", true))
	rt.SetMaxCallStackSize(p.stackLimit)
	vm := &VM{pool: p, rt: rt}
	p.mu.Lock()
	p.vms[rt] = vm
	p.mu.Unlock()
	vm.timer = time.AfterFunc(time.Hour, vm.onTimer)
	vm.timer.Stop()
	vm.runJobs, _ = goja.AssertFunction(rt.ToValue(vm.jobRunner))
	vm.arrayToString, _ = rt.Get("Array").ToObject(rt).Get("prototype").ToObject(rt).Get("toString").(*goja.Object)
	vm.req = p.registry.Enable(rt)
	console.Enable(rt)
	if err := vm.installRegexpDeadlines(); err != nil {
		p.log.Error("hookctl: regular expressions not bounded by the deadline", "error", err)
	}
	vm.installResultHelper()
	vm.installConstHelper()
	vm.setup()
	if err := vm.lockdown(); err != nil {
		p.log.Error("hookctl: script runtime not locked down", "error", err)
	}
	vm.deepFreeze(vm.logObj)
	vm.deepFreeze(vm.marker) // what rewritten returns evaluate to
	vm.deepFreeze(vm.resultFn)
	vm.deepFreeze(vm.constFn)
	vm.deepFreeze(vm.testFn)
	return vm
}

// loadSource reads a module file, refusing anything outside the
// configuration directory (symbolic links included). A path that does not
// exist may be a TypeScript file's (tsAlternative). TypeScript and ES
// module files are transformed into CommonJS (transform.go).
func (p *Pool) loadSource(path string) ([]byte, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, require.ModuleFileDoesNotExistError
	}
	real, src, err := p.readModule(abs)
	if errors.Is(err, require.ModuleFileDoesNotExistError) {
		alt := tsAlternative(abs, func(f string) bool {
			fi, err := os.Stat(f)
			return err == nil && !fi.IsDir()
		})
		if alt == "" {
			return nil, err
		}
		real, src, err = p.readModule(alt)
	}
	if err != nil {
		return nil, err
	}
	code, err := p.moduleCode(path, real, src)
	if err != nil {
		return nil, err
	}
	return []byte(code), nil
}

// moduleCode returns what require() runs of the module file real,
// loaded as path: a #! line made a comment, TypeScript and ES modules
// transformed (transform.go). Files other than scripts are as read.
func (p *Pool) moduleCode(path, real string, src []byte) (string, error) {
	if len(src) > 1 && src[0] == '#' && src[1] == '!' {
		// A #! line (an executable script's) is a comment to Node.js;
		// goja's parser does not know it. Same length: positions hold.
		src = append([]byte("//"), src[2:]...)
	}
	if transform, ts := fileLanguage(real, src); transform {
		code, err := p.transformModule(real, src, ts)
		if err != nil {
			return "", err
		}
		return code, nil
	}
	if !strings.HasSuffix(real, ".js") {
		return string(src), nil
	}
	// The header require() puts in front of the first line moves it.
	p.code.addMap(jsrewrite.Map{File: path, Line: 1, Shift: len(moduleWrapper)})
	return string(src), nil
}

// readModule reads the module file at abs: its real path and content,
// checked (WithFileCheck). A file that does not exist, or is outside the
// configuration directory, is require.ModuleFileDoesNotExistError.
func (p *Pool) readModule(abs string) (string, []byte, error) {
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", nil, require.ModuleFileDoesNotExistError
	}
	if !p.module(real) {
		return "", nil, require.ModuleFileDoesNotExistError
	}
	fi, err := os.Stat(real)
	if err != nil || fi.IsDir() {
		return "", nil, require.ModuleFileDoesNotExistError
	}
	if fi.Size() > MaxSourceSize {
		return "", nil, fmt.Errorf("%s: script larger than %d bytes", abs, MaxSourceSize)
	}
	src, err := safefile.ReadRegular(real)
	if err != nil {
		return "", nil, err
	}
	if p.fileCheck != nil {
		// The bytes checked are the bytes run.
		if err := p.fileCheck(real, src); err != nil {
			return "", nil, err
		}
	}
	return real, src, nil
}

// Handler returns the engine handler running prog with the given
// capabilities (e.g. "exec", "net", "write").
func (p *Pool) Handler(prog *Program, allow ...string) engine.Handler {
	return &handler{pool: p, prog: prog, allow: append([]string(nil), allow...)}
}

// Files returns the script files the pool compiled, for watchers.
func (p *Pool) Files() []string { return p.code.files() }

// moduleWrapper is the function header require() puts in front of a
// module's code, on its first line.
const moduleWrapper = jsrewrite.ModuleWrapper
