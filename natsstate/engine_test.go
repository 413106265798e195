package natsstate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/natsstate"
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
