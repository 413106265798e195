// Package kvtest is the conformance suite of kv.Store: the behaviour the
// kv package documents for Store, pinned as tables that every
// implementation (kv.Memory, kv.File, natsstate's JetStream store) runs
// as it is, directly and through kv.Scoped. state.TestBackends runs it,
// and RunLoopStore, through state.Shared against every backend a state
// URL can name (memory:, file:, NATS on a real server).
//
//	func TestStore(t *testing.T) {
//		kvtest.Run(t, func(t *testing.T, clock func() time.Time) kv.Store {
//			return kv.NewMemory(kv.WithClock(clock))
//		})
//	}
//
// Run gives every store it opens a Clock of its own, which the expiry
// tests move by hand, so an implementation must read the time only from
// the clock it is given. RunLoopStore checks the Stop loop guard's count
// kept in a store (kv.LoopStore). The package is meant for tests only.
package kvtest
