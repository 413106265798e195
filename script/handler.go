package script

import (
	"context"
	"fmt"
	"reflect"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/engine"
)

// handler runs a Program as an engine hook.
type handler struct {
	pool  *Pool
	prog  *Program
	allow []string
}

func (h *handler) Kind() string    { return "js" }
func (h *handler) Inline() bool    { return true }
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
		res, err = vm.result(v)
	} else {
		err = convertError(err)
	}
	vm.end()
	return res, err
}

var promiseType = reflect.TypeOf((*goja.Promise)(nil))

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
	if obj.ExportType() == promiseType {
		p, _ := obj.Export().(*goja.Promise)
		switch p.State() {
		case goja.PromiseStateFulfilled:
			return vm.result(p.Result())
		case goja.PromiseStateRejected:
			return nil, convertError(vm.rejection(p.Result()))
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
			return &Error{Message: reason.String(), Stack: stack.String()}
		}
	}
	return &Error{Message: "promise rejected: " + reason.String()}
}
