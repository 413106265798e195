package script

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"
)

type ctxKey struct{}

// interruptedNow reports whether the call in progress was interrupted.
func interruptedNow(vm *VM) bool {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	return vm.interrupted
}

// TestContextWatcher: the runtime's context watcher, kept from call to
// call while their contexts end together, against what a watcher per
// call does (watchEach, the plain path) and what both must do: a call is
// interrupted when its context is done when it begins or ends while it
// runs, and never because another context ended, before, during or after
// it. Random steps over three cancellable contexts, each also seen
// through a value-carrying child (the same Done channel), and the
// background context (no Done).
func TestContextWatcher(t *testing.T) {
	for _, each := range []bool{true, false} {
		name := "shared"
		if each {
			name = "per-call"
		}
		t.Run(name, func(t *testing.T) {
			vm := checkedOut(t)
			vm.watchEach = each
			rng := rand.New(rand.NewPCG(7, 9))
			type slot struct {
				ctx    context.Context
				cancel context.CancelFunc
			}
			var slots [3]slot
			renew := func(i int) {
				ctx, cancel := context.WithCancel(context.Background())
				slots[i] = slot{ctx, cancel}
			}
			for i := range slots {
				renew(i)
			}
			armed, armedSlot, expect := false, -1, false
			steps := 3000
			if testing.Short() {
				steps = 500
			}
			for step := range steps {
				switch op := rng.IntN(10); {
				case op < 3 && !armed:
					i := rng.IntN(4)
					ctx := context.Background()
					if i < 3 {
						ctx = slots[i].ctx
						if rng.IntN(2) == 0 {
							ctx = context.WithValue(ctx, ctxKey{}, step)
						}
					}
					vm.begin(ctx, nil, nil, time.Time{}, 0)
					armed, armedSlot, expect = true, i, i < 3 && slots[i].ctx.Err() != nil
				case op < 6:
					i := rng.IntN(3)
					if slots[i].ctx.Err() == nil {
						slots[i].cancel()
						if armed && armedSlot == i {
							expect = true
						}
					} else if rng.IntN(2) == 0 {
						renew(i)
					}
				case op < 9 && armed:
					if expect {
						deadline := time.Now().Add(10 * time.Second)
						for !interruptedNow(vm) {
							if time.Now().After(deadline) {
								t.Fatalf("step %d: the call's context ended (slot %d) and it was not interrupted", step, armedSlot)
							}
							time.Sleep(50 * time.Microsecond)
						}
					} else if interruptedNow(vm) {
						t.Fatalf("step %d: interrupted, though its context (slot %d) did not end", step, armedSlot)
					}
					vm.end()
					vm.broken = false
					armed = false
				default:
					// A pause: late watchers run.
					time.Sleep(time.Duration(rng.IntN(50)) * time.Microsecond)
				}
			}
			if armed {
				vm.end()
			}
			for i := range slots {
				slots[i].cancel()
			}
		})
	}
}

// TestWatcherBetweenCalls: the context of a fire ends between two of
// its hooks, while no call runs, so the kept watcher finds nothing to
// interrupt; the next hook of that fire is interrupted at once all the
// same. A watcher kept from an earlier fire does not interrupt a later
// fire's call when the earlier fire's context ends.
func TestWatcherBetweenCalls(t *testing.T) {
	vm := checkedOut(t)
	fire, cancel := context.WithCancel(context.Background())
	vm.begin(fire, nil, nil, time.Time{}, 0)
	vm.end()
	cancel()
	time.Sleep(10 * time.Millisecond) // the watcher ran, with no call armed
	vm.begin(fire, nil, nil, time.Time{}, 0)
	if !interruptedNow(vm) {
		t.Error("the next hook of a cancelled fire was not interrupted")
	}
	vm.end()
	vm.broken = false

	first, cancelFirst := context.WithCancel(context.Background())
	vm.begin(first, nil, nil, time.Time{}, 0)
	vm.end()
	second, cancelSecond := context.WithCancel(context.Background())
	defer cancelSecond()
	vm.begin(second, nil, nil, time.Time{}, 0)
	cancelFirst()
	time.Sleep(10 * time.Millisecond)
	if interruptedNow(vm) {
		t.Error("the end of an earlier fire's context interrupted a later fire's hook")
	}
	cancelSecond()
	deadline := time.Now().Add(10 * time.Second)
	for !interruptedNow(vm) {
		if time.Now().After(deadline) {
			t.Fatal("the hook's own fire ended and it was not interrupted")
		}
		time.Sleep(100 * time.Microsecond)
	}
	vm.end()
}
