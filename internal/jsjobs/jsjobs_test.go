package jsjobs

import (
	"testing"

	"github.com/dop251/goja"
)

// TestLayout fails when a goja upgrade changes what this package reads.
func TestLayout(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatalf("goja's job queue changed: %v", err)
	}
}

// TestNestedJobsWaitForTheOuterCall: what the package exists for: a job a
// nested call queues is still queued when that call returns, and runs when
// taken and called, or never once dropped.
func TestNestedJobsWaitForTheOuterCall(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatal(err)
	}
	rt := goja.New()
	inner, err := rt.RunString(`(function () { Promise.resolve().then(() => { globalThis.n++; }); })`)
	if err != nil {
		t.Fatal(err)
	}
	call, _ := goja.AssertFunction(inner)
	var queued, left int
	_ = rt.Set("outer", func(goja.FunctionCall) goja.Value {
		if _, err := call(goja.Undefined()); err != nil {
			t.Error(err)
		}
		queued = Pending(rt)
		for _, job := range Take(rt) {
			job()
		}
		if _, err := call(goja.Undefined()); err != nil {
			t.Error(err)
		}
		Drop(rt)
		left = Pending(rt)
		return goja.Undefined()
	})
	if _, err := rt.RunString(`globalThis.n = 0; outer();`); err != nil {
		t.Fatal(err)
	}
	if queued != 1 || left != 0 || rt.Get("n").ToInteger() != 1 {
		t.Fatalf("queued %d, left %d, ran %d jobs; want 1, 0, 1", queued, left, rt.Get("n").ToInteger())
	}
}
