package script

import (
	"errors"
	"fmt"
	"sync"

	"github.com/dop251/goja"
)

// A runtime serves many hooks and many events, one call after another, so
// nothing one call does to the shared JavaScript world may be seen by the
// next. Before a runtime runs any hook code it is locked down: every
// object reachable from the global object (the constructors, their
// prototypes, Math, JSON, Reflect, console, require)
// is frozen, and so is the global object itself. Standard library modules
// are frozen when they load, and so are ctx and ctx.log. A script can
// still create and change its own objects; it can no longer change
// Array.prototype, replace JSON.parse, or leave a global behind. Module
// files of the configuration are the author's own code and are not frozen:
// state a module keeps is shared by the hooks running in one runtime.
//
// Freezing a prototype makes its properties read-only for instances too
// (assigning err.name or obj.toString would silently do nothing); the
// properties instances commonly override become accessors whose setter
// defines the property on the instance instead, as SES does.

// containerSource finds what the Go walk cannot see, because only a
// property descriptor reaches it: getters and setters (held by a few
// built-in prototypes, listed in accessorHolders) and symbol-keyed values
// (any container). It also turns the overridable properties of the
// prototypes instances commonly change into accessors. Property
// descriptors are slow in goja, so it asks for as few as it can.
const containerSource = `(function (containers, moreOverrides) {
	"use strict";
	var getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor, defineProperty = Object.defineProperty,
		ownKeys = Reflect.ownKeys, symbols = Object.getOwnPropertySymbols, extra = [];
	var overridable = ["name", "message", "toString", "toLocaleString", "valueOf", "toJSON"];
	function override(proto, k) {
		var d = getOwnPropertyDescriptor(proto, k);
		if (d === undefined || !("value" in d) || !d.configurable) return;
		var value = d.value;
		var get = function () { return value; };
		var set = function (v) {
			if (this === proto) throw new TypeError("Cannot assign to read only property '" + k + "' of a shared built-in object");
			defineProperty(this, k, { value: v, writable: true, enumerable: true, configurable: true });
		};
		defineProperty(proto, k, { get: get, set: set, enumerable: d.enumerable, configurable: false });
		extra.push(get, set);
	}
	function descriptors(o, keys) {
		for (var j = 0; j < keys.length; j++) {
			var d = getOwnPropertyDescriptor(o, keys[j]);
			if (d === undefined) continue;
			if ("value" in d) {
				if (typeof keys[j] === "symbol") extra.push(d.value);
			} else {
				extra.push(d.get, d.set);
			}
		}
	}
	var overrides = [Object.prototype, Error.prototype, TypeError.prototype, RangeError.prototype, SyntaxError.prototype,
		ReferenceError.prototype, EvalError.prototype, URIError.prototype].concat(moreOverrides);
	for (var i = 0; i < overrides.length; i++) {
		for (var n = 0; n < overridable.length; n++) override(overrides[i], overridable[n]);
	}
	var TypedArray = Object.getPrototypeOf(Int8Array);
	var holders = [Object.prototype, Function.prototype, RegExp.prototype, Map.prototype, Set.prototype,
		ArrayBuffer.prototype, DataView.prototype, TypedArray.prototype, Symbol.prototype];
	for (var h = 0; h < holders.length; h++) descriptors(holders[h], ownKeys(holders[h]));
	for (var c = 0; c < containers.length; c++) descriptors(containers[c], symbols(containers[c]));
	return extra;
})`

var containerProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("hookctl:lockdown", containerSource, true) })

// hiddenSource returns the intrinsics no property path from the global
// object reaches, only an instance: the prototypes of the iterators of
// arrays, strings, maps, sets and matchAll, of generator and async
// functions (with the generator prototype and the iterator prototype
// behind them). Left unfrozen, one hook could make every for...of of the
// other hooks of its runtime see nothing.
const hiddenSource = `(function () {
	"use strict";
	var getProto = Object.getPrototypeOf;
	return [
		getProto([][Symbol.iterator]()),
		getProto(""[Symbol.iterator]()),
		getProto(new Map()[Symbol.iterator]()),
		getProto(new Set()[Symbol.iterator]()),
		getProto("".matchAll(/(?:)/g)),
		getProto(function* () {}),
		getProto(function* () {}).prototype,
		getProto(async function () {}),
	];
})()`

var hiddenProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("hookctl:lockdown", hiddenSource, true) })

// lockdown freezes everything reachable from the global object. Objects
// are found from Go (string-keyed values and prototypes: the bulk, a few
// hundred built-in objects); the holders of accessors and symbol-keyed
// methods are gone through in JavaScript, which sees property
// descriptors.
func (vm *VM) lockdown() error {
	rt := vm.rt
	freeze, ok := goja.AssertFunction(rt.Get("Object").ToObject(rt).Get("freeze"))
	if !ok {
		return fmt.Errorf("lockdown: no Object.freeze")
	}
	vm.freeze = freeze
	vm.frozen = map[*goja.Object]bool{}
	// GoError (what native modules throw) is made on first use: make it
	// now, so that its prototype is frozen and overridable like Error's.
	goError := rt.NewGoError(errors.New("")).Prototype()
	roots := []*goja.Object{rt.GlobalObject(), goError}
	hidden, err := rt.RunProgram(hiddenProgram())
	if err != nil {
		return fmt.Errorf("lockdown: %w", err)
	}
	if arr, ok := hidden.(*goja.Object); ok {
		for _, k := range arr.GetOwnPropertyNames() {
			if o, ok := arr.Get(k).(*goja.Object); ok {
				roots = append(roots, o)
			}
		}
	}
	found := vm.reach(roots)
	var containers []any
	for _, o := range found {
		if _, isFn := goja.AssertFunction(o); !isFn {
			containers = append(containers, o)
		} else if p, ok := o.Get("prototype").(*goja.Object); ok && p != nil {
			containers = append(containers, o)
		}
	}
	v, err := rt.RunProgram(containerProgram())
	if err != nil {
		return fmt.Errorf("lockdown: %w", err)
	}
	pass, _ := goja.AssertFunction(v)
	extraV, err := pass(goja.Undefined(), rt.NewArray(containers...), rt.NewArray(goError))
	if err != nil {
		return fmt.Errorf("lockdown: %w", err)
	}
	var extra []*goja.Object
	if arr, ok := extraV.(*goja.Object); ok {
		for _, k := range arr.GetOwnPropertyNames() {
			if o, ok := arr.Get(k).(*goja.Object); ok {
				extra = append(extra, o)
			}
		}
	}
	found = append(found, vm.reach(extra)...)
	return vm.freezeAll(found)
}

// freezeAllSource freezes the objects of an array, in one call: a call
// from Go into the runtime costs more than the freeze itself.
const freezeAllSource = `(function (objects) {
	"use strict";
	var freeze = Object.freeze;
	for (var i = 0; i < objects.length; i++) freeze(objects[i]);
})`

var freezeAllProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("hookctl:lockdown", freezeAllSource, true) })

// freezeAll freezes objects.
func (vm *VM) freezeAll(objects []*goja.Object) error {
	if len(objects) == 0 {
		return nil
	}
	v, err := vm.rt.RunProgram(freezeAllProgram())
	if err != nil {
		return fmt.Errorf("lockdown: %w", err)
	}
	fn, ok := goja.AssertFunction(v)
	if !ok {
		return fmt.Errorf("lockdown: freezeAll is not a function")
	}
	list := make([]any, len(objects))
	for i, o := range objects {
		list[i] = o
	}
	if _, err := fn(goja.Undefined(), vm.rt.NewArray(list...)); err != nil {
		return fmt.Errorf("lockdown: %w", err)
	}
	return nil
}

// reach returns the objects reachable from roots through string-keyed
// property values and prototypes that are not frozen yet, marking them.
// It runs only on built-in objects and the engine's own, whose getters
// have no side effects; a getter that throws is skipped.
func (vm *VM) reach(roots []*goja.Object) []*goja.Object {
	var out []*goja.Object
	stack := append([]*goja.Object(nil), roots...)
	for len(stack) > 0 {
		o := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if o == nil || vm.frozen[o] {
			continue
		}
		vm.frozen[o] = true
		out = append(out, o)
		keys := o.GetOwnPropertyNames()
		// One exception frame for all of an object's properties; only an
		// object with a getter that throws goes through them one by one.
		push := func(k string) {
			if c, ok := o.Get(k).(*goja.Object); ok {
				stack = append(stack, c)
			}
		}
		if ex := vm.rt.Try(func() {
			for _, k := range keys {
				push(k)
			}
		}); ex != nil {
			for _, k := range keys {
				_ = vm.rt.Try(func() { push(k) })
			}
		}
		if p := o.Prototype(); p != nil {
			stack = append(stack, p)
		}
	}
	return out
}

// deepFreeze freezes v and everything reachable from it that is not frozen
// yet (a standard library module's exports, ctx.log).
func (vm *VM) deepFreeze(v goja.Value) {
	o, ok := v.(*goja.Object)
	if !ok || vm.freeze == nil {
		return
	}
	for _, x := range vm.reach([]*goja.Object{o}) {
		_, _ = vm.freeze(goja.Undefined(), x)
	}
}
