package script

import (
	"fmt"

	"github.com/dop251/goja"
)

// A runtime serves many hooks and many events, one call after another, so
// nothing one call does to the shared JavaScript world may be seen by the
// next. Before a runtime runs any hook code it is locked down: every
// object reachable from the global object (the constructors, their
// prototypes, Math, JSON, Reflect, console, require, the engine's helpers)
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

const lockdownSource = `(function (global) {
	"use strict";
	var freeze = Object.freeze, getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor,
		defineProperty = Object.defineProperty, getPrototypeOf = Object.getPrototypeOf,
		ownKeys = Reflect.ownKeys;
	var overridable = ["name", "message", "toString", "toLocaleString", "valueOf", "toJSON"];
	function deepFreeze(root) {
		var stack = [root], seen = new Set(), protos = [];
		while (stack.length > 0) {
			var o = stack.pop();
			if (o === null || (typeof o !== "object" && typeof o !== "function") || seen.has(o)) continue;
			seen.add(o);
			var keys = ownKeys(o);
			for (var i = 0; i < keys.length; i++) {
				var d = getOwnPropertyDescriptor(o, keys[i]);
				if (d === undefined) continue;
				if ("value" in d) {
					stack.push(d.value);
					if (keys[i] === "prototype" && typeof o === "function" && d.value !== null && typeof d.value === "object") protos.push(d.value);
				} else {
					stack.push(d.get, d.set);
				}
			}
			stack.push(getPrototypeOf(o));
		}
		for (var j = 0; j < protos.length; j++) enableOverrides(protos[j]);
		seen.forEach(function (o) { freeze(o); });
		return root;
	}
	function enableOverrides(proto) {
		if (Object.isFrozen(proto)) return;
		overridable.forEach(function (k) {
			var d = getOwnPropertyDescriptor(proto, k);
			if (d === undefined || !("value" in d) || !d.configurable) return;
			var value = d.value;
			defineProperty(proto, k, {
				get: function () { return value; },
				set: function (v) {
					if (this === proto) throw new TypeError("Cannot assign to read only property '" + k + "' of a shared built-in object");
					defineProperty(this, k, { value: v, writable: true, enumerable: true, configurable: true });
				},
				enumerable: d.enumerable,
				configurable: false,
			});
		});
	}
	deepFreeze(global);
	return deepFreeze;
})(globalThis)`

var lockdownProgram = goja.MustCompile("hookctl:lockdown", lockdownSource, true)

// lockdown freezes the runtime's shared objects and keeps the freezing
// function for modules loaded later.
func (vm *VM) lockdown() error {
	v, err := vm.rt.RunProgram(lockdownProgram)
	if err != nil {
		return fmt.Errorf("lockdown: %w", err)
	}
	fn, ok := goja.AssertFunction(v)
	if !ok {
		return fmt.Errorf("lockdown: no freeze function")
	}
	vm.freeze = fn
	return nil
}

// deepFreeze freezes v and everything reachable from it.
func (vm *VM) deepFreeze(v goja.Value) {
	if vm.freeze != nil {
		_, _ = vm.freeze(goja.Undefined(), v)
	}
}
