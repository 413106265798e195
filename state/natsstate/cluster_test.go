package natsstate_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/hookctl/hookctl/state/natsstate"
)

// streamInfo reads a stream's info through a plain client.
func streamInfo(t *testing.T, url, stream string) *jetstream.StreamInfo {
	t.Helper()
	js, done := plainJS(t, url)
	defer done()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := js.Stream(ctx, stream)
	if err != nil {
		t.Fatal(err)
	}
	return s.CachedInfo()
}

// TestClusterR3 runs two replicas against a 3-node cluster holding the
// bucket and the audit stream on all three nodes (R3): concurrent
// increments are exact; then the node leading the bucket's stream is
// killed while the increments go on, and they keep going: a new leader
// takes over and the client that was connected to the dead node moves to
// another.
func TestClusterR3(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 3-node cluster")
	}
	nodes := startCluster(t, 3)
	url := clusterURL(nodes)
	name := bucketName(t)
	opts := []natsstate.Option{natsstate.WithBucket(name), natsstate.WithAuditStream("A"+name, "audit."+name), natsstate.WithReplicas(3), natsstate.WithTimeout(time.Minute)}
	// Each replica connects to a node of its own first.
	a := open(t, nodes[0].URL()+","+url, append(opts, natsstate.WithNATSOptions(nats.DontRandomize()))...)
	b := open(t, nodes[1].URL()+","+url, append(opts, natsstate.WithNATSOptions(nats.DontRandomize()))...)
	for _, s := range []string{"KV_" + name, "A" + name} {
		if info := streamInfo(t, url, s); info.Config.Replicas != 3 || info.Cluster == nil || len(info.Cluster.Replicas) != 2 {
			t.Fatalf("stream %s: %d replicas configured, cluster %+v", s, info.Config.Replicas, info.Cluster)
		}
	}

	t.Run("incr", func(t *testing.T) {
		checkCounts(t, incrAll(t, []*natsstate.State{a, b}, "global/n", 300, 8), 600)
	})

	t.Run("kill leader", func(t *testing.T) {
		leader := streamInfo(t, url, "KV_"+name).Cluster.Leader
		var victim *testServer
		for _, n := range nodes {
			if n.Name() == leader {
				victim = n
			}
		}
		if victim == nil {
			t.Fatalf("leader %q is none of the nodes", leader)
		}
		const perWorker = 60
		var (
			mu        sync.Mutex
			values    []int64
			unknown   atomic.Int64
			retried   atomic.Int64
			afterKill atomic.Int64
			killed    atomic.Bool
		)
		var wg sync.WaitGroup
		done := make(chan struct{})
		for _, st := range []*natsstate.State{a, b} {
			for range 4 {
				wg.Go(func() {
					for i := 0; i < perWorker; {
						ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
						v, err := st.KV().Incr(ctx, "global/k", 1, 0)
						cancel()
						switch {
						case err == nil:
							mu.Lock()
							values = append(values, v)
							mu.Unlock()
							if killed.Load() {
								afterKill.Add(1)
							}
						case errors.Is(err, natsstate.ErrOutcomeUnknown):
							unknown.Add(1) // in flight when the node died: may have landed
						case errors.Is(err, natsstate.ErrUnavailable):
							retried.Add(1) // certainly not applied: the caller may try again
							time.Sleep(20 * time.Millisecond)
							continue
						default:
							t.Error(err)
							return
						}
						i++
					}
				})
			}
		}
		go func() { wg.Wait(); close(done) }()
		// Kill the leader a third of the way through.
	wait:
		for {
			mu.Lock()
			n := len(values)
			mu.Unlock()
			if n >= 2*4*perWorker/3 {
				break
			}
			select {
			case <-done:
				break wait
			case <-time.After(5 * time.Millisecond):
			}
		}
		victim.Stop()
		killed.Store(true)
		<-done
		t.Logf("killed %s; %d increments acknowledged (%d after the kill), %d unknown, %d refused and retried",
			leader, len(values), afterKill.Load(), unknown.Load(), retried.Load())
		if afterKill.Load() == 0 {
			t.Error("no increment succeeded after the kill")
		}
		// Every acknowledged increment is distinct; the unknown ones may
		// or may not have landed, nothing else did.
		slices.Sort(values)
		if len(slices.Compact(slices.Clone(values))) != len(values) {
			t.Error("two increments returned the same value")
		}
		ctx := context.Background()
		v, _, err := b.KV().Get(ctx, "global/k")
		if err != nil {
			t.Fatal(err)
		}
		got := v.(int64)
		if lo, hi := int64(len(values)), int64(len(values))+unknown.Load(); got < lo || got > hi {
			t.Errorf("counter = %d, want between %d and %d", got, lo, hi)
		}
		if len(values) > 0 && values[len(values)-1] > got {
			t.Errorf("an increment returned %d, above the final %d", values[len(values)-1], got)
		}
		// The rest works too on the surviving nodes.
		if ok, err := a.KV().CompareAndSwap(ctx, "after", nil, 1, 0); !ok || err != nil {
			t.Errorf("CAS after the kill = %v, %v", ok, err)
		}
		if ks, err := b.KV().Keys(ctx, ""); err != nil || len(ks) != 3 {
			t.Errorf("Keys after the kill = %q, %v", ks, err)
		}
		if _, err := a.Audit().Write([]byte(`{"event":"Stop"}` + "\n")); err != nil {
			t.Errorf("audit after the kill: %v", err)
		}
	})
}

// TestReadsReachANewLeader: right after the node leading the bucket's
// stream died, the other nodes still believe in it until their election
// timeout and drop the stream's requests unanswered. A Get, and Keys,
// made then get their answer from the new leader, within their timeout (a
// minute), instead of waiting for the lost reply until the timeout and
// failing, as Get did.
func TestReadsReachANewLeader(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 3-node cluster")
	}
	nodes := startCluster(t, 3)
	url := clusterURL(nodes)
	name := bucketName(t)
	opts := []natsstate.Option{natsstate.WithBucket(name), natsstate.WithReplicas(3), natsstate.WithTimeout(time.Minute)}
	ctx := context.Background()
	if err := open(t, url, opts...).KV().Set(ctx, "k", 7, 0); err != nil {
		t.Fatal(err)
	}
	leader := streamInfo(t, url, "KV_"+name).Cluster.Leader
	var victim *testServer
	var survivors []string
	for _, n := range nodes {
		if n.Name() == leader {
			victim = n
		} else {
			survivors = append(survivors, n.URL())
		}
	}
	if victim == nil {
		t.Fatalf("leader %q is none of the nodes", leader)
	}
	st := open(t, strings.Join(survivors, ","), opts...)
	victim.Stop()
	var wg sync.WaitGroup
	wg.Go(func() {
		if v, ok, err := st.KV().Get(ctx, "k"); err != nil || !ok || v != int64(7) {
			t.Errorf("Get after the leader died = %v, %v, %v; want 7", v, ok, err)
		}
	})
	wg.Go(func() {
		if ks, err := st.KV().Keys(ctx, ""); err != nil || !slices.Equal(ks, []string{"k"}) {
			t.Errorf("Keys after the leader died = %q, %v; want [k]", ks, err)
		}
	})
	wg.Wait()
}
