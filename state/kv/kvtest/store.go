package kvtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/state/kv"
)

type point struct{ X, Y int }

func testSetGetValues(t *testing.T, h handle) {
	tests := []struct {
		name string
		in   any
		want any
	}{
		{"string", "hello", "hello"},
		{"empty string", "", ""},
		{"int", 42, int64(42)},
		{"negative int64", int64(-7), int64(-7)},
		{"max int64", int64(math.MaxInt64), int64(math.MaxInt64)},
		{"min int64", int64(math.MinInt64), int64(math.MinInt64)},
		{"uint8", uint8(200), int64(200)},
		{"max uint64", uint64(math.MaxUint64), float64(math.MaxUint64)},
		{"fraction", 1.5, 1.5},
		{"integral float", 3.0, int64(3)},
		{"float32", float32(0.25), 0.25},
		{"huge float", 1e300, 1e300},
		{"json.Number", json.Number("12"), int64(12)},
		{"true", true, true},
		{"false", false, false},
		{"nil", nil, nil},
		{"slice", []any{"a", 1, true, nil}, []any{"a", int64(1), true, nil}},
		{"typed slice", []string{"x", "y"}, []any{"x", "y"}},
		{"map", map[string]any{"n": 1, "m": map[string]any{"k": []any{2.5}}},
			map[string]any{"n": int64(1), "m": map[string]any{"k": []any{2.5}}}},
		{"typed map", map[string]int{"a": 1}, map[string]any{"a": int64(1)}},
		{"struct", point{1, 2}, map[string]any{"X": int64(1), "Y": int64(2)}},
		{"invalid UTF-8", "a\xffb", "a\uFFFDb"},
		{"nested invalid UTF-8", []any{"\xc3"}, []any{"\uFFFD"}},
		{"html", "<a&b>", "<a&b>"},
	}
	s := h.s
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.Set(ctx, "k", tt.in, 0); err != nil {
				t.Fatal(err)
			}
			got, ok, err := s.Get(ctx, "k")
			if err != nil || !ok {
				t.Fatalf("Get = %v, %v, %v", got, ok, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Get = %#v (%T), want %#v (%T)", got, got, tt.want, tt.want)
			}
		})
	}
}

func testErrors(t *testing.T, h handle) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	bg := context.Background()
	tests := []ErrorCase{
		{"Set NaN", func(s kv.Store) error { return s.Set(bg, "k", math.NaN(), 0) }, nil},
		{"Set Inf", func(s kv.Store) error { return s.Set(bg, "k", math.Inf(1), 0) }, nil},
		{"Set chan", func(s kv.Store) error { return s.Set(bg, "k", make(chan int), 0) }, nil},
		{"Set nested func", func(s kv.Store) error { return s.Set(bg, "k", map[string]any{"f": func() {}}, 0) }, nil},
		{"Set negative ttl", func(s kv.Store) error { return s.Set(bg, "k", 1, -time.Second) }, nil},
		{"Incr negative ttl", func(s kv.Store) error { _, err := s.Incr(bg, "k", 1, -1); return err }, nil},
		{"CAS negative ttl", func(s kv.Store) error { _, err := s.CompareAndSwap(bg, "k", nil, 1, -1); return err }, nil},
		{"CAS bad old", func(s kv.Store) error { _, err := s.CompareAndSwap(bg, "k", math.NaN(), 1, 0); return err }, nil},
		{"CAS bad new", func(s kv.Store) error { _, err := s.CompareAndSwap(bg, "k", nil, make(chan int), 0); return err }, nil},
		{"Get empty key", func(s kv.Store) error { _, _, err := s.Get(bg, ""); return err }, kv.ErrEmptyKey},
		{"Set empty key", func(s kv.Store) error { return s.Set(bg, "", 1, 0) }, kv.ErrEmptyKey},
		{"Delete empty key", func(s kv.Store) error { return s.Delete(bg, "") }, kv.ErrEmptyKey},
		{"Incr empty key", func(s kv.Store) error { _, err := s.Incr(bg, "", 1, 0); return err }, kv.ErrEmptyKey},
		{"CAS empty key", func(s kv.Store) error { _, err := s.CompareAndSwap(bg, "", nil, 1, 0); return err }, kv.ErrEmptyKey},
		{"Get canceled", func(s kv.Store) error { _, _, err := s.Get(canceled, "k"); return err }, context.Canceled},
		{"Set canceled", func(s kv.Store) error { return s.Set(canceled, "k", 1, 0) }, context.Canceled},
		{"Delete canceled", func(s kv.Store) error { return s.Delete(canceled, "k") }, context.Canceled},
		{"Incr canceled", func(s kv.Store) error { _, err := s.Incr(canceled, "k", 1, 0); return err }, context.Canceled},
		{"CAS canceled", func(s kv.Store) error { _, err := s.CompareAndSwap(canceled, "k", nil, 1, 0); return err }, context.Canceled},
		{"Keys canceled", func(s kv.Store) error { _, err := s.Keys(canceled, ""); return err }, context.Canceled},
	}
	tests = append(tests, h.cfg.errorCases...)
	s := h.s
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			err := tt.Op(s)
			if err == nil {
				t.Fatal("no error")
			}
			if tt.Want != nil && !errors.Is(err, tt.Want) {
				t.Errorf("error %v, want %v", err, tt.Want)
			}
			if h.cfg.checkError != nil {
				h.cfg.checkError(t, err)
			}
			if _, ok, err := s.Get(context.Background(), "k"); err != nil || ok {
				t.Errorf("failed operation left k behind (ok=%v, err=%v)", ok, err)
			}
		})
	}
}

func testGetDelete(t *testing.T, h handle) {
	s := h.s
	ctx := context.Background()
	if v, ok, err := s.Get(ctx, "missing"); v != nil || ok || err != nil {
		t.Errorf("Get(missing) = %v, %v, %v", v, ok, err)
	}
	if err := s.Delete(ctx, "missing"); err != nil {
		t.Errorf("Delete(missing) = %v", err)
	}
	if err := s.Set(ctx, "k", "v", 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Set(ctx, "k", "w", 0); err != nil {
		t.Fatal(err)
	}
	if v, ok, _ := s.Get(ctx, "k"); v != "w" || !ok {
		t.Errorf("after overwrite Get = %v, %v", v, ok)
	}
	if err := s.Delete(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Get(ctx, "k"); ok {
		t.Error("k still there after Delete")
	}
	// A deleted key can be created again, by each kind of write.
	if ok, err := s.CompareAndSwap(ctx, "k", nil, "again", 0); !ok || err != nil {
		t.Errorf("CAS after Delete = %v, %v", ok, err)
	}
	s.Delete(ctx, "k")
	if n, err := s.Incr(ctx, "k", 1, 0); n != 1 || err != nil {
		t.Errorf("Incr after Delete = %v, %v", n, err)
	}
	// A stored null is a present key.
	if err := s.Set(ctx, "null", nil, 0); err != nil {
		t.Fatal(err)
	}
	if v, ok, _ := s.Get(ctx, "null"); v != nil || !ok {
		t.Errorf("Get(null) = %v, %v; want nil, true", v, ok)
	}
}

func testValuesAreCopies(t *testing.T, h handle) {
	s := h.s
	ctx := context.Background()
	in := map[string]any{"list": []any{"a"}, "obj": map[string]any{"n": 1}}
	if err := s.Set(ctx, "k", in, 0); err != nil {
		t.Fatal(err)
	}
	in["list"].([]any)[0] = "changed"
	in["obj"].(map[string]any)["n"] = 2
	got, _, _ := s.Get(ctx, "k")
	got.(map[string]any)["list"].([]any)[0] = "mutated"
	got.(map[string]any)["extra"] = true
	again, _, _ := s.Get(ctx, "k")
	want := map[string]any{"list": []any{"a"}, "obj": map[string]any{"n": int64(1)}}
	if !reflect.DeepEqual(again, want) {
		t.Errorf("stored value changed through a caller's map: %v", again)
	}
}

func testIncr(t *testing.T, h handle) {
	type step struct {
		delta int64
		want  int64
	}
	tests := []struct {
		name  string
		start any // nil: key absent
		steps []step
	}{
		{"from missing", nil, []step{{1, 1}, {1, 2}, {5, 7}}},
		{"negative", nil, []step{{-3, -3}, {1, -2}}},
		{"zero delta creates", nil, []step{{0, 0}, {0, 0}}},
		{"from stored int", 41, []step{{1, 42}}},
		{"from integral float", 2.0, []step{{1, 3}}},
		{"near max", int64(math.MaxInt64 - 1), []step{{1, math.MaxInt64}}},
		{"near min", int64(math.MinInt64 + 1), []step{{-1, math.MinInt64}}},
	}
	s := h.s
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s.Delete(ctx, "n")
			if tt.start != nil {
				if err := s.Set(ctx, "n", tt.start, 0); err != nil {
					t.Fatal(err)
				}
			}
			for _, st := range tt.steps {
				got, err := s.Incr(ctx, "n", st.delta, 0)
				if err != nil || got != st.want {
					t.Fatalf("Incr(%d) = %d, %v; want %d", st.delta, got, err, st.want)
				}
			}
			last := tt.steps[len(tt.steps)-1].want
			if v, _, _ := s.Get(ctx, "n"); v != last {
				t.Errorf("Get = %#v, want %d", v, last)
			}
		})
	}
}

func testIncrErrors(t *testing.T, h handle) {
	tests := []struct {
		name    string
		start   any
		delta   int64
		notInt  bool // errors.Is(err, kv.ErrNotInteger)
		wantNow any
	}{
		{"string", "7", 1, true, "7"},
		{"fraction", 1.5, 1, true, 1.5},
		{"bool", true, 1, true, true},
		{"null", nil, 1, true, nil},
		{"object", map[string]any{}, 1, true, map[string]any{}},
		{"overflow", int64(math.MaxInt64), 1, false, int64(math.MaxInt64)},
		{"underflow", int64(math.MinInt64), -1, false, int64(math.MinInt64)},
	}
	s := h.s
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.Set(ctx, "n", tt.start, 0); err != nil {
				t.Fatal(err)
			}
			_, err := s.Incr(ctx, "n", tt.delta, 0)
			if err == nil {
				t.Fatal("no error")
			}
			if got := errors.Is(err, kv.ErrNotInteger); got != tt.notInt {
				t.Errorf("errors.Is(%v, ErrNotInteger) = %v, want %v", err, got, tt.notInt)
			}
			if v, _, _ := s.Get(ctx, "n"); !reflect.DeepEqual(v, tt.wantNow) {
				t.Errorf("value after failed Incr = %#v, want %#v", v, tt.wantNow)
			}
		})
	}
}

func testIncrTTL(t *testing.T, h handle) {
	s, c := h.s, h.clock
	ctx := context.Background()
	incr := func(ttl time.Duration, want int64) {
		t.Helper()
		if n, err := s.Incr(ctx, "n", 1, ttl); err != nil || n != want {
			t.Fatalf("Incr = %d, %v; want %d", n, err, want)
		}
	}
	incr(10*time.Second, 1) // created: expires at +10s
	c.Advance(5 * time.Second)
	incr(time.Hour, 2) // existing: keeps the +10s expiry
	incr(0, 3)         // existing: keeps it too
	c.Advance(5 * time.Second)
	if _, ok, _ := s.Get(ctx, "n"); ok {
		t.Fatal("counter outlived the ttl it was created with")
	}
	incr(0, 1) // expired counts as 0; created without expiry
	c.Advance(1000 * time.Hour)
	incr(time.Second, 2) // still no expiry
	if _, ok, _ := s.Get(ctx, "n"); !ok {
		t.Fatal("counter created with ttl 0 expired")
	}
}

func testTTL(t *testing.T, h handle) {
	s, c := h.s, h.clock
	ctx := context.Background()
	if err := s.Set(ctx, "short", "v", time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := s.Set(ctx, "forever", "v", 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Set(ctx, "renewed", "v", time.Minute); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		advance time.Duration
		present map[string]bool
		act     func()
	}{
		{0, map[string]bool{"short": true, "forever": true, "renewed": true}, nil},
		{30 * time.Second, map[string]bool{"short": true, "forever": true, "renewed": true},
			func() { s.Set(ctx, "renewed", "v2", time.Minute) }},
		{30*time.Second - time.Nanosecond, map[string]bool{"short": true, "forever": true, "renewed": true}, nil},
		{time.Nanosecond, map[string]bool{"short": false, "forever": true, "renewed": true}, nil}, // exactly at expiry
		{time.Minute, map[string]bool{"short": false, "forever": true, "renewed": false}, nil},
		{10000 * time.Hour, map[string]bool{"short": false, "forever": true, "renewed": false}, nil},
	}
	for i, st := range steps {
		c.Advance(st.advance)
		for k, want := range st.present {
			if _, ok, err := s.Get(ctx, k); err != nil || ok != want {
				t.Errorf("step %d: Get(%s) present = %v, %v; want %v", i, k, ok, err, want)
			}
		}
		if st.act != nil {
			st.act()
		}
	}
	// The largest ttl is a valid one.
	if err := s.Set(ctx, "huge", "v", math.MaxInt64); err != nil {
		t.Errorf("Set with the largest ttl: %v", err)
	}
	if _, ok, err := s.Get(ctx, "huge"); !ok || err != nil {
		t.Errorf("Get(huge) = %v, %v", ok, err)
	}
	// A Set without ttl makes an expiring key permanent.
	s.Set(ctx, "k", 1, time.Second)
	s.Set(ctx, "k", 2, 0)
	c.Advance(time.Hour)
	if v, ok, _ := s.Get(ctx, "k"); !ok || v != int64(2) {
		t.Errorf("Get(k) = %v, %v after Set without ttl", v, ok)
	}
}

func testCompareAndSwap(t *testing.T, h handle) {
	tests := []struct {
		name     string
		start    any // absent when startSet is false
		startSet bool
		old, new any
		swapped  bool
		want     any // value afterwards; absent when wantSet is false
		wantSet  bool
	}{
		{"absent, old nil", nil, false, nil, "v", true, "v", true},
		{"present, old nil", "x", true, nil, "v", false, "x", true},
		{"stored null, old nil", nil, true, nil, "v", false, nil, true},
		{"absent, old value", nil, false, "x", "v", false, nil, false},
		{"equal string", "x", true, "x", "v", true, "v", true},
		{"different string", "x", true, "y", "v", false, "x", true},
		{"int vs float", 1, true, 1.0, 2, true, int64(2), true},
		{"int vs int64", int64(5), true, 5, 6, true, int64(6), true},
		{"number vs string", 1, true, "1", 2, false, int64(1), true},
		{"different objects", map[string]any{"a": []any{1, "b"}}, true, map[string]any{"a": []any{1}}, 0, false,
			map[string]any{"a": []any{int64(1), "b"}}, true},
		{"JSON-equal objects", map[string]any{"a": []any{1, "b"}}, true, map[string]any{"a": []any{1.0, "b"}}, 0, true, int64(0), true},
		{"struct vs map", map[string]any{"X": 1, "Y": 2}, true, point{1, 2}, "p", true, "p", true},
		{"swap to null", "x", true, "x", nil, true, nil, true},
		{"bool", true, true, false, "v", false, true, true},
	}
	s := h.s
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s.Delete(ctx, "k")
			if tt.startSet {
				if err := s.Set(ctx, "k", tt.start, 0); err != nil {
					t.Fatal(err)
				}
			}
			swapped, err := s.CompareAndSwap(ctx, "k", tt.old, tt.new, 0)
			if err != nil || swapped != tt.swapped {
				t.Fatalf("CompareAndSwap = %v, %v; want %v", swapped, err, tt.swapped)
			}
			v, ok, err := s.Get(ctx, "k")
			if err != nil || ok != tt.wantSet || !reflect.DeepEqual(v, tt.want) {
				t.Errorf("afterwards Get = %#v, %v, %v; want %#v, %v", v, ok, err, tt.want, tt.wantSet)
			}
		})
	}
}

func testCompareAndSwapTTL(t *testing.T, h handle) {
	s, c := h.s, h.clock
	ctx := context.Background()
	if ok, _ := s.CompareAndSwap(ctx, "lease", nil, "a", time.Minute); !ok {
		t.Fatal("first acquire failed")
	}
	if ok, _ := s.CompareAndSwap(ctx, "lease", nil, "b", time.Minute); ok {
		t.Fatal("second acquire succeeded while the lease is live")
	}
	c.Advance(time.Minute)
	if ok, _ := s.CompareAndSwap(ctx, "lease", "a", "a", time.Minute); ok {
		t.Fatal("swapped an expired value")
	}
	if ok, _ := s.CompareAndSwap(ctx, "lease", nil, "b", 0); !ok {
		t.Fatal("acquire after expiry failed")
	}
	c.Advance(1000 * time.Hour)
	if v, ok, _ := s.Get(ctx, "lease"); !ok || v != "b" {
		t.Errorf("Get = %v, %v; want b without expiry", v, ok)
	}
}

func testKeys(t *testing.T, h handle) {
	s, c := h.s, h.clock
	ctx := context.Background()
	for _, k := range []string{"b/2", "a/1", "b/1", "b/10", "c", "bb"} {
		if err := s.Set(ctx, k, 1, 0); err != nil {
			t.Fatal(err)
		}
	}
	s.Set(ctx, "b/expiring", 1, time.Second)
	s.Set(ctx, "b/deleted", 1, 0)
	s.Delete(ctx, "b/deleted")
	tests := []struct {
		prefix  string
		advance time.Duration
		want    []string
	}{
		{"", 0, []string{"a/1", "b/1", "b/10", "b/2", "b/expiring", "bb", "c"}},
		{"b/", 0, []string{"b/1", "b/10", "b/2", "b/expiring"}},
		{"b/", time.Second, []string{"b/1", "b/10", "b/2"}},
		{"b", 0, []string{"b/1", "b/10", "b/2", "bb"}},
		{"b/1", 0, []string{"b/1", "b/10"}},
		{"zzz", 0, []string{}},
		{"zzz/", 0, []string{}},
	}
	for _, tt := range tests {
		c.Advance(tt.advance)
		got, err := s.Keys(ctx, tt.prefix)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Keys(%q) = %q, %v; want %q", tt.prefix, got, err, tt.want)
		}
	}
}

// testConcurrent hammers one store from many goroutines, half of them
// through a second handle when WithReopen gives one.
func testConcurrent(t *testing.T, h handle) {
	const workers, rounds = 8, 25
	ctx := context.Background()
	stores := []kv.Store{h.s}
	if h.again != nil {
		stores = append(stores, h.again())
	}
	var wg sync.WaitGroup
	for w := range workers {
		s := stores[w%len(stores)]
		wg.Go(func() {
			for i := range rounds {
				if _, err := s.Incr(ctx, "n", 1, 0); err != nil {
					t.Error(err)
					return
				}
				if err := s.Set(ctx, fmt.Sprintf("w/%d/%d", w, i), i, 0); err != nil {
					t.Error(err)
					return
				}
				if _, _, err := s.Get(ctx, "n"); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if v, _, _ := h.s.Get(ctx, "n"); v != int64(workers*rounds) {
		t.Errorf("n = %v, want %d", v, workers*rounds)
	}
	if ks, _ := h.s.Keys(ctx, "w/"); len(ks) != workers*rounds {
		t.Errorf("%d keys, want %d", len(ks), workers*rounds)
	}
}

// testAgreesWithMemory runs one pseudo-random script of operations
// against the store and a kv.Memory sharing its clock and requires
// identical results at every step. The keys include characters and
// empty segments a store may have to encode.
func testAgreesWithMemory(t *testing.T, h handle) {
	c := h.clock
	mem := kv.NewMemory(kv.WithClock(c.Now))
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	keys := []string{"a", "b", "c/1", "c/2", "c.d/e", "c/", "/"}
	values := []any{nil, 0, 1, 2.5, "s", true, []any{1}, map[string]any{"x": 1}}
	ttls := []time.Duration{0, 0, time.Second, 5 * time.Second}
	type result struct {
		V  any
		OK bool
		N  int64
		E  bool
	}
	steps := 400
	if testing.Short() {
		steps = 100
	}
	for step := range steps {
		k := keys[rng.IntN(len(keys))]
		v := values[rng.IntN(len(values))]
		ttl := ttls[rng.IntN(len(ttls))]
		op := rng.IntN(7)
		run := func(s kv.Store) result {
			switch op {
			case 0:
				v, ok, err := s.Get(ctx, k)
				return result{V: v, OK: ok, E: err != nil}
			case 1:
				return result{E: s.Set(ctx, k, v, ttl) != nil}
			case 2:
				return result{E: s.Delete(ctx, k) != nil}
			case 3:
				n, err := s.Incr(ctx, k, int64(rng.IntN(5))-2, ttl)
				return result{N: n, E: err != nil}
			case 4:
				ok, err := s.CompareAndSwap(ctx, k, v, values[step%len(values)], ttl)
				return result{OK: ok, E: err != nil}
			case 5:
				ks, err := s.Keys(ctx, k[:1])
				return result{V: ks, E: err != nil}
			default:
				c.Advance(time.Duration(rng.IntN(3000)) * time.Millisecond)
				return result{}
			}
		}
		seed := rng.Uint64()
		rng = rand.New(rand.NewPCG(seed, 0))
		a := run(mem)
		rng = rand.New(rand.NewPCG(seed, 0))
		if op == 6 {
			continue // the clock moved once; do not move it twice
		}
		b := run(h.s)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("step %d op %d key %s: Memory %#v, store %#v", step, op, k, a, b)
		}
	}
}
