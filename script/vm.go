package script

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"regexp"
	"slices"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/require"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsjobs"
)

// VM is one warm goja runtime of a Pool. Native modules receive it to reach
// the hook call in progress. A VM runs one call at a time; its methods are
// for use on the goroutine running that call.
type VM struct {
	pool *Pool
	rt   *goja.Runtime
	req  *require.RequireModule
	fns  []goja.Callable // by Program.id, loaded on first use

	ctxObj   *goja.Object
	stateObj *goja.Object
	logObj   *goja.Object

	// strs shares the boxed strings of results (stringCache).
	strs stringCache
	// entry is the runtime's entry for the fire that entered it, if any.
	entry entry

	// The call in progress.
	// The payload wrapper of the last call, reused while the next hooks
	// of a fire get the same payload (it is read-only, so sharing is safe).
	lastFire    uint64
	lastPayload map[string]any
	lastEvent   goja.Value
	args        [2]goja.Value

	cur      *engine.Call
	curCtx   context.Context
	deadline time.Time // when the call or load in progress must end
	allow    []string
	callCtx  context.Context // derived lazily for native modules
	cancel   context.CancelFunc
	hookVal  goja.Value
	eventVal goja.Value

	// Interrupt discipline: mu orders the timer and context callbacks
	// against the end of a call, so an interrupt never outlives its call.
	mu          sync.Mutex
	armed       bool
	interrupted bool
	cause       error // what interrupted the call, when interrupted
	// seq numbers the calls, and timerAt is when the call in progress
	// times out: a context callback or a timer firing of an earlier call
	// that runs late, after the next call began, must not interrupt it.
	seq     uint64
	timerAt time.Time
	// The timer is armed lazily: it stays set when a call ends, and a
	// call whose deadline is not earlier than when it will go off leaves
	// it be (the calls of one fire all have about the same deadline);
	// going off early, it sets itself again for the call in progress.
	// timerSet is when it will go off (zero: not set), under mu.
	timer    *time.Timer
	timerSet time.Time
	// The context watcher: one per runtime, kept from call to call while
	// the calls' contexts end together (the hooks of one fire), so that
	// a fire of ten hooks registers one, not ten. watchDone is the Done
	// channel it waits on; armedCtx is the context of the call in
	// progress, under mu (nil while no call is armed). watchEach
	// registers one per call, as before (the plain path the tests compare
	// with).
	stopWatch func() bool
	watchDone <-chan struct{}
	armedCtx  context.Context
	watchEach bool

	// Rewritten returns (results.go): the helpers rewritten handlers'
	// factories get, the marker object and the values of the last return.
	resultFn, constFn, testFn goja.Value
	marker                    *goja.Object
	pending                   bool
	pendKeys                  []int
	pendVals                  []goja.Value
	// Constant returns (results.go): this runtime's token per constant
	// result index, and the result per token.
	constTok map[int]*goja.Object
	constRes map[*goja.Object]*engine.PreparedResult

	// runJobs is a native function that runs the promise jobs queued in
	// the call in progress (see drain); jobsLate says it stopped at the
	// deadline with jobs left, which it dropped.
	runJobs  goja.Callable
	jobsLate bool
	// matched says a regular expression was matched in the call.
	matched bool
	// since is when the call the runtime is checked out for started
	// (zero while idle), under pool.mu.
	since time.Time

	// rx holds this runtime's regular expression backtrackers
	// (regexp_deadline.go).
	rx regexpGuard
	// plans are the test prefilters of the Go programs of the patterns
	// tested, and answers false and true (prefilter.go).
	plans   map[*regexp.Regexp]*rePlan
	answers [2]goja.Value
	// strs16 remembers what the big strings the call in progress tested
	// are made of (prefilter.go); emptied when the call ends.
	strs16 kindMemo
	// regexpTest is RegExp.prototype.test, as wrapped.
	regexpTest goja.Callable

	arrayToString *goja.Object // Array.prototype.toString (console.go)
	objectProto   *goja.Object // Object.prototype (handler.go)

	freeze goja.Callable         // Object.freeze (lockdown.go)
	frozen map[*goja.Object]bool // what lockdown and deepFreeze froze

	// The fire this runtime is entered for (entry.go): the frame's
	// function and runner, the fire's work and its context.
	trampoline goja.Callable
	runner     goja.Value
	enterRun   func(context.Context)
	entered    context.Context
	enterDone  bool

	broken bool
}

func (vm *VM) setup() {
	rt := vm.rt
	vm.objectProto, _ = rt.Get("Object").ToObject(rt).Get("prototype").(*goja.Object)
	vm.ctxObj = rt.NewDynamicObject(&ctxObject{vm: vm})
	vm.stateObj = rt.NewDynamicObject(&stateObject{vm: vm})
	log := rt.NewObject()
	for _, lvl := range []struct {
		name  string
		level slog.Level
	}{{"debug", slog.LevelDebug}, {"info", slog.LevelInfo}, {"warn", slog.LevelWarn}, {"error", slog.LevelError}} {
		level := lvl.level
		_ = log.Set(lvl.name, func(c goja.FunctionCall) goja.Value {
			vm.logAt(level, c.Arguments)
			return goja.Undefined()
		})
	}
	vm.logObj = log
}

func (vm *VM) dispose() {
	vm.unwatch()
	vm.mu.Lock()
	vm.timer.Stop()
	vm.timerSet = time.Time{}
	vm.mu.Unlock()
	vm.pool.mu.Lock()
	delete(vm.pool.vms, vm.rt)
	vm.pool.mu.Unlock()
}

// Runtime returns the goja runtime.
func (vm *VM) Runtime() *goja.Runtime { return vm.rt }

// Call returns the hook call in progress, or nil while a module's top-level
// code runs.
func (vm *VM) Call() *engine.Call { return vm.cur }

// Dir returns the configuration directory.
func (vm *VM) Dir() string { return vm.pool.dir }

// Within reports whether path is inside one of the pool's roots.
func (vm *VM) Within(path string) bool { return vm.pool.Within(path) }

// Roots returns the directories scripts may read.
func (vm *VM) Roots() []string { return vm.pool.Roots() }

// Logger returns the pool's logger.
func (vm *VM) Logger() *slog.Logger { return vm.pool.log }

// Value returns a value attached with WithValue.
func (vm *VM) Value(key any) any { return vm.pool.values[key] }

// Allowed reports whether the hook in progress was granted a capability
// ("exec", "net", "write", ...).
func (vm *VM) Allowed(capability string) bool {
	return slices.Contains(vm.allow, capability) || slices.Contains(vm.allow, "all")
}

// Require throws a JavaScript error unless the hook in progress was
// granted capability.
func (vm *VM) Require(capability, what string) {
	if !vm.Allowed(capability) {
		hook := "this hook"
		if vm.cur != nil {
			hook = fmt.Sprintf("hook %q", vm.cur.Hook)
		}
		panic(vm.rt.NewGoError(fmt.Errorf("%s needs the %q capability: add allow = [%q] to %s", what, capability, capability, hook)))
	}
}

// Context returns a context that ends at the hook's deadline or when the
// fire is cancelled, for native functions that wait (exec, http).
func (vm *VM) Context() context.Context {
	if vm.callCtx != nil {
		return vm.callCtx
	}
	base := vm.curCtx
	if base == nil {
		base = context.Background()
	}
	if vm.cur != nil && !vm.cur.Deadline.IsZero() {
		vm.callCtx, vm.cancel = context.WithDeadline(base, vm.cur.Deadline)
	} else {
		vm.callCtx, vm.cancel = context.WithTimeout(base, DefaultLoadTimeout)
	}
	return vm.callCtx
}

// Throw raises err as a JavaScript exception.
func (vm *VM) Throw(err error) {
	panic(vm.rt.NewGoError(err))
}

// begin sets up a call: the current call, the deadline timer (left is
// the time until the deadline; a zero deadline is none) and, for a
// cancellable context, a watcher.
func (vm *VM) begin(ctx context.Context, call *engine.Call, allow []string, deadline time.Time, left time.Duration) {
	vm.cur, vm.curCtx, vm.allow, vm.deadline = call, ctx, allow, deadline
	vm.hookVal, vm.eventVal = nil, nil
	vm.matched, vm.jobsLate = false, false
	done := ctx.Done()
	vm.mu.Lock()
	vm.armed = true
	vm.seq++
	seq := vm.seq
	vm.armedCtx = ctx
	vm.timerAt = deadline
	if !deadline.IsZero() && (vm.timerSet.IsZero() || deadline.Before(vm.timerSet)) {
		vm.timerSet = deadline
		vm.timer.Reset(max(left, 0))
	}
	vm.mu.Unlock()
	vm.pool.scriptStarted()
	if done == nil {
		return
	}
	if vm.watchEach {
		vm.stopWatch = context.AfterFunc(ctx, func() { vm.interruptCall(seq, ctx.Err()) })
		return
	}
	if vm.watchDone != done {
		if vm.stopWatch != nil {
			vm.stopWatch()
		}
		vm.watchDone = done
		vm.stopWatch = context.AfterFunc(ctx, func() { vm.interruptDone(done) })
	}
	// A watcher kept from an earlier call runs once: if the context ended
	// between two calls, while none was armed, it did nothing, and this
	// call is interrupted here, before it runs a line.
	select {
	case <-done:
		vm.interruptCall(seq, ctx.Err())
	default:
	}
}

// interruptDone interrupts the call in progress if its context's Done
// channel is done (the watcher's).
func (vm *VM) interruptDone(done <-chan struct{}) {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	if vm.armed && vm.armedCtx.Done() == done {
		vm.interrupted, vm.cause = true, vm.armedCtx.Err()
		vm.rt.Interrupt(vm.cause)
	}
}

// unwatch stops the context watcher.
func (vm *VM) unwatch() {
	if vm.stopWatch != nil {
		vm.stopWatch()
		vm.stopWatch, vm.watchDone = nil, nil
	}
}

// end disarms the call's interrupts and clears any that fired, so the
// next call starts clean.
func (vm *VM) end() {
	if vm.watchEach {
		vm.unwatch()
	}
	vm.pool.scriptEnded()
	vm.mu.Lock()
	vm.armed = false
	vm.armedCtx = nil
	interrupted := vm.interrupted
	vm.interrupted, vm.cause = false, nil
	vm.mu.Unlock()
	vm.rt.ClearInterrupt()
	if interrupted {
		// A script stopped mid-way may have left module state half
		// updated: replace the runtime.
		vm.broken = true
	}
	if jsjobs.Pending(vm.rt) > 0 {
		// A job the call queued and did not run (drain stopped, or the
		// call ended by a panic) must never run after it: outside its
		// deadline, or as the next hook. Drop it, and the runtime that
		// may hold more of the same code's state.
		jsjobs.Drop(vm.rt)
		vm.broken = true
	}
	if vm.cancel != nil {
		vm.cancel()
		vm.cancel, vm.callCtx = nil, nil
	}
	vm.cur, vm.curCtx, vm.allow, vm.deadline = nil, nil, nil, time.Time{}
	vm.hookVal, vm.eventVal = nil, nil
	vm.strs16.reset()
	vm.matched, vm.jobsLate = false, false
	vm.clearPending()
}

// expired reports whether the call in progress is past its deadline.
func (vm *VM) expired() bool {
	return !vm.deadline.IsZero() && !time.Now().Before(vm.deadline)
}

// onTimer interrupts the call in progress if its deadline has come. A
// firing meant for an earlier call finds it has not, and sets the timer
// again for the call in progress.
func (vm *VM) onTimer() {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	now := time.Now()
	if vm.timerSet.After(now) {
		// A late firing of a setting begin has since replaced: setting it
		// again to the same time moves nothing. (Were it ever a firing that
		// came early, it is not lost either.)
		vm.timer.Reset(vm.timerSet.Sub(now))
		return
	}
	vm.timerSet = time.Time{}
	if !vm.armed || vm.timerAt.IsZero() {
		return
	}
	if !now.Before(vm.timerAt) {
		vm.interrupted, vm.cause = true, ErrTimeout
		vm.rt.Interrupt(ErrTimeout)
		return
	}
	vm.timerSet = vm.timerAt
	vm.timer.Reset(vm.timerAt.Sub(now))
}

// interruptCall interrupts call seq if it is still in progress.
func (vm *VM) interruptCall(seq uint64, cause error) {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	if vm.armed && vm.seq == seq {
		vm.interrupted, vm.cause = true, cause
		vm.rt.Interrupt(cause)
	}
}

// event returns the read-only event object of a call's payload. Hooks of
// one fire that see the same payload share it (with its caches); a new
// fire always gets a new one, as the caller may have changed the map.
func (vm *VM) event(call *engine.Call) goja.Value {
	payload := call.Payload
	if vm.lastEvent != nil && call.Fire != 0 && vm.lastFire == call.Fire && sameMap(vm.lastPayload, payload) {
		return vm.lastEvent
	}
	vm.lastFire, vm.lastPayload = call.Fire, payload
	ro := &roMap{rt: vm.rt, m: payload}
	if _, ok := payload[engine.ToolField]; !ok {
		if raw, ok := payload["tool_name"].(string); ok {
			ro.tool = engine.CanonicalTool(raw)
		} else if raw, ok := payload["toolName"].(string); ok {
			ro.tool = engine.CanonicalTool(raw)
		}
	}
	vm.lastEvent = vm.rt.NewDynamicObject(ro)
	return vm.lastEvent
}

// sameMap reports whether a and b are the same map (not merely equal).
func sameMap(a, b map[string]any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

func (vm *VM) interrupt(cause error) {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	if vm.armed {
		vm.interrupted, vm.cause = true, cause
		vm.rt.Interrupt(cause)
	}
}

// function returns prog's handler function in this runtime, loading it on
// first use. The load runs with no call in progress, contained like a
// call, until DefaultLoadTimeout or the hook's deadline, whichever comes
// first.
func (vm *VM) function(ctx context.Context, prog *Program, deadline time.Time) (fn goja.Callable, loaded bool, err error) {
	if prog.id < len(vm.fns) && vm.fns[prog.id] != nil {
		return vm.fns[prog.id], false, nil
	}
	load := time.Now().Add(DefaultLoadTimeout)
	if !deadline.IsZero() && deadline.Before(load) {
		load = deadline
	}
	vm.begin(ctx, nil, nil, load, time.Until(load))
	defer func() {
		if x := recover(); x != nil {
			vm.broken = true
			fn, err = nil, vm.panicError(x)
		}
		vm.end()
	}()
	v, err := prog.load(vm)
	if derr := vm.drain(); derr != nil {
		err = vm.convertError(derr) // what stopped the jobs, as goja would say
	}
	if err != nil {
		return nil, true, err
	}
	fn, ok := goja.AssertFunction(v)
	if !ok {
		return nil, true, prog.noHandler(v)
	}
	for len(vm.fns) <= prog.id {
		vm.fns = append(vm.fns, nil)
	}
	vm.fns[prog.id] = fn
	return fn, true, nil
}

func typeOf(v goja.Value) string {
	switch {
	case v == nil || goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	}
	if o, ok := v.(*goja.Object); ok {
		if _, isFn := goja.AssertFunction(o); isFn {
			return "function"
		}
		return "object"
	}
	return v.ExportType().String()
}

func (vm *VM) logAt(level slog.Level, args []goja.Value) {
	log := vm.pool.log
	if !log.Enabled(context.Background(), level) {
		return
	}
	msg := ""
	var attrs []any
	if vm.cur != nil {
		attrs = append(attrs, "hook", vm.cur.Hook, "event", vm.cur.Event)
	}
	for i, a := range args {
		if i == 0 {
			msg = vm.text(a)
			continue
		}
		x := newExporter()
		if o, ok := a.(*goja.Object); ok && i == 1 {
			keys := o.Keys()
			for _, k := range keys {
				x.root = k
				v, _, err := x.value(o.Get(k), 1)
				if err != nil {
					panic(vm.rangeError(err))
				}
				attrs = append(attrs, k, v)
			}
			continue
		}
		v, _, err := x.value(a, 0)
		if err != nil {
			panic(vm.rangeError(err))
		}
		attrs = append(attrs, fmt.Sprintf("arg%d", i), v)
	}
	log.Log(context.Background(), level, msg, attrs...)
}

var errNotObject = errors.New("a handler must return an object or undefined")
