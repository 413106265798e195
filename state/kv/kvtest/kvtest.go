package kvtest

import (
	"testing"
	"time"

	"github.com/hookctl/hookctl/state/kv"
)

// Open returns a fresh, empty store that reads the time from clock only.
// It may use t for temporary directories and cleanup, and fails t when it
// cannot open the store.
type Open func(t *testing.T, clock func() time.Time) kv.Store

// ErrorCase is an operation a store must refuse, leaving the key "k"
// absent.
type ErrorCase struct {
	Name string
	Op   func(s kv.Store) error
	Want error // the error must match it (errors.Is); nil: any error
}

// Option adds to what Run checks.
type Option func(*config)

type config struct {
	errorCases []ErrorCase
	checkError func(t *testing.T, err error)
	reopen     func(t *testing.T, s kv.Store) kv.Store
}

// WithErrorCases adds operations the implementation refuses beyond those
// every store refuses (limits of its own, say).
func WithErrorCases(cases ...ErrorCase) Option {
	return func(c *config) { c.errorCases = append(c.errorCases, cases...) }
}

// WithErrorCheck makes the Errors test call check with every error a
// refused operation returned, for what the implementation promises of
// its errors beyond errors.Is (that a bad argument is not blamed on the
// backend, say).
func WithErrorCheck(check func(t *testing.T, err error)) Option {
	return func(c *config) { c.checkError = check }
}

// WithReopen gives the Concurrent test a second handle on the data of a
// store Open returned, as another component of the process would hold
// (a second File on the same path, a second connection to the same
// bucket); half of the goroutines use it. Without it they all share one.
func WithReopen(reopen func(t *testing.T, s kv.Store) kv.Store) Option {
	return func(c *config) { c.reopen = reopen }
}

// Scope is the scope of the Scoped runs; its dot and slash exercise
// implementations that map keys onto another alphabet.
const Scope = "s.1/x"

// handle is what one test gets: a fresh store, its clock and, for the
// Concurrent test, a way to a second handle on the same data.
type handle struct {
	s     kv.Store
	clock *Clock
	cfg   *config
	again func() kv.Store // nil without WithReopen
}

// Run runs the conformance tests against stores open returns, each test
// as t.Run(name) with two subtests: "Store", the store itself, and
// "Scoped", the store seen through kv.Scoped(s, kv.SessionScope(Scope)).
// Every subtest opens a store of its own with a Clock of its own.
//
// The tests: SetGetValues, Errors, GetDelete, ValuesAreCopies, Incr,
// IncrErrors, IncrTTL, TTL, CompareAndSwap, CompareAndSwapTTL, Keys,
// Concurrent (run it with -race) and AgreesWithMemory (a pseudo-random
// script whose every result must equal kv.Memory's).
func Run(t *testing.T, open Open, opts ...Option) {
	cfg := &config{}
	for _, opt := range opts {
		if opt != nil {
			opt(cfg)
		}
	}
	tests := []struct {
		name string
		fn   func(t *testing.T, h handle)
	}{
		{"SetGetValues", testSetGetValues},
		{"Errors", testErrors},
		{"GetDelete", testGetDelete},
		{"ValuesAreCopies", testValuesAreCopies},
		{"Incr", testIncr},
		{"IncrErrors", testIncrErrors},
		{"IncrTTL", testIncrTTL},
		{"TTL", testTTL},
		{"CompareAndSwap", testCompareAndSwap},
		{"CompareAndSwapTTL", testCompareAndSwapTTL},
		{"Keys", testKeys},
		{"Concurrent", testConcurrent},
		{"AgreesWithMemory", testAgreesWithMemory},
	}
	variants := []struct {
		name string
		wrap func(kv.Store) kv.Store
	}{
		{"Store", func(s kv.Store) kv.Store { return s }},
		{"Scoped", func(s kv.Store) kv.Store { return kv.Scoped(s, kv.SessionScope(Scope)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, v := range variants {
				t.Run(v.name, func(t *testing.T) {
					c := NewClock()
					s := open(t, c.Now)
					h := handle{s: v.wrap(s), clock: c, cfg: cfg}
					if cfg.reopen != nil {
						h.again = func() kv.Store { return v.wrap(cfg.reopen(t, s)) }
					}
					tt.fn(t, h)
				})
			}
		})
	}
}
