package script

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/engine"
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
// Nested calls do not run promise jobs (goja runs them only when the
// outermost call returns), so only handlers that cannot queue any are
// nested: their source names no async function, await, promise, then,
// module or timer (syncSource). The rest, and any hook after the runtime
// broke (a timeout, a stack overflow), run on a runtime of their own as
// before.

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

// asyncWord reports the names whose presence in a handler's source makes it
// unsafe to nest: anything that may queue a promise job, load a module or
// start a timer.
func asyncWord(w string) bool {
	switch w {
	case "async", "await", "Promise", "then", "require", "import", "queueMicrotask", "setTimeout",
		"setInterval", "setImmediate", "fetch", "eval", "Function":
		return true
	}
	return false
}

// syncSource reports whether a handler's source cannot queue promise jobs
// (see above): a conservative test of its words. A word is a run of ASCII
// letters, digits and underscores, as \b in a regular expression sees it,
// so "$async" holds the word "async" too.
func syncSource(src string) bool {
	for i := 0; i < len(src); {
		if !isWordByte(src[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(src) && isWordByte(src[j]) {
			j++
		}
		if asyncWord(src[i:j]) {
			return false
		}
		i = j
	}
	return true
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// EntryKey implements engine.Entrant: hooks of one pool share an entry;
// a handler whose calls cannot nest, or a pool of a single runtime (a hook
// that finds the entered runtime broken needs another), has none.
func (h *handler) EntryKey() any {
	if !h.prog.sync || h.pool.size < 2 {
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
		}
		return goja.Undefined()
	})
	return nil
}

// enteredVM returns the runtime entered for call's fire, or nil when the
// call must check out a runtime of its own.
func (h *handler) enteredVM(ctx context.Context, call *engine.Call) *VM {
	if !h.prog.sync || call.Fire == 0 {
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
