package script

import (
	"testing"
)

func BenchmarkNewVM(b *testing.B) {
	p, err := NewPool(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	b.ReportAllocs()
	for b.Loop() {
		vm := p.newVM()
		vm.dispose()
	}
}

// TestAccessorHoldersAreComplete: every getter and setter of the built-in
// objects is on an object lockdown asks for descriptors, so lockdown
// freezes them all. A goja upgrade that adds accessors elsewhere fails
// here.
func TestAccessorHoldersAreComplete(t *testing.T) {
	vm := checkedOut(t)
	v, err := vm.rt.RunString(`(function () {
		var seen = new Set(), stack = [globalThis], unfrozen = [];
		while (stack.length) {
			var o = stack.pop();
			if (o === null || (typeof o !== "object" && typeof o !== "function") || seen.has(o)) continue;
			seen.add(o);
			if (!Object.isFrozen(o)) unfrozen.push(String(o));
			Reflect.ownKeys(o).forEach(function (k) {
				var d = Object.getOwnPropertyDescriptor(o, k);
				if ("value" in d) stack.push(d.value); else stack.push(d.get, d.set);
			});
			stack.push(Object.getPrototypeOf(o));
		}
		return unfrozen.join("; ");
	})()`)
	if err != nil {
		t.Fatal(err)
	}
	if s := v.String(); s != "" {
		t.Fatalf("not frozen: %s", s)
	}
}
