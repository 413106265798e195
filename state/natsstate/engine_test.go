package natsstate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/state/kv"
	"github.com/hookctl/hookctl/state/natsstate"
)

// State.Loops satisfies the engine's LoopStore.
var _ engine.LoopStore = (natsstate.LoopStore)(nil)

// TestEngineReplicas wires two engines, as two hookctl serve replicas, to
// one server: the Stop loop guard's streak continues across them, and the
// audit stream holds one record per fire, whichever replica fired.
func TestEngineReplicas(t *testing.T) {
	sts := replicas(t, sharedServer(t).URL(), 2)
	var engs []*engine.Engine
	for _, st := range sts {
		eng, err := engine.New(engine.WithStopBlockCap(2), engine.WithLoopStore(st.Loops()), engine.WithAuditLog(st.Audit()))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { eng.Close(context.Background()) })
		if err := eng.Register(engine.Hook{ID: "tests-first", Event: "Stop", Handler: engine.Static(engine.Block("run the tests"))}); err != nil {
			t.Fatal(err)
		}
		engs = append(engs, eng)
	}
	want := []struct {
		decision string
		count    int
		released bool
	}{{"block", 0, false}, {"block", 1, false}, {"", 2, true}, {"block", 0, false}}
	for i, w := range want {
		out, err := engs[i%2].Fire(context.Background(), engine.Event{Name: "Stop", Payload: map[string]any{"session_id": "s1"}})
		if err != nil {
			t.Fatal(err)
		}
		if string(out.Decision) != w.decision || out.StopGuard == nil || out.StopGuard.LoopCount != w.count || out.StopGuard.Released != w.released {
			t.Fatalf("fire %d on replica %d: decision %q guard %+v; want %+v", i, i%2, out.Decision, out.StopGuard, w)
		}
	}
	recs := readStream(t, sharedServer(t).URL(), "A"+bucketName(t))
	if len(recs) != len(want) {
		t.Fatalf("%d audit records, want %d", len(recs), len(want))
	}
	for i, r := range recs {
		var rec struct {
			Event     string `json:"event"`
			Time      string `json:"time"`
			StopGuard struct {
				LoopCount int `json:"loop_count"`
			} `json:"stop_guard"`
		}
		if err := json.Unmarshal(r.data, &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Event != "Stop" || rec.Time == "" || r.subject != "audit."+bucketName(t)+".Stop" || rec.StopGuard.LoopCount != want[i].count {
			t.Errorf("record %d on %s: %s", i, r.subject, r.data)
		}
	}
}

// TestEngineReplicasConcurrentStops: two engines on one server counting
// one session's Stop blocks at the same moment count every one of them
// (the guard swaps the count against what it read).
func TestEngineReplicasConcurrentStops(t *testing.T) {
	sts := replicas(t, sharedServer(t).URL(), 2)
	const perReplica = 10
	session := fmt.Sprintf("concurrent-%d", time.Now().UnixNano()) // the server outlives a test run
	var wg sync.WaitGroup
	for _, st := range sts {
		eng, err := engine.New(engine.WithStopBlockCap(1000), engine.WithLoopStore(st.Loops()))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { eng.Close(context.Background()) })
		if err := eng.Register(engine.Hook{ID: "tests-first", Event: "Stop", Handler: engine.Static(engine.Block("run the tests"))}); err != nil {
			t.Fatal(err)
		}
		for range perReplica {
			wg.Go(func() {
				out, err := eng.Fire(context.Background(), engine.Event{Name: "Stop", Payload: map[string]any{"session_id": session}})
				if err != nil || out.StopGuard == nil || out.StopGuard.Error != "" {
					t.Errorf("fire: %v %+v", err, out.StopGuard)
				}
			})
		}
	}
	wg.Wait()
	if n, err := sts[0].Loops().LoopCount(context.Background(), "Stop/"+session); err != nil || n != 2*perReplica {
		t.Fatalf("count %d, %v after %d blocks", n, err, 2*perReplica)
	}
}

// TestSessionScopesDoNotCollideOnNATS: on NATS KV too, session "a" key
// "b/x" is not session "a/b" key "x", and the loop guard's streak of
// session "a" agent "b" is not session "a/b"'s.
func TestSessionScopesDoNotCollideOnNATS(t *testing.T) {
	ctx := context.Background()
	st := openShared(t)
	a, ab := kv.Scoped(st.KV(), kv.SessionScope("a")), kv.Scoped(st.KV(), kv.SessionScope("a/b"))
	if err := a.Set(ctx, "b/x", "session a", 0); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := ab.Get(ctx, "x"); ok || err != nil {
		t.Fatalf("session a/b reads session a's b/x as its x: %v %v", v, err)
	}
	if err := ab.Set(ctx, "x", "session a/b", 0); err != nil {
		t.Fatal(err)
	}
	if v, _, err := a.Get(ctx, "b/x"); v != "session a" || err != nil {
		t.Errorf("session a's b/x = %v, %v after session a/b set its x", v, err)
	}

	eng, err := engine.New(engine.WithStopBlockCap(5), engine.WithLoopStore(st.Loops()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close(context.Background()) })
	if err := eng.Register(engine.Hook{ID: "keep-going", Event: "SubagentStop", Handler: engine.Static(engine.Block("keep going"))}); err != nil {
		t.Fatal(err)
	}
	fire := func(payload map[string]any) int {
		t.Helper()
		out, err := eng.Fire(ctx, engine.Event{Name: "SubagentStop", Payload: payload})
		if err != nil || out.StopGuard == nil || out.StopGuard.Error != "" {
			t.Fatalf("fire %v: %v %+v", payload, err, out.StopGuard)
		}
		return out.StopGuard.LoopCount
	}
	fire(map[string]any{"session_id": "a", "agent_id": "b"})
	fire(map[string]any{"session_id": "a", "agent_id": "b"})
	if n := fire(map[string]any{"session_id": "a/b"}); n != 0 {
		t.Errorf("session a/b starts with session a agent b's loop count %d", n)
	}
}
