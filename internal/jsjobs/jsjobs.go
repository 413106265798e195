// Package jsjobs reaches the promise job queue of a goja runtime, which goja
// does not export, so that a caller running JavaScript nested inside an
// outer call can run the jobs a nested call queued before that call ends,
// and drop the ones it must not run.
//
// goja runs promise jobs (then callbacks, await continuations, thenable
// resolutions) only when the outermost call from Go returns. A call made
// from Go while another is in progress queues its jobs for the end of the
// outer call: past the nested call's deadline and under no one's watch.
// This package reads and replaces the runtime's queue, and nothing else,
// through reflection over goja's unexported field. The layout it relies on
// is checked once, by Check, against goja's behaviour (TestLayout fails
// loudly when a goja upgrade changes it); a caller must not use the other
// functions when the check failed.
package jsjobs

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
)

var (
	once   sync.Once
	offset uintptr // goja.Runtime.jobQueue
	layErr error
)

// ErrLayout is the cause of Check's error: goja's runtime is not laid out,
// or does not behave, as this package expects.
var ErrLayout = errors.New("jsjobs: goja's promise job queue is not where expected")

// Check verifies, once, that goja's runtime keeps its promise jobs as this
// package expects. Pending, Take and Drop must not be used unless it
// returned nil.
func Check() error {
	once.Do(func() { offset, layErr = find() })
	return layErr
}

func find() (uintptr, error) {
	f, ok := reflect.TypeOf((*goja.Runtime)(nil)).Elem().FieldByName("jobQueue")
	if !ok || len(f.Index) != 1 || f.Type != reflect.TypeOf([]func(){}) {
		return 0, fmt.Errorf("%w: no jobQueue field of type []func()", ErrLayout)
	}
	return f.Offset, behaves(f.Offset)
}

// behaves checks the layout against what goja does: a job queued by a
// nested call is in the queue while the outer call runs, taking it leaves
// the queue empty and the outer call's return runs nothing, and running a
// taken job runs the callback.
func behaves(off uintptr) error {
	rt := goja.New()
	var pending, after int
	var took []func()
	var ran bool
	probe := func(goja.FunctionCall) goja.Value {
		pending = len(*queue(rt, off))
		took = take(rt, off)
		after = len(*queue(rt, off))
		for _, job := range took {
			job()
		}
		ran = rt.Get("ran").ToBoolean()
		return goja.Undefined()
	}
	if err := rt.Set("probe", probe); err != nil {
		return err
	}
	if _, err := rt.RunString(`var ran = false; Promise.resolve().then(() => { ran = true; }); probe();`); err != nil {
		return fmt.Errorf("%w: %v", ErrLayout, err)
	}
	if pending != 1 || len(took) != 1 || after != 0 || !ran || len(*queue(rt, off)) != 0 {
		return fmt.Errorf("%w: pending %d, took %d, left %d, ran %v", ErrLayout, pending, len(took), after, ran)
	}
	// A taken job does not run at the outer call's return.
	if err := rt.Set("probe2", func(goja.FunctionCall) goja.Value {
		take(rt, off)
		return goja.Undefined()
	}); err != nil {
		return err
	}
	if _, err := rt.RunString(`ran = false; Promise.resolve().then(() => { ran = true; }); probe2();`); err != nil {
		return fmt.Errorf("%w: %v", ErrLayout, err)
	}
	if rt.Get("ran").ToBoolean() {
		return fmt.Errorf("%w: a taken job ran when the call returned", ErrLayout)
	}
	return nil
}

func queue(rt *goja.Runtime, off uintptr) *[]func() {
	return (*[]func())(unsafe.Add(unsafe.Pointer(rt), off))
}

func take(rt *goja.Runtime, off uintptr) []func() {
	q := queue(rt, off)
	jobs := *q
	*q = nil
	return jobs
}

// Pending returns how many promise jobs rt has queued and not run. Use it
// on the goroutine running rt, only after Check returned nil.
func Pending(rt *goja.Runtime) int {
	return len(*queue(rt, offset))
}

// Take removes the jobs rt has queued and returns them, in order: the
// caller runs them (each from inside a call into rt, so that goja handles
// what they throw) or drops them. Use it on the goroutine running rt, only
// after Check returned nil.
func Take(rt *goja.Runtime) []func() {
	return take(rt, offset)
}

// Drop discards the jobs rt has queued: they never run.
func Drop(rt *goja.Runtime) {
	_ = take(rt, offset)
}
