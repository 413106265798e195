package engine_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/syncbuf"
)

// flakyLoops is a LoopStore whose reads or writes fail while told to, as
// a shared store does while it cannot be reached.
type flakyLoops struct {
	mu                  sync.Mutex
	m                   map[string]int
	failRead, failWrite bool
}

func (f *flakyLoops) LoopCount(_ context.Context, key string) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failRead {
		return 0, errors.New("store unreachable")
	}
	return f.m[key], nil
}

func (f *flakyLoops) SetLoopCount(_ context.Context, key string, n int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failWrite {
		return errors.New("store unreachable")
	}
	f.m[key] = n
	return nil
}

func (f *flakyLoops) set(read, write bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failRead, f.failWrite = read, write
}

// TestStopLoopGuardStoreFailure: a loop guard whose store fails cannot
// decide, and never lets the agent stop on its own account. A count that
// cannot be read leaves the block standing and the stored streak as it
// was (not reset to 1); a count that cannot be written leaves the block
// standing uncounted. The outcome's stop_guard.error and the log say so.
// Once the store is back the streak goes on where it was.
func TestStopLoopGuardStoreFailure(t *testing.T) {
	loops := &flakyLoops{m: map[string]int{}}
	var log bytes.Buffer
	e := newEngine(t, engine.WithStopBlockCap(2), engine.WithLoopStore(loops), engine.WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	register(t, e, static("keep-going", "Stop", engine.Block("tests are failing")))
	stop := func() engine.Outcome { return fire(t, e, "Stop", map[string]any{"session_id": "s1"}) }

	if out := stop(); out.Decision != "block" || out.StopGuard.Error != "" {
		t.Fatalf("first block: %+v", out)
	}
	if out := stop(); out.Decision != "block" || out.StopGuard.LoopCount != 1 {
		t.Fatalf("second block: %+v", out.StopGuard)
	}
	// The streak is at the cap: the next block would be released, but the
	// guard cannot read it.
	loops.set(true, false)
	for range 3 {
		out := stop()
		if out.Decision != "block" || !out.Blocked || out.StopGuard.Released || !strings.Contains(out.StopGuard.Error, "reading the loop count: store unreachable") {
			t.Fatalf("read failing: %+v %+v", out, out.StopGuard)
		}
	}
	if loops.m["Stop/s1"] != 2 {
		t.Fatalf("a failed read rewrote the streak: %v", loops.m)
	}
	if !strings.Contains(log.String(), "stop guard: cannot read the loop count") {
		t.Fatalf("not logged: %s", log.String())
	}
	// Back: the streak at the cap releases the agent.
	loops.set(false, false)
	if out := stop(); !out.StopGuard.Released || out.StopGuard.Error != "" {
		t.Fatalf("store back: %+v", out.StopGuard)
	}
	// A write that fails: the block stands, uncounted.
	loops.set(false, true)
	out := stop()
	if out.Decision != "block" || !strings.Contains(out.StopGuard.Error, "writing the loop count 1: store unreachable") {
		t.Fatalf("write failing: %+v", out.StopGuard)
	}
	if loops.m["Stop/s1"] != 0 {
		t.Fatalf("count %v", loops.m)
	}
	b, _ := out.MarshalJSON()
	if !strings.Contains(string(b), `"error":"writing the loop count 1: store unreachable"`) {
		t.Fatalf("not in the outcome's JSON: %s", b)
	}
}

// TestAuditLogBesideAuditFile: the WithAuditLog writer (a shared audit
// stream) keeps its records when a configuration sets audit_log too:
// every fire goes to both. SetAuditLog replaces the writer and nil
// removes it, leaving the file alone.
func TestAuditLogBesideAuditFile(t *testing.T) {
	w := &syncbuf.Buffer{}
	e := newEngine(t, engine.WithAuditLog(w))
	file := filepath.Join(t.TempDir(), "audit.jsonl")
	hook := static("deny", "PreToolUse", engine.Deny("no"))
	if err := e.Load(&engine.Config{Settings: engine.Settings{AuditLog: file}, Hooks: []engine.Hook{hook}}); err != nil {
		t.Fatal(err)
	}
	fire(t, e, "PreToolUse", nil)
	w2 := &syncbuf.Buffer{}
	e.SetAuditLog(w2)
	fire(t, e, "PreToolUse", nil)
	e.SetAuditLog(nil)
	fire(t, e, "PreToolUse", nil)
	// A reload without audit_log keeps the writer's records going.
	e.SetAuditLog(w2)
	if err := e.Load(&engine.Config{Hooks: []engine.Hook{hook}}); err != nil {
		t.Fatal(err)
	}
	fire(t, e, "PreToolUse", nil)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	records := func(s string) int { return strings.Count(s, "\n") }
	if n, n1, n2 := records(string(b)), records(w.String()), records(w2.String()); n != 3 || n1 != 1 || n2 != 2 {
		t.Fatalf("file %d records, WithAuditLog %d, SetAuditLog %d; want 3, 1, 2", n, n1, n2)
	}
}

// racingLoops is a LoopSwapper whose count another engine changes between
// the guard's read and its swap, times times.
type racingLoops struct {
	engine.LoopStore
	times int
}

func (r *racingLoops) SwapLoopCount(ctx context.Context, key string, old, new int) (bool, error) {
	if r.times > 0 {
		r.times--
		n, _ := r.LoopCount(ctx, key)
		r.SetLoopCount(ctx, key, n+1) // another replica counted a block
	}
	return r.LoopStore.(engine.LoopSwapper).SwapLoopCount(ctx, key, old, new)
}

// TestStopLoopGuardCountsAgainstOtherEngines: a block counted by another
// engine between this fire's read and its write is not overwritten; the
// guard counts on top of it, and releases when that reaches the cap.
func TestStopLoopGuardCountsAgainstOtherEngines(t *testing.T) {
	loops := &racingLoops{LoopStore: engine.NewMemoryLoopStore()}
	e := newEngine(t, engine.WithStopBlockCap(3), engine.WithLoopStore(loops))
	register(t, e, static("keep-going", "Stop", engine.Block("tests are failing")))
	stop := func() engine.Outcome { return fire(t, e, "Stop", map[string]any{"session_id": "s1"}) }

	loops.times = 1
	out := stop() // read 0; another engine makes it 1; this block makes 2
	if out.Decision != "block" || out.StopGuard.LoopCount != 1 || out.StopGuard.Error != "" {
		t.Fatalf("first: %+v", out.StopGuard)
	}
	if n, _ := loops.LoopCount(context.Background(), "Stop/s1"); n != 2 {
		t.Fatalf("count %d, want 2: a block counted elsewhere was lost", n)
	}
	loops.times = 1
	out = stop() // read 2; another makes it 3; this one is the 4th: released
	if !out.StopGuard.Released || out.Blocked {
		t.Fatalf("the cap reached with another engine's block did not release: %+v", out.StopGuard)
	}
	// A count that keeps changing: the block stands, uncounted, and says so.
	loops.times = 100
	out = stop()
	if out.Decision != "block" || !strings.Contains(out.StopGuard.Error, "changed under") {
		t.Fatalf("contended: %+v", out.StopGuard)
	}
}

// TestStopLoopGuardSharedStoreConcurrent: two engines on one store, each
// firing Stop for one session from many goroutines at once, count every
// block.
func TestStopLoopGuardSharedStoreConcurrent(t *testing.T) {
	loops := engine.NewMemoryLoopStore()
	const perEngine = 25
	var engines []*engine.Engine
	for range 2 {
		e := newEngine(t, engine.WithStopBlockCap(1000), engine.WithLoopStore(loops))
		register(t, e, static("keep-going", "Stop", engine.Block("tests are failing")))
		engines = append(engines, e)
	}
	var wg sync.WaitGroup
	for _, e := range engines {
		for range perEngine {
			wg.Go(func() {
				out, err := e.Fire(context.Background(), engine.Event{Name: "Stop", Payload: map[string]any{"session_id": "s1"}})
				if err != nil || out.StopGuard == nil || out.StopGuard.Error != "" {
					t.Errorf("fire: %v %+v", err, out.StopGuard)
				}
			})
		}
	}
	wg.Wait()
	if n, _ := loops.LoopCount(context.Background(), "Stop/s1"); n != 2*perEngine {
		t.Fatalf("count %d after %d blocks", n, 2*perEngine)
	}
}
