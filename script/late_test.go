package script

import (
	"context"
	"testing"
	"time"
)

// TestLateFiringsMissTheNextCall: the deadline timer or the context
// callback of a call that ended, running late, after the next call on the
// runtime began, leaves that call alone.
func TestLateFiringsMissTheNextCall(t *testing.T) {
	vm := checkedOut(t)
	// The first call: its context ends while it runs; its callback is
	// held back until the next call began.
	ctx, cancel := context.WithCancel(context.Background())
	vm.begin(ctx, nil, nil, time.Now().Add(time.Hour), time.Hour)
	first := vm.seq
	vm.end()
	cancel()
	vm.begin(context.Background(), nil, nil, time.Now().Add(time.Hour), time.Hour)
	vm.interruptCall(first, context.Canceled) // the first call's callback, late
	vm.onTimer()                              // a timer firing meant for the first call
	vm.mu.Lock()
	hit := vm.interrupted
	vm.mu.Unlock()
	vm.end()
	if hit {
		t.Fatal("a late firing of the previous call interrupted the next one")
	}
	// The call's own firings still interrupt it.
	vm.begin(context.Background(), nil, nil, time.Now().Add(-time.Millisecond), 0)
	vm.onTimer()
	vm.mu.Lock()
	hit = vm.interrupted
	vm.mu.Unlock()
	vm.end()
	if !hit {
		t.Fatal("the call's own deadline did not interrupt it")
	}
}

// checkedOut is a runtime checked out of a pool of its own, released and
// the pool closed when the test ends.
func checkedOut(t *testing.T) *VM {
	t.Helper()
	p, err := NewPool(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	vm, _, err := p.acquire(t.Context(), time.Time{}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.release(vm) })
	return vm
}
