package natsstate_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookctl/hookctl/state/kv"
	"github.com/hookctl/hookctl/state/natsstate"
)

// replicas opens n States with their own connections on one bucket, as n
// hookctl serve replicas would.
func replicas(t *testing.T, url string, n int, opts ...natsstate.Option) []*natsstate.State {
	t.Helper()
	name := bucketName(t)
	opts = append([]natsstate.Option{
		natsstate.WithBucket(name),
		natsstate.WithAuditStream("A"+name, "audit."+name),
	}, opts...)
	var sts []*natsstate.State
	for range n {
		sts = append(sts, open(t, url, opts...))
	}
	return sts
}

// incrAll runs perReplica Incr calls of key on every replica, spread over
// workers goroutines each, and returns every value Incr returned.
func incrAll(t *testing.T, sts []*natsstate.State, key string, perReplica, workers int) []int64 {
	t.Helper()
	var mu sync.Mutex
	var got []int64
	var wg sync.WaitGroup
	for _, st := range sts {
		for w := range workers {
			n := perReplica / workers
			if w < perReplica%workers {
				n++
			}
			wg.Go(func() {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				for range n {
					v, err := st.KV().Incr(ctx, key, 1, 0)
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					got = append(got, v)
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	return got
}

// checkCounts requires values to be exactly 1..n: every increment landed
// once and no two saw the same result.
func checkCounts(t *testing.T, values []int64, n int) {
	t.Helper()
	slices.Sort(values)
	if len(values) != n {
		t.Fatalf("%d increments returned, want %d", len(values), n)
	}
	for i, v := range values {
		if v != int64(i+1) {
			t.Fatalf("increment results are not 1..%d: at %d have %d (lost or duplicated update)", n, i, v)
		}
	}
}

// TestReplicasIncr: two replicas each increment one counter 1,000 times,
// 16 goroutines apiece, racing on every write.
func TestReplicasIncr(t *testing.T) {
	// 32 writers on one key, on a loaded machine: an unlucky one may lose
	// many rounds in a row, so give each Incr as long as its context.
	sts := replicas(t, sharedServer(t).URL(), 2, natsstate.WithTimeout(2*time.Minute))
	values := incrAll(t, sts, "global/fires", 1000, 16)
	checkCounts(t, values, 2000)
	for i, st := range sts {
		if v, _, err := st.KV().Get(context.Background(), "global/fires"); v != int64(2000) || err != nil {
			t.Errorf("replica %d reads %v, %v; want 2000", i, v, err)
		}
	}
}

// TestReplicasCompareAndSwap: for each of 50 keys, 4 goroutines on each of
// two replicas try to create the key at once; exactly one wins. Then a
// counter kept with a CAS retry loop from both replicas ends exact.
func TestReplicasCompareAndSwap(t *testing.T) {
	sts := replicas(t, sharedServer(t).URL(), 2)
	ctx := context.Background()
	const keys, perReplica = 50, 4
	for k := range keys {
		key := fmt.Sprintf("lease/%d", k)
		var wins atomic.Int32
		var winner atomic.Value
		var wg sync.WaitGroup
		for r, st := range sts {
			for g := range perReplica {
				id := fmt.Sprintf("r%d-g%d", r, g)
				wg.Go(func() {
					ok, err := st.KV().CompareAndSwap(ctx, key, nil, id, time.Minute)
					if err != nil {
						t.Error(err)
					}
					if ok {
						wins.Add(1)
						winner.Store(id)
					}
				})
			}
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("%s: %d winners, want exactly 1", key, wins.Load())
		}
		if v, _, _ := sts[1].KV().Get(ctx, key); v != winner.Load() {
			t.Fatalf("%s holds %v, but %v won", key, v, winner.Load())
		}
	}

	// A counter kept with CAS: read, then swap in +1, retrying on loss.
	const rounds = 100
	var wg sync.WaitGroup
	for _, st := range sts {
		for range 4 {
			wg.Go(func() {
				for range rounds / 4 {
					for {
						v, _, err := st.KV().Get(ctx, "cas-counter")
						if err != nil {
							t.Error(err)
							return
						}
						n, _ := v.(int64)
						var old any = n
						if v == nil {
							old = nil
						}
						ok, err := st.KV().CompareAndSwap(ctx, "cas-counter", old, n+1, 0)
						if err != nil {
							t.Error(err)
							return
						}
						if ok {
							break
						}
					}
				}
			})
		}
	}
	wg.Wait()
	if v, _, _ := sts[0].KV().Get(ctx, "cas-counter"); v != int64(2*rounds) {
		t.Errorf("cas-counter = %v, want %d", v, 2*rounds)
	}
}

// TestReplicasLoopStore: the Stop loop guard's streak is one streak
// whichever replica the load balancer sends each Stop event to.
func TestReplicasLoopStore(t *testing.T) {
	sts := replicas(t, sharedServer(t).URL(), 2)
	ctx := context.Background()
	a, b := sts[0].Loops(), sts[1].Loops()
	for n := 1; n <= 4; n++ {
		w, r := a, b
		if n%2 == 0 {
			w, r = b, a
		}
		if err := w.SetLoopCount(ctx, "Stop/sess-1", n); err != nil {
			t.Fatal(err)
		}
		for i, ls := range []natsstate.LoopStore{r, w} {
			if got, err := ls.LoopCount(ctx, "Stop/sess-1"); got != n || err != nil {
				t.Fatalf("after set %d, replica %d reads %d, %v", n, i, got, err)
			}
		}
	}
	if err := b.SetLoopCount(ctx, "Stop/sess-1", 0); err != nil {
		t.Fatal(err)
	}
	if got, _ := a.LoopCount(ctx, "Stop/sess-1"); got != 0 {
		t.Errorf("reset on one replica, the other reads %d", got)
	}
	// The counts are kv keys like any other, shared through the bucket.
	if err := a.SetLoopCount(ctx, "SubagentStop/sess-1/agent.7", 2); err != nil {
		t.Fatal(err)
	}
	ks, err := kv.Scoped(sts[1].KV(), "stopguard").Keys(ctx, "")
	if err != nil || !slices.Equal(ks, []string{"SubagentStop/sess-1/agent.7"}) {
		t.Errorf("stopguard keys = %q, %v", ks, err)
	}
}
