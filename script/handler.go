package script

import (
	"context"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsjobs"
)

// handler runs a Program as an engine hook.
type handler struct {
	pool  *Pool
	prog  *Program
	allow []string
}

func (h *handler) Kind() string { return "js" }

// ToolAware implements engine.ToolAware: event.tool is the canonical tool
// name (the event object adds it).
func (h *handler) ToolAware() bool { return true }

// Inline: scripts are CPU-bound and run on the firing goroutine, unless
// they may wait on a process or the network; those go to the worker pool
// so that void hooks overlap their waits.
func (h *handler) Inline() bool {
	return !slices.Contains(h.allow, "exec") && !slices.Contains(h.allow, "net") && !slices.Contains(h.allow, "all")
}

func (h *handler) SelfTimed() bool { return true }

// Program returns the program the handler runs.
func (h *handler) Program() *Program { return h.prog }

// Handle runs the script on a warm runtime. Everything the call takes,
// waiting for a runtime included, counts against the hook's deadline.
func (h *handler) Handle(ctx context.Context, call *engine.Call) (engine.Result, error) {
	t := timing(ctx, call)
	vm, waited := h.enteredVM(ctx, call), false
	if vm != nil {
		h.pool.nested.Add(1)
	} else {
		var err error
		if vm, waited, err = h.pool.acquire(ctx, t.deadline, t.since); err != nil {
			return nil, err
		}
		defer h.pool.release(vm)
	}
	fn, loaded, err := vm.function(ctx, h.prog, t.deadline)
	if err != nil {
		return nil, err
	}
	if (waited || loaded) && !t.deadline.IsZero() {
		t.left = time.Until(t.deadline)
	}
	res, err := vm.run(ctx, call, h.allow, t, fn)
	if err != nil {
		err = h.prog.explain(err)
	}
	return res, err
}

// callTime is when a call started, when it must be over (zero for no
// deadline: the hook's deadline, or the context's when that comes first)
// and the time it had left when this was worked out.
type callTime struct {
	since, deadline time.Time
	left            time.Duration
}

func timing(ctx context.Context, call *engine.Call) callTime {
	var t callTime
	switch {
	case !call.Deadline.IsZero() && call.Timeout > 0:
		// The engine sets Deadline to its start plus Timeout just before
		// it calls: the time left is Timeout, and no clock is read.
		t.deadline, t.left = call.Deadline, call.Timeout
		t.since = t.deadline.Add(-call.Timeout)
	case !call.Deadline.IsZero():
		t.deadline = call.Deadline
		t.left = time.Until(t.deadline)
		t.since = time.Now()
	case call.Timeout > 0:
		t.since = time.Now()
		t.deadline, t.left = t.since.Add(call.Timeout), call.Timeout
	default:
		t.since = time.Now()
	}
	if cd, ok := ctx.Deadline(); ok && (t.deadline.IsZero() || cd.Before(t.deadline)) {
		t.deadline, t.left = cd, time.Until(cd)
	}
	return t
}

// run calls fn as the hook of call and reads its result, all of it
// contained: whatever the script throws, however its result or its thrown
// value behaves when read, the call ends here with a result or an error,
// every promise job it queued has run as this hook, and the runtime is
// disarmed (and discarded when anything went wrong beyond a plain throw).
func (vm *VM) run(ctx context.Context, call *engine.Call, allow []string, t callTime, fn goja.Callable) (res engine.Result, err error) {
	vm.begin(ctx, call, allow, t.deadline, t.left)
	defer func() {
		if x := recover(); x != nil {
			vm.broken = true
			res, err = nil, vm.panicError(x)
		}
		vm.end()
	}()
	vm.args[0], vm.args[1] = vm.event(call), vm.ctxObj
	v, err := fn(goja.Undefined(), vm.args[:]...)
	vm.args[0] = nil
	// A call nested in a fire's entry returns with its jobs still queued
	// (goja runs them when the outermost call returns): run them now, as
	// goja runs an outermost call's, thrown or not, before the result or
	// the thrown value is read; what stops them (the deadline) is the
	// call's error, as it would be there.
	if derr := vm.drain(); derr != nil {
		err = derr
	}
	if err == nil {
		res, err = vm.safeResult(v)
	} else {
		err = vm.convertError(err)
	}
	if derr := vm.drain(); derr != nil && err == nil {
		res, err = nil, vm.convertError(derr)
	}
	if err == nil && vm.matched && vm.expired() {
		// Whatever the script answered, it answered too late, and a
		// regular expression that gave up at the deadline answered "no
		// match" (regexp_deadline.go).
		res, err = nil, &Error{Message: ErrTimeout.Error(), cause: ErrTimeout}
	}
	return res, err
}

// drain runs the promise jobs queued in the call in progress, until none
// is left, as the hook that queued them, under its deadline and memory
// limit. goja runs an outermost call's jobs when it returns, but not those
// of a call nested in a fire's entry (entry.go), nor those queued by what
// runs outside a call (reading a result or a thrown value runs getters,
// traps and toString). It never leaves a job queued: a call interrupted, or
// past its deadline, has what is left dropped, and the runtime with it;
// the error says why (an uncatchable error of a job, the interrupt's cause,
// or the timeout).
func (vm *VM) drain() error {
	if jsjobs.Pending(vm.rt) == 0 {
		return nil
	}
	var err error
	if cause := vm.stopped(); cause != nil {
		err = &Error{Message: cause.Error(), cause: cause}
	} else {
		_, err = vm.runJobs(goja.Undefined())
		if err == nil && vm.jobsLate {
			err = &Error{Message: ErrTimeout.Error(), cause: ErrTimeout}
		}
	}
	if err != nil || jsjobs.Pending(vm.rt) > 0 {
		jsjobs.Drop(vm.rt)
		vm.broken = true
	}
	return err
}

// stopped returns why the call in progress must not run more script code:
// what interrupted it, or the timeout once its deadline has passed.
func (vm *VM) stopped() error {
	vm.mu.Lock()
	cause := vm.cause
	vm.mu.Unlock()
	if cause == nil && vm.expired() {
		cause = ErrTimeout
	}
	return cause
}

// jobsGrace is how long past its deadline a call's jobs may go on before
// jobRunner drops them itself. The deadline's interrupt stops any job that
// runs script code, as it stops the call's own code (and with the same
// error); this is a backstop for a chain of jobs that ran none.
const jobsGrace = time.Second

// jobRunner is runJobs: it takes the queued jobs and runs them, and the
// jobs they queue, until none is left (as goja does when an outermost call
// returns), or, should the interrupt not have stopped them, until
// jobsGrace past the deadline; then it drops the rest (jobsLate). It runs
// as a native function, so that goja turns what a job throws past its own
// handling (the interrupt at the deadline) into runJobs' error.
func (vm *VM) jobRunner(goja.FunctionCall) goja.Value {
	for {
		jobs := jsjobs.Take(vm.rt)
		if len(jobs) == 0 {
			return goja.Undefined()
		}
		for _, job := range jobs {
			if !vm.deadline.IsZero() && time.Since(vm.deadline) > jobsGrace {
				jsjobs.Drop(vm.rt)
				vm.jobsLate = true
				return goja.Undefined()
			}
			job()
		}
	}
}

var stackFrameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\n\tat (?:[^\n]*? \()?([^\n()]+):(\d+):(\d+)\(`) })

var promiseType = reflect.TypeOf((*goja.Promise)(nil))

// safeResult reads the result inside the runtime's exception handling:
// reading runs script code (getters, traps, toString) that can throw, like
// any other script code. An uncatchable error (the deadline, the stack
// limit) goes on to run's recovery.
func (vm *VM) safeResult(v goja.Value) (res engine.Result, err error) {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil, nil
	}
	if v == vm.marker && vm.pending && vm.pendingPrimitive() {
		return vm.pendingResult() // nothing to read can run script code
	}
	if pr, ok := vm.constant(v); ok {
		if vm.cur != nil {
			vm.cur.Constant(pr) // the engine need not read it again
		}
		return pr.Result(), nil
	}
	if ex := vm.rt.Try(func() { res, err = vm.result(v) }); ex != nil {
		return nil, vm.convertError(ex)
	}
	return res, err
}

// result reads what a handler returned: undefined or null is no opinion,
// a promise or a thenable (an object whose then is callable) is what it
// settles to, as await would make it, and an object is read by its keys.
func (vm *VM) result(v goja.Value) (engine.Result, error) {
	return vm.readResult(v, false)
}

// readResult is result; settled says v is what a promise or thenable
// settled to, which is read as it is (await does not look at it again).
func (vm *VM) readResult(v goja.Value, settled bool) (engine.Result, error) {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil, nil
	}
	obj, ok := v.(*goja.Object)
	if !ok {
		return nil, notObject(v)
	}
	if obj == vm.marker && vm.pending {
		return vm.pendingResult()
	}
	if pr, ok := vm.constant(obj); ok {
		return pr.Result(), nil
	}
	if !settled {
		if obj.ExportType() == promiseType {
			p, _ := obj.Export().(*goja.Promise)
			return vm.settledResult(p)
		}
		if _, ok := goja.AssertFunction(obj.Get("then")); ok {
			return vm.thenableResult(obj)
		}
	}
	return vm.objectResult(obj)
}

// settledResult reads what a promise settled to.
func (vm *VM) settledResult(p *goja.Promise) (engine.Result, error) {
	switch p.State() {
	case goja.PromiseStateFulfilled:
		return vm.readResult(p.Result(), true)
	case goja.PromiseStateRejected:
		return nil, vm.convertError(vm.rejection(p.Result()))
	default:
		return nil, ErrUnsettled
	}
}

// thenableResult resolves a thenable the handler returned as await does
// (a promise resolved with it calls its then, in a job, with the
// promise's resolving functions), runs the jobs that queues as the hook,
// under its deadline, and reads what it settled to. A thenable that has
// not settled when no job is left never will: ErrUnsettled, as for an
// async handler's promise, so the hook's on_error applies.
func (vm *VM) thenableResult(obj *goja.Object) (engine.Result, error) {
	p, resolve, _ := vm.rt.NewPromise()
	if err := resolve(obj); err != nil {
		return nil, err
	}
	if err := vm.drain(); err != nil {
		return nil, err
	}
	return vm.settledResult(p)
}

// objectResult reads a result object: its own keys, read directly (no
// JSON round trip, no lookups of absent keys along the prototype chain),
// and, when it inherits from anything but Object.prototype (frozen, with
// none of them), the result fields of the engine's vocabulary it does not
// have as its own, read as `result.decision` reads them: along the
// prototype chain, getters and all. Keys whose value is undefined are left
// out, as JSON.stringify would.
func (vm *VM) objectResult(obj *goja.Object) (engine.Result, error) {
	keys := obj.GetOwnPropertyNames()
	x := newExporter()
	x.strs = &vm.strs
	if len(keys) > x.values {
		return nil, x.fail("values", MaxExportValues)
	}
	var res engine.Result
	add := func(k string, v goja.Value) error {
		x.root = k
		fv, keep, err := x.value(v, 1)
		if err != nil || !keep {
			return err
		}
		if res == nil {
			res = make(engine.Result, len(keys))
		}
		res[k] = fv
		return nil
	}
	for _, k := range keys {
		if err := add(k, obj.Get(k)); err != nil {
			return nil, err
		}
	}
	if proto := obj.Prototype(); proto != nil && proto != vm.objectProto {
		for _, k := range resultFields() {
			if slices.Contains(keys, k) {
				continue
			}
			if err := add(k, obj.Get(k)); err != nil {
				return nil, err
			}
		}
	}
	return res, nil
}

// resultFields is every result field of the built-in events' vocabulary
// (decision, reason, the universal fields, each event's own, and the
// camelCase spellings accepted): what the engine reads of a result.
var resultFields = sync.OnceValue(func() []string {
	var out []string
	for _, ev := range engine.BuiltinEvents() {
		for _, f := range ev.ResultFields() {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	slices.Sort(out)
	return out
})

// rejection turns a rejected promise's reason into an error with the
// reason's stack when it is an Error.
func (vm *VM) rejection(reason goja.Value) error {
	if o, ok := reason.(*goja.Object); ok {
		if stack := o.Get("stack"); stack != nil && !goja.IsUndefined(stack) {
			e := &Error{Message: vm.describe(reason), Stack: vm.describe(stack)}
			// The position is the stack's first frame:
			// "\tat name (file:line:col(pc))" or "\tat file:line:col(pc)".
			if m := stackFrameRE().FindStringSubmatch(e.Stack); m != nil {
				line, _ := strconv.Atoi(m[2])
				col, _ := strconv.Atoi(m[3])
				e.File, e.Line, e.Column = vm.pool.code.original(m[1], line, col)
			}
			e.Stack = vm.pool.code.fixStack(e.Stack)
			return e
		}
	}
	return &Error{Message: "promise rejected: " + vm.describe(reason)}
}
