package script

import (
	"sync/atomic"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/engine"
)

// resultHelper is the function rewritten returns call (see package
// internal/jsrewrite): __hookctl_result(k0, v0, k1, v1, ...) with key
// indexes into the pool's key table. It keeps the values for the call in
// progress and returns the runtime's marker object; when the handler
// returns the marker, the result is built from those values, exactly as
// it would have been from the object literal. It is no global: a rewritten
// handler's factory gets it as a parameter of this name, which no script
// can name (a source naming it is not rewritten).
const resultHelper = "__hookctl_result"

// constHelper is the function that sets, when a program is loaded, the
// variable a constant return was rewritten into (see package
// internal/jsrewrite): __hookctl_const(i) returns this runtime's token for
// the pool's constant result i. A handler returning the token returns that
// result, built once at compile time from the literal, as the exporter
// would have built it from the object. The results are fixed before any
// script runs, so no script can change what another's token stands for;
// like resultHelper it is only a parameter of the factory.
const constHelper = "__hookctl_const"

// maxConstKeys bounds the keys of a constant return: a larger literal goes
// through the exporter and its limits.
const maxConstKeys = 1000

// resultKeys is the pool's interned result keys, copied on write so
// runtimes read it without a lock.
type resultKeys struct {
	names atomic.Pointer[[]string]
	index map[string]int // under Pool.mu
}

// installResultHelper makes the helper and the marker of vm's runtime.
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
	vm.resultFn = rt.ToValue(helper)
}

// installConstHelper makes the constant returns' helper of vm's runtime.
func (vm *VM) installConstHelper() {
	rt := vm.rt
	helper := func(c goja.FunctionCall) goja.Value {
		idx := int(c.Argument(0).ToInteger())
		if tok, ok := vm.constTok[idx]; ok {
			return tok
		}
		res, ok := vm.pool.code.constResult(idx)
		if !ok {
			panic(rt.NewTypeError("hookctl: no constant result %d", idx))
		}
		tok := rt.NewObject()
		_ = tok.SetPrototype(nil)
		// Frozen: a token given a then would make an async handler that
		// returns it resolve to whatever that then says.
		vm.deepFreeze(tok)
		if vm.constTok == nil {
			vm.constTok = map[int]*goja.Object{}
			vm.constRes = map[*goja.Object]*engine.PreparedResult{}
		}
		vm.constTok[idx], vm.constRes[tok] = tok, res
		return tok
	}
	vm.constFn = rt.ToValue(helper)
}

// constResult builds the result of a constant return as the exporter
// builds it from the object: the last of a repeated key wins, a number is
// an int64 when it is a safe integer (an integer literal beyond 2^53 is a
// double in the runtime, as in JavaScript), NaN and the infinities are
// null, and an empty literal is no result.
func constResult(keys []string, vals []any) engine.Result {
	var res engine.Result
	for i, k := range keys {
		v := vals[i]
		if n, ok := v.(int64); ok && (n > 1<<53 || n < -(1<<53)) {
			v = float64(n) // the runtime holds it as a double
		}
		if f, ok := v.(float64); ok {
			v = exportFloat(f)
		}
		if res == nil {
			res = make(engine.Result, len(keys))
		}
		res[k] = v
	}
	return res
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

// constant returns the result a constant return's token stands for, read
// once (engine.PrepareResult).
func (vm *VM) constant(v goja.Value) (*engine.PreparedResult, bool) {
	if vm.constRes == nil {
		return nil, false
	}
	obj, ok := v.(*goja.Object)
	if !ok {
		return nil, false
	}
	pr, ok := vm.constRes[obj]
	return pr, ok
}
