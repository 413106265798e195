package script

import (
	"sync/atomic"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/engine"
)

// resultHelper is the read-only global that rewritten returns call (see
// package internal/jsrewrite): __hookctl_result(k0, v0, k1, v1, ...) with key indexes into
// the pool's key table. It keeps the values for the call in progress and
// returns the runtime's marker object; when the handler returns the
// marker, the result is built from those values, exactly as it would have
// been from the object literal.
const resultHelper = "__hookctl_result"

// resultKeys is the pool's interned result keys, copied on write so
// runtimes read it without a lock.
type resultKeys struct {
	names atomic.Pointer[[]string]
	index map[string]int // under Pool.mu
}

// installResultHelper defines the helper and the marker in vm's runtime.
func (vm *VM) installResultHelper() {
	rt := vm.rt
	marker := rt.NewObject()
	_ = marker.SetPrototype(nil)
	vm.marker = marker
	helper := func(c goja.FunctionCall) goja.Value {
		vm.pendKeys, vm.pendVals = vm.pendKeys[:0], vm.pendVals[:0]
		args := c.Arguments
		for i := 0; i+1 < len(args); i += 2 {
			vm.pendKeys = append(vm.pendKeys, int(args[i].ToInteger()))
			vm.pendVals = append(vm.pendVals, args[i+1])
		}
		vm.pending = true
		return marker
	}
	_ = rt.GlobalObject().DefineDataProperty(resultHelper, rt.ToValue(helper), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
}

// pendingResult builds the result a rewritten return handed over.
func (vm *VM) pendingResult() (engine.Result, error) {
	defer vm.clearPending()
	names := vm.pool.code.keyNames()
	var res engine.Result
	x := newExporter()
	x.strs = &vm.strs
	for i, k := range vm.pendKeys {
		v := vm.pendVals[i]
		if k < 0 || k >= len(names) {
			continue
		}
		x.root = names[k]
		ev, keep, err := x.value(v, 1)
		if err != nil {
			return nil, err
		}
		if !keep {
			delete(res, names[k]) // {a: 1, a: undefined}: the last one wins
			continue
		}
		if res == nil {
			res = make(engine.Result, len(vm.pendKeys))
		}
		res[names[k]] = ev
	}
	return res, nil
}

func (vm *VM) clearPending() {
	if !vm.pending {
		return
	}
	clear(vm.pendVals)
	vm.pendKeys, vm.pendVals = vm.pendKeys[:0], vm.pendVals[:0]
	vm.pending = false
}

// pendingPrimitive reports whether the values of the rewritten return are
// all primitives, whose export runs no script code.
func (vm *VM) pendingPrimitive() bool {
	for _, v := range vm.pendVals {
		if _, isObj := v.(*goja.Object); isObj {
			return false
		}
	}
	return true
}
