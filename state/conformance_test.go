package state_test

// The conformance suite of the state backends: state/kv/kvtest's Run
// (the kv.Store semantics) and RunLoopStore (the Stop loop guard's
// counts), run through a state.Shared against every backend a state URL
// can name, NATS on a real server. A new backend is a new row.

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/hookctl/hookctl/state"
	"github.com/hookctl/hookctl/state/kv"
	"github.com/hookctl/hookctl/state/kv/kvtest"
	"github.com/hookctl/hookctl/state/natsbackend"
	"github.com/hookctl/hookctl/state/natsstate"
	"github.com/hookctl/hookctl/state/natsstate/natstest"
)

// conformanceCase is one backend of the suite.
type conformanceCase struct {
	kind state.Kind
	// fresh returns a state URL naming an empty store of the backend and
	// the options a Shared needs to open it (and to open it again, for a
	// second handle on the same data).
	fresh func(t *testing.T) (url string, opts []state.Option)
	// shared: a second Shared on the same URL sees the same data (not
	// so for memory, which is the process's own).
	shared bool
	// kvOpts add to what kvtest.Run checks.
	kvOpts []kvtest.Option
}

// conformanceCases are the backends of the suite, the NATS one on srv.
func conformanceCases(srv func(t *testing.T) string) []conformanceCase {
	var buckets atomic.Int64
	bg := context.Background()
	return []conformanceCase{
		{
			kind:  state.KindMemory,
			fresh: func(*testing.T) (string, []state.Option) { return "memory:", nil },
		},
		{
			kind: state.KindFile,
			fresh: func(t *testing.T) (string, []state.Option) {
				return state.Backend{File: filepath.Join(t.TempDir(), "state", "kv.json")}.URL(), nil
			},
			shared: true,
		},
		{
			kind: state.KindNATS,
			fresh: func(t *testing.T) (string, []state.Option) {
				name := fmt.Sprintf("conf%d", buckets.Add(1))
				return srv(t), []state.Option{state.WithNATS(natsbackend.Opener(
					natsstate.WithBucket(name), natsstate.WithAuditStream("A"+name, "audit."+name)))}
			},
			shared: true,
			kvOpts: []kvtest.Option{
				kvtest.WithErrorCases(
					kvtest.ErrorCase{Name: "Set over max payload", Op: func(s kv.Store) error { return s.Set(bg, "k", string(make([]byte, 2<<20)), 0) }, Want: nats.ErrMaxPayload},
					kvtest.ErrorCase{Name: "Set huge key", Op: func(s kv.Store) error { return s.Set(bg, string(make([]byte, 2000)), 1, 0) }, Want: natsstate.ErrKeyTooLong},
				),
				kvtest.WithErrorCheck(func(t *testing.T, err error) {
					if errors.Is(err, natsstate.ErrUnavailable) {
						t.Errorf("error %v blames NATS's availability", err)
					}
				}),
			},
		},
	}
}

// openShared returns a Shared on url with opts and the clock, closed when
// the test ends.
func openShared(t *testing.T, url string, clock func() time.Time, opts ...state.Option) *state.Shared {
	t.Helper()
	b, err := state.ParseBackend(state.SettingState, url)
	if err != nil {
		t.Fatal(err)
	}
	s := state.New("hookctl state test", append([]state.Option{state.WithClock(clock)}, opts...)...)
	s.Use(b)
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return s
}

// TestBackends runs the conformance suite against every backend, through
// a Shared opened from its state URL: kvtest.Run (directly and scoped;
// for file and NATS half of the Concurrent goroutines on a second Shared
// on the same URL) and kvtest.RunLoopStore on kv.LoopStore of the
// Shared, which is the loop store the engine gets (EngineOptions).
func TestBackends(t *testing.T) {
	var srv *natstest.Server
	cases := conformanceCases(func(t *testing.T) string {
		if srv == nil {
			t.Fatal("no NATS server")
		}
		return srv.URL()
	})
	covered := map[state.Kind]bool{}
	for _, c := range cases {
		covered[c.kind] = true
	}
	for _, k := range state.Kinds() {
		if !covered[k] {
			t.Errorf("backend %s has no row in the conformance suite", k)
		}
	}
	srv = natstest.Start(t)
	for _, c := range cases {
		t.Run(string(c.kind), func(t *testing.T) {
			t.Run("Store", func(t *testing.T) {
				urls := map[kv.Store]string{}
				opts := append([]kvtest.Option{}, c.kvOpts...)
				var optsOf = map[kv.Store][]state.Option{}
				if c.shared {
					opts = append(opts, kvtest.WithReopen(func(t *testing.T, s kv.Store) kv.Store {
						return openShared(t, urls[s], time.Now, optsOf[s]...)
					}))
				}
				kvtest.Run(t, func(t *testing.T, clock func() time.Time) kv.Store {
					url, o := c.fresh(t)
					s := openShared(t, url, clock, o...)
					if got := s.BackendInUse().Kind(); got != c.kind {
						t.Fatalf("%s opens a %s backend", url, got)
					}
					urls[s], optsOf[s] = url, o
					return s
				}, opts...)
			})
			t.Run("LoopStore", func(t *testing.T) {
				kvtest.RunLoopStore(t, func(t *testing.T, clock func() time.Time) (kvtest.LoopStore, kv.Store) {
					url, o := c.fresh(t)
					s := openShared(t, url, clock, o...)
					return kv.LoopStore(s), s
				})
			})
		})
	}
}
