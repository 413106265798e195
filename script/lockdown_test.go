package script_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/hookctl/hookctl/script"
)

// TestTamperingDoesNotLeak: a hook that tries to change the shared
// JavaScript world (prototypes, built-ins, globals, standard library
// modules, ctx) leaves nothing a later hook on the same runtime can see.
func TestTamperingDoesNotLeak(t *testing.T) {
	mod := script.WithModule("hookctl/testmod", func(vm *script.VM, module *goja.Object) {
		exports := module.Get("exports").(*goja.Object)
		_ = exports.Set("deny", func(r string) map[string]any { return map[string]any{"decision": "deny", "reason": r} })
		_ = exports.Set("parse", func(s string) []string { return strings.Fields(s) })
	})
	p := newPool(t, script.WithSize(1), mod) // one runtime: every call shares it
	attempts := []string{
		`Array.prototype.push = function () { return 0; };`,
		`Object.prototype.polluted = "yes";`,
		`Object.defineProperty(Object.prototype, "polluted2", { value: 1 });`,
		`JSON.parse = function () { return { decision: "allow" }; };`,
		`String.prototype.includes = function () { return true; };`,
		`RegExp.prototype.test = function () { return false; };`,
		`Math.random = function () { return 4; };`,
		`delete Array.prototype.map;`,
		`globalThis.leaked = 1;`,
		`leakedImplicit = 1;`,
		`Object = null;`,
		`require("hookctl/testmod").deny = function () { return { decision: "allow" }; };`,
		`require("hookctl/testmod").parse = null;`,
		`ctx.log.info = null;`,
		`Object.setPrototypeOf(Array.prototype, null);`,
		`Function.prototype.call = null;`,
		`Error.prototype.toString = function () { return "pwned"; };`,
		`__hookctl_result = null; __hookctl_regexp = null;`,
		// Intrinsics only reachable through an instance.
		`Object.getPrototypeOf([][Symbol.iterator]()).next = () => ({ done: true });`,
		`Object.getPrototypeOf(""[Symbol.iterator]()).next = () => ({ done: true });`,
		`Object.getPrototypeOf(new Map()[Symbol.iterator]()).next = () => ({ done: true });`,
		`Object.getPrototypeOf(new Set()[Symbol.iterator]()).next = () => ({ done: true });`,
		`Object.getPrototypeOf("".matchAll(/a/g)).next = () => ({ done: true });`,
		`Object.getPrototypeOf(function* () {}).prototype.next = () => ({ done: true });`,
		`Object.getPrototypeOf(function* () {}).constructor = null;`,
		`Object.getPrototypeOf(async function () {}).constructor = null;`,
		`try { require("hookctl/testmod").parse(); } catch (e) { Object.getPrototypeOf(e).toString = () => "pwned"; }`,
	}
	probe := inline(t, p, `
		const a = []; a.push(1);
		const d = require("hookctl/testmod").deny("r");
		return {
			push: a.length === 1,
			polluted: ({}).polluted === undefined && ({}).polluted2 === undefined,
			json: JSON.parse('{"x":1}').x === 1,
			includes: "abc".includes("z") === false,
			regex: /b/.test("abc"),
			random: Math.random() < 1,
			map: typeof [].map === "function",
			globals: typeof leaked === "undefined" && typeof leakedImplicit === "undefined",
			object: typeof Object === "function",
			decision: d.decision === "deny",
			shell: typeof require("hookctl/testmod").parse === "function",
			log: typeof ctx.log.info === "function",
			proto: Object.getPrototypeOf(Array.prototype) === Object.prototype,
			call: typeof Function.prototype.call === "function",
			error: String(new Error("m")) === "Error: m",
			arrayIter: (() => { let n = 0; for (const x of [1, 2]) n += x; return n === 3; })(),
			stringIter: [..."ab"].length === 2,
			mapIter: [...new Map([[1, 2]])].length === 1,
			setIter: [...new Set([1])].length === 1,
			matchAll: [..."aa".matchAll(/a/g)].length === 2,
			generator: [...(function* () { yield 1; })()].length === 1,
			generatorCtor: typeof Object.getPrototypeOf(function* () {}).constructor === "function",
			asyncCtor: typeof Object.getPrototypeOf(async function () {}).constructor === "function",
			goError: (() => { try { require("hookctl/testmod").parse(); } catch (e) { return String(e) !== "pwned"; } })(),
		};
	`)
	check := func(after string) {
		t.Helper()
		res, err := run(t, probe, call(nil))
		if err != nil {
			t.Fatalf("after %s: %v", after, err)
		}
		for k, v := range res {
			if v != true {
				t.Errorf("after %s: %s is %v", after, k, v)
			}
		}
	}
	check("nothing")
	for _, a := range attempts {
		for _, mode := range []string{"", `"use strict";`} {
			h := inline(t, p, mode+a)
			_, _ = run(t, h, call(nil)) // in strict mode the attempt throws: that is fine
			check(mode + a)
		}
	}
}

// TestOverridesStillWork: freezing the prototypes does not stop scripts
// from giving their own objects a name, a message or a toString.
func TestOverridesStillWork(t *testing.T) {
	p := newPool(t)
	for _, mode := range []string{"", `"use strict";`} {
		h := inline(t, p, mode+`
			const e = new Error(); e.name = "MyError"; e.message = "m";
			class E2 extends Error { constructor(m) { super(m); this.name = "E2"; } }
			const o = {}; o.toString = function () { return "mine"; };
			const arr = [3, 1, 2].map(function (x) { return x * 2; }).filter(function (x) { return x > 2; });
			return { e: String(e), e2: String(new E2("x")), o: String(o), arr: arr.join(","), json: JSON.stringify({ a: [1] }) };
		`)
		res, err := run(t, h, call(nil))
		if err != nil {
			t.Fatal(err)
		}
		if res["e"] != "MyError: m" || res["e2"] != "E2: x" || res["o"] != "mine" || res["arr"] != "6,4" || res["json"] != `{"a":[1]}` {
			t.Fatalf("%q: %v", mode, res)
		}
	}
}

// TestGoErrorsAreFrozenAndOverridable: the errors native modules throw
// have a frozen prototype like the built-in errors', and an instance can
// still be given its own name.
func TestGoErrorsAreFrozenAndOverridable(t *testing.T) {
	p := newPool(t, script.WithModule("thrower", func(vm *script.VM, module *goja.Object) {
		_ = module.Get("exports").(*goja.Object).Set("boom", func() { vm.Throw(errors.New("boom")) })
	}))
	for _, mode := range []string{"", `"use strict";`} {
		h := inline(t, p, mode+`try { require("thrower").boom(); } catch (e) {
			const frozen = Object.isFrozen(Object.getPrototypeOf(e));
			e.name = "Mine";
			return { s: String(e), frozen };
		}`)
		res, err := run(t, h, call(nil))
		if err != nil || res["s"] != "Mine: boom" || res["frozen"] != true {
			t.Fatalf("%q: %v %v", mode, res, err)
		}
	}
}

// TestConstantReturnsCannotBeForged: a constant return's result is fixed
// when it compiles. The helpers rewritten returns use are no globals: a
// script can neither replace them for a later hook's program nor call them
// to reach another hook's token or the marker.
func TestConstantReturnsCannotBeForged(t *testing.T) {
	p := newPool(t, script.WithSize(1)) // one runtime: every call shares it
	for _, mode := range []string{"", `"use strict";`} {
		tamper := inline(t, p, mode+`
			try { __hookctl_const = () => ({}); } catch (e) {}
			try { Object.defineProperty(globalThis, "__hookctl_const", { value: () => ({}) }); } catch (e) {}
			try { delete globalThis.__hookctl_const; } catch (e) {}
			return { tampered: true };`)
		if res, err := run(t, tamper, call(nil)); err != nil || res["tampered"] != true {
			t.Fatalf("%q: %v %v", mode, res, err)
		}
	}
	// Loaded into the runtime after the tampering ran.
	deny := inline(t, p, `return { decision: "deny", reason: "constant" };`)
	for range 2 {
		res, err := run(t, deny, call(nil))
		if err != nil || res["decision"] != "deny" || res["reason"] != "constant" || len(res) != 2 {
			t.Fatalf("after tampering: %v %v", res, err)
		}
	}
	for _, name := range []string{"__hookctl_const", "__hookctl_result", "__hookctl_regexp"} {
		probe := inline(t, p, `return { t: typeof `+name+`, g: typeof globalThis[`+"`"+name+"`"+`] };`)
		if res, err := run(t, probe, call(nil)); err != nil || res["t"] != "undefined" || res["g"] != "undefined" {
			t.Fatalf("%s is reachable: %v %v", name, res, err)
		}
	}
	// An async constant or rewritten return after a hook tried to give
	// every token and the marker a then.
	async := inline(t, p, `await null; return { decision: "deny", reason: "async constant" };`)
	marker := inline(t, p, `await null; return { decision: "deny", reason: "async " + ctx.hook };`)
	for _, mode := range []string{"", `"use strict";`} {
		attack := inline(t, p, mode+`
			for (const name of ["__hookctl_result", "__hookctl_const"]) {
				for (let i = 0; i < 8; i++) {
					try {
						const m = globalThis[name](i);
						try { m.then = (resolve) => resolve({ decision: "allow" }); } catch (e) {}
						try { Object.defineProperty(m, "then", { value: (resolve) => resolve({ decision: "allow" }) }); } catch (e) {}
						try { Object.setPrototypeOf(m, { then: (resolve) => resolve({ decision: "allow" }) }); } catch (e) {}
					} catch (e) {}
				}
			}
			return;`)
		if _, err := run(t, attack, call(nil)); err != nil {
			t.Fatalf("%q: %v", mode, err)
		}
		res, err := run(t, async, call(nil))
		if err != nil || res["decision"] != "deny" || res["reason"] != "async constant" {
			t.Fatalf("%q: an async constant return after its token was tampered with: %v %v", mode, res, err)
		}
		res, err = run(t, marker, call(nil))
		if err != nil || res["decision"] != "deny" || res["reason"] != "async h" {
			t.Fatalf("%q: an async rewritten return after the marker was tampered with: %v %v", mode, res, err)
		}
	}
}
