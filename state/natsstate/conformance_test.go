package natsstate_test

// The kv.Store semantics, as state/kv/kvtest pins them for every store,
// checked against the JetStream store, plus what only a store that maps
// keys onto NATS subjects can get wrong.

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/hookctl/hookctl/state/kv"
	"github.com/hookctl/hookctl/state/kv/kvtest"
	"github.com/hookctl/hookctl/state/natsstate"
)

// TestStore runs the kv.Store conformance suite against a fresh bucket
// per test, directly and scoped. Beyond the common refusals, a value over
// the server's max payload and a key whose subject would not fit a
// protocol line are refused, and no refusal of a bad argument blames
// NATS's availability. The concurrent goroutines share the bucket over
// two connections.
func TestStore(t *testing.T) {
	bg := context.Background()
	kvtest.Run(t, func(t *testing.T, clock func() time.Time) kv.Store {
		return openShared(t, natsstate.WithClock(clock)).KV()
	},
		kvtest.WithErrorCases(
			kvtest.ErrorCase{Name: "Set over max payload", Op: func(s kv.Store) error { return s.Set(bg, "k", string(make([]byte, 2<<20)), 0) }, Want: nats.ErrMaxPayload},
			kvtest.ErrorCase{Name: "Set huge key", Op: func(s kv.Store) error { return s.Set(bg, string(make([]byte, 2000)), 1, 0) }, Want: natsstate.ErrKeyTooLong},
		),
		kvtest.WithErrorCheck(func(t *testing.T, err error) {
			if errors.Is(err, natsstate.ErrUnavailable) {
				t.Errorf("error %v blames NATS's availability", err)
			}
		}),
		kvtest.WithReopen(func(t *testing.T, _ kv.Store) kv.Store {
			return openShared(t).KV() // the bucket is named after t
		}),
	)
}

// TestLoopStore runs the loop store suite against the JetStream bucket,
// through State.Loops.
func TestLoopStore(t *testing.T) {
	kvtest.RunLoopStore(t, func(t *testing.T, clock func() time.Time) (kvtest.LoopStore, kv.Store) {
		st := openShared(t, natsstate.WithClock(clock))
		return st.Loops(), st.KV()
	})
}

// oddKeys are keys whose bytes JetStream KV keys cannot hold as they are,
// or that collide with the encoding's own characters.
var oddKeys = []string{
	"plain", "with.dot", "a..b", ".lead", "trail.", "sp ace", "tab\tkey", "star*", "gt>", "*", ">",
	"eq=", "=3D", "=", "==", "pct%41", "slash/", "/lead", "a//b", "/", "//", "ünïcødé", "emoji🙂",
	"dollar$", "nul\x00byte", "session/s1/tool.calls", "session/s1.x/k", "session/s1/", "session/s1",
	"session/s10/k", "A", "a", "_", "-", "a-b_c",
}

func TestOddKeys(t *testing.T) {
	ctx := context.Background()
	s := openShared(t).KV()
	mem := kv.NewMemory()
	for i, k := range oddKeys {
		for _, st := range []kv.Store{s, mem} {
			if err := st.Set(ctx, k, i, 0); err != nil {
				t.Fatalf("Set(%q): %v", k, err)
			}
		}
	}
	for i, k := range oddKeys {
		if v, ok, err := s.Get(ctx, k); err != nil || !ok || v != int64(i) {
			t.Errorf("Get(%q) = %v, %v, %v; want %d", k, v, ok, err, i)
		}
	}
	prefixes := []string{"", "a", "a/", "a.", "session", "session/", "session/s1", "session/s1/", "session/s1.",
		"/", "//", "=", "*", ">", "slash", "slash/", "trail.", "ü", "\xc3", "e", "emoji🙂"}
	prefixes = append(prefixes, oddKeys...)
	for _, p := range prefixes {
		got, err := s.Keys(ctx, p)
		want, _ := mem.Keys(ctx, p)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Keys(%q) = %q, %v; want %q", p, got, err, want)
		}
	}
}
