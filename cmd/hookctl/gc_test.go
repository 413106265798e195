package main

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"testing"
	"time"
)

// gcProbeEnv makes the test binary run gcProbe instead of its tests.
const gcProbeEnv = "HOOKCTL_TEST_GC_PROBE"

// gcReport is what gcProbe measured.
type gcReport struct {
	GarbageMB   int    // garbage allocated before the collector was checked
	GCs         uint32 // collections by then
	HeapSysMB   uint64 // heap memory the process got from the system by then
	GOGC        int    // the collector's percent after the switch
	MemLimit    int64  // the soft memory limit after the switch
	ChurnGCs    uint32 // collections while churning over a live heap past oneShotHeap
	SwitchAfter string // how long the switch took to show, or "never"
}

// gcProbe runs in a process of its own (the collector's settings are
// the process's): it sets the collector as hookctl fire does, allocates
// four times oneShotHeap of garbage, waits for the switch to GOGC=200,
// then keeps a heap past oneShotHeap live and churns over it. It prints
// a gcReport as JSON.
func gcProbe() {
	tuneGC([]string{"--config", "x", "fire"})
	var sink []byte
	garbage := 4 * oneShotHeap
	for range garbage >> 20 {
		sink = make([]byte, 1<<20)
		sink[0] = 1
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	r := gcReport{GarbageMB: garbage >> 20, GCs: ms.NumGC, HeapSysMB: ms.HeapSys >> 20, SwitchAfter: "never"}
	// The switch is made by a cleanup, on a goroutine of its own: wait for
	// it to show (it never does without a collection).
	sample := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	start := time.Now()
	for time.Since(start) < 10*time.Second {
		metrics.Read(sample)
		if sample[0].Value.Uint64() != math.MaxUint64 && int64(sample[0].Value.Uint64()) > 0 {
			r.SwitchAfter = time.Since(start).String()
			break
		}
		runtime.Gosched()
	}
	metrics.Read(sample)
	r.GOGC, r.MemLimit = int(int64(sample[0].Value.Uint64())), int64(sample[1].Value.Uint64())
	// A live heap past oneShotHeap, and garbage over it: with the limit
	// left in place and the collector off, every allocation would start a
	// collection.
	live := make([][]byte, 0, 2*oneShotHeap>>20)
	for range cap(live) {
		live = append(live, make([]byte, 1<<20))
	}
	runtime.ReadMemStats(&ms)
	before := ms.NumGC
	for range garbage >> 20 {
		sink = make([]byte, 1<<20)
		sink[0] = 1
	}
	runtime.ReadMemStats(&ms)
	r.ChurnGCs = ms.NumGC - before
	runtime.KeepAlive(live)
	json.NewEncoder(os.Stdout).Encode(r)
}

// TestOneShotCollectsPastItsHeap: a short-lived command runs without
// collections while it is small, and collects once its memory passes
// oneShotHeap, from then on at GOGC=200 without a memory limit (one below
// its live heap would make it collect over and over). It once ran without
// collections up to 512 MiB: loading and firing a thousand JS hooks took
// 180 MB of RSS, all it allocated.
func TestOneShotCollectsPastItsHeap(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "GOGC=") || strings.HasPrefix(kv, "GOMEMLIMIT=")
	}), gcProbeEnv+"=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("probe: %v\n%s", err, out)
	}
	var r gcReport
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("probe printed %q: %v", out, err)
	}
	t.Logf("%+v", r)
	// Below four times oneShotHeap, which never collecting reaches: the
	// collector runs past it, and its heap may pass twice it before the
	// switch shows (131 MB under the race detector, 211 MB on two cores
	// busy with the other packages' tests).
	if r.GCs == 0 || r.HeapSysMB >= 4*oneShotHeap>>20 {
		t.Errorf("after %d MB of garbage: %d collections, a heap of %d MB; want a collection past %d MB",
			r.GarbageMB, r.GCs, r.HeapSysMB, oneShotHeap>>20)
	}
	if r.GOGC != 200 || r.MemLimit != math.MaxInt64 {
		t.Errorf("after the first collection: GOGC=%d, memory limit %d; want 200 and none (switched after %s)", r.GOGC, r.MemLimit, r.SwitchAfter)
	}
	if r.ChurnGCs > 4 {
		t.Errorf("%d MB of garbage over a live heap of %d MB: %d collections", r.GarbageMB, 2*oneShotHeap>>20, r.ChurnGCs)
	}
}
