package script

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsjobs"
)

// Entering a runtime once per fire.
//
// goja resets a runtime's value stack every time a call from Go returns to
// Go with no JavaScript frame below it, so the next call grows a new one
// (two allocations), and each call also checks a runtime out of the pool
// and back. A fire that runs several script hooks of one pool instead
// enters one runtime once (engine.Entrant): the engine runs the fire's
// chain inside a JavaScript frame, and each hook that can runs as a call
// nested in it, on the same runtime, with its own deadline, result and
// error handling exactly as a call of its own.
//
// Nested calls do not run promise jobs: goja runs them only when the
// outermost call returns, which here is the entry's, after every hook of
// the fire, with no hook's deadline or memory limit in force. So every call
// drains its own jobs before it ends (handler.go, drain), under its
// deadline, and leaves none queued: what a call cannot run in time is
// dropped with the runtime. Whatever the source says, any handler nests.
// The entry checks once more, when the fire's work returns, that nothing
// is queued, and otherwise drops the jobs and the runtime before leaving
// it. Any hook after the runtime broke (a timeout, a stack overflow) runs
// on a runtime of its own, as do all hooks of a pool made with
// WithNestedEntry(false).

// entryKey is the context key of the runtime a fire entered.
type entryKey struct{}

// entry is a runtime entered for one fire: only that fire's calls use it
// (they run on the goroutine that entered), and only while open. A nested
// fire, or a background hook that kept the context, runs on a runtime of
// its own.
type entry struct {
	vm *VM
	// fire is the fire the entry is open for, 0 when closed: one atomic
	// word, so that a call holding an old context can never see another
	// fire's id with an open flag. A runtime reuses its entry.
	fire atomic.Uint64
}

// EntryKey implements engine.Entrant: hooks of one pool share an entry;
// a pool of a single runtime (a hook that finds the entered runtime broken
// needs another), or one made with WithNestedEntry(false), has none.
func (h *handler) EntryKey() any {
	if h.pool.noEntry || h.pool.size < 2 {
		return nil
	}
	return h.pool
}

// Enter implements engine.Entrant: it checks a runtime out for the fire and
// runs run inside a JavaScript frame on it. When no runtime is free at
// once, or the runtime cannot be entered, run runs without an entry.
func (h *handler) Enter(ctx context.Context, fire uint64, run func(context.Context)) {
	p := h.pool
	vm := p.tryAcquire(time.Now())
	if vm == nil {
		run(ctx) // every runtime is busy: the hooks wait for one each
		return
	}
	defer p.release(vm)
	if err := vm.ensureTrampoline(); err != nil {
		run(ctx)
		return
	}
	en := &vm.entry
	if en.vm == nil {
		en.vm = vm // once, before any context holds the entry
	}
	en.fire.Store(fire)
	vm.entered = context.WithValue(ctx, entryKey{}, en)
	vm.enterRun = run
	ran := false
	defer func() {
		en.fire.Store(0)
		vm.entered, vm.enterRun = nil, nil
		if x := recover(); x != nil {
			vm.broken = true
			panic(x)
		}
		if !ran {
			// The frame did not run (an interrupt left over, a stack
			// limit): the fire runs without an entry.
			run(ctx)
		}
	}()
	_, err := vm.trampoline(goja.Undefined(), vm.runner)
	ran = vm.enterDone
	vm.enterDone = false
	if err != nil {
		vm.broken = true
	}
}

// ensureTrampoline makes the runtime's entry frame on first use: a
// JavaScript function that calls the native runner.
func (vm *VM) ensureTrampoline() error {
	if vm.trampoline != nil {
		return nil
	}
	v, err := vm.rt.RunString(`(function (run) { run(); })`)
	if err != nil {
		return err
	}
	fn, _ := goja.AssertFunction(v)
	vm.trampoline = fn
	vm.runner = vm.rt.ToValue(func(goja.FunctionCall) goja.Value {
		if run := vm.enterRun; run != nil && !vm.enterDone {
			vm.enterDone = true
			run(vm.entered)
			if jsjobs.Pending(vm.rt) > 0 {
				// No call left a job (see above); were one queued, it
				// would run when the frame returns, as no hook.
				jsjobs.Drop(vm.rt)
				vm.broken = true
			}
		}
		return goja.Undefined()
	})
	return nil
}

// enteredVM returns the runtime entered for call's fire, or nil when the
// call must check out a runtime of its own.
func (h *handler) enteredVM(ctx context.Context, call *engine.Call) *VM {
	if call.Fire == 0 {
		return nil
	}
	en, ok := ctx.Value(entryKey{}).(*entry)
	if !ok || en.fire.Load() != call.Fire || en.vm.pool != h.pool {
		return nil
	}
	if vm := en.vm; !vm.broken && vm.cur == nil {
		return vm
	}
	return nil
}
