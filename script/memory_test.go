package script_test

import (
	"errors"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/hookctl/hookctl/script"
)

func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestRunawayAllocationIsStopped: scripts that allocate without bound are
// interrupted with ErrMemoryLimit, the pool keeps serving, and the memory
// comes back.
func TestRunawayAllocationIsStopped(t *testing.T) {
	const limit = 64 << 20
	p := newPool(t, script.WithSize(2), script.WithMemoryLimit(limit))
	ok := inline(t, p, `return { fine: true };`)
	runtime.GC()
	before := heapObjects()
	for name, body := range map[string]string{
		"string doubling":  `let s = "ab"; while (true) { s = s + s; }`,
		"array of strings": `let mb = "x"; for (let k = 0; k < 20; k++) mb += mb; const a = []; let i = 0; while (true) { a.push(mb + i++); }`,
		"object graph":     `const o = []; while (true) { o.push({ a: [1, 2, 3], b: { c: "d" } }); }`,
	} {
		h := inline(t, p, body)
		c := call(nil)
		c.Timeout = 90 * time.Second // the memory guard, not the deadline, must stop it (-race on a busy machine is slow)
		c.Deadline = time.Now().Add(c.Timeout)
		start := time.Now()
		_, err := run(t, h, c)
		if !errors.Is(err, script.ErrMemoryLimit) {
			t.Fatalf("%s: %v, want ErrMemoryLimit", name, err)
		}
		t.Logf("%s: stopped after %v", name, time.Since(start).Round(time.Millisecond))
		if res, err := run(t, ok, call(nil)); err != nil || res["fine"] != true {
			t.Fatalf("after %s the pool does not serve: %v %v", name, res, err)
		}
	}
	// The watchdog winds down and the dropped runtimes become garbage;
	// on a busy machine that can take a moment.
	after := heapObjects()
	for deadline := time.Now().Add(10 * time.Second); after > before+limit && time.Now().Before(deadline); after = heapObjects() {
		time.Sleep(50 * time.Millisecond)
		runtime.GC()
		runtime.GC()
	}
	if after > before+limit {
		t.Fatalf("heap %d MiB after the runaway scripts, %d MiB before: the memory did not come back", after>>20, before>>20)
	}
}

// TestMemoryGuardLeavesNormalScriptsAlone: scripts that allocate and drop
// a lot, but never hold much, run to the end.
func TestMemoryGuardLeavesNormalScriptsAlone(t *testing.T) {
	p := newPool(t, script.WithMemoryLimit(64<<20))
	// 25 MiB of garbage a call, 125 MiB in all: far more than the limit,
	// but never held.
	h := inline(t, p, `let chunk = "x"; for (let k = 0; k < 18; k++) chunk += chunk; let n = 0; for (let i = 0; i < 100; i++) { const s = chunk + i; n += s.length; } return { n };`)
	for range 5 {
		c := call(nil)
		c.Timeout = 30 * time.Second
		c.Deadline = time.Now().Add(c.Timeout)
		res, err := run(t, h, c)
		if err != nil || res["n"] == nil {
			t.Fatalf("%v %v", res, err)
		}
	}
}
