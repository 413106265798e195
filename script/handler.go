package script

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/engine"
)

// handler runs a Program as an engine hook.
type handler struct {
	pool  *Pool
	prog  *Program
	allow []string
}

func (h *handler) Kind() string { return "js" }

// Inline: scripts are CPU-bound and run on the firing goroutine, unless
// they may wait on a process or the network; those go to the worker pool
// so that void hooks overlap their waits.
func (h *handler) Inline() bool {
	return !slices.Contains(h.allow, "exec") && !slices.Contains(h.allow, "net") && !slices.Contains(h.allow, "all")
}

func (h *handler) SelfTimed() bool { return true }

// Program returns the program the handler runs.
func (h *handler) Program() *Program { return h.prog }

// Handle runs the script on a warm runtime.
func (h *handler) Handle(ctx context.Context, call *engine.Call) (engine.Result, error) {
	vm, err := h.pool.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer h.pool.release(vm)
	fn, err := vm.function(h.prog)
	if err != nil {
		return nil, err
	}
	vm.begin(ctx, call, h.allow, call.Timeout)
	vm.args[0], vm.args[1] = vm.event(call), vm.ctxObj
	v, err := fn(goja.Undefined(), vm.args[:]...)
	vm.args[0] = nil
	var res engine.Result
	if err == nil {
		res, err = vm.safeResult(v)
	} else {
		err = convertError(err, vm.pool.shift)
	}
	vm.end()
	return res, err
}

var stackFrameRE = regexp.MustCompile(`\n\tat (?:[^\n]*? \()?([^\n()]+):(\d+):(\d+)\(`)

var promiseType = reflect.TypeOf((*goja.Promise)(nil))

// safeResult reads the result inside the runtime's exception handling:
// reading runs script code (getters, toString) that can throw, loop until
// the deadline or overflow the stack, like any other script code.
func (vm *VM) safeResult(v goja.Value) (res engine.Result, err error) {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil, nil
	}
	if v == vm.marker && vm.pending && vm.pendingPrimitive() {
		return vm.pendingResult(), nil // nothing to read can run script code
	}
	defer func() {
		if x := recover(); x != nil {
			e, ok := x.(error)
			var intr *goja.InterruptedError
			var so *goja.StackOverflowError
			if !ok || (!errors.As(e, &intr) && !errors.As(e, &so)) {
				panic(x)
			}
			vm.broken = true // stopped outside the runtime's own handler
			res, err = nil, convertError(e, vm.pool.shift)
		}
	}()
	if ex := vm.rt.Try(func() { res, err = vm.result(v) }); ex != nil {
		return nil, convertError(ex, vm.pool.shift)
	}
	return res, err
}

// result reads what a handler returned: undefined or null is no opinion, a
// settled promise is its value, an object is read by the event's field
// names (all its own properties when none are given).
func (vm *VM) result(v goja.Value) (engine.Result, error) {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil, nil
	}
	obj, ok := v.(*goja.Object)
	if !ok {
		return nil, fmt.Errorf("%w, got %s", errNotObject, typeOf(v))
	}
	if obj == vm.marker && vm.pending {
		return vm.pendingResult(), nil
	}
	if obj.ExportType() == promiseType {
		p, _ := obj.Export().(*goja.Promise)
		switch p.State() {
		case goja.PromiseStateFulfilled:
			return vm.result(p.Result())
		case goja.PromiseStateRejected:
			return nil, convertError(vm.rejection(p.Result()), vm.pool.shift)
		default:
			return nil, ErrUnsettled
		}
	}
	// The result's own keys, read directly: no JSON round trip, and no
	// lookups of absent keys along the prototype chain. Keys whose value
	// is undefined are left out, as JSON.stringify would.
	keys := obj.GetOwnPropertyNames()
	var res engine.Result
	for _, k := range keys {
		fv := obj.Get(k)
		if fv == nil || goja.IsUndefined(fv) {
			continue
		}
		if res == nil {
			res = make(engine.Result, len(keys))
		}
		res[k] = exportDeep(fv)
	}
	return res, nil
}

// rejection turns a rejected promise's reason into an error with the
// reason's stack when it is an Error.
func (vm *VM) rejection(reason goja.Value) error {
	if o, ok := reason.(*goja.Object); ok {
		if stack := o.Get("stack"); stack != nil && !goja.IsUndefined(stack) {
			e := &Error{Message: reason.String(), Stack: stack.String()}
			// The position is the stack's first frame:
			// "\tat name (file:line:col(pc))" or "\tat file:line:col(pc)".
			if m := stackFrameRE.FindStringSubmatch(e.Stack); m != nil {
				e.File = m[1]
				e.Line, _ = strconv.Atoi(m[2])
				e.Column, _ = strconv.Atoi(m[3])
				if n := vm.pool.shift(e.File, e.Line); n > 0 {
					e.Column = max(1, e.Column-n)
				}
			}
			return e
		}
	}
	return &Error{Message: "promise rejected: " + reason.String()}
}
