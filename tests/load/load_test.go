// Package load holds the engine's load and fault test: a million fires
// from many goroutines while the configuration is swapped and hooks are
// registered, removed, enabled and disabled, under the race detector in CI.
package load

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/script"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreCurrent())
}

// fires is how many events the test fires (HOOKCTL_LOAD_FIRES overrides).
func fires(t *testing.T) int {
	if s := os.Getenv("HOOKCTL_LOAD_FIRES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			t.Fatalf("HOOKCTL_LOAD_FIRES=%q", s)
		}
		return n
	}
	if testing.Short() {
		return 50_000
	}
	return 1_000_000
}

func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// config returns one of two generations of the configuration. Every hook
// of a generation carries the generation's tag, so a fire that saw hooks
// of both generations would show it.
func config(gen int, pool *script.Pool, voids *atomic.Int64, js engine.Handler) *engine.Config {
	tag := fmt.Sprintf("g%d", gen)
	count := engine.Inline(engine.HandlerFunc(func(context.Context, *engine.Call) (engine.Result, error) {
		voids.Add(1)
		return nil, nil
	}))
	hooks := []engine.Hook{
		{ID: tag + "-deny-rm", Event: "PreToolUse", Matcher: "Bash", When: `tool_input.command startsWith "rm "`, Priority: 10,
			Handler: engine.Static(engine.Result{"decision": "deny", "reason": tag})},
		{ID: tag + "-context", Event: "PreToolUse", Priority: 5,
			Handler: engine.Static(engine.Result{"additional_context": tag})},
		{ID: tag + "-rewrite", Event: "PreToolUse", Matcher: "Bash",
			Handler: engine.HandlerFunc(func(_ context.Context, c *engine.Call) (engine.Result, error) {
				in, _ := c.Payload["tool_input"].(map[string]any)
				cmd, _ := in["command"].(string)
				return engine.Result{"updated_input": map[string]any{"command": cmd + " # " + tag}}, nil
			})},
		{ID: tag + "-observe", Event: "PreToolUse", Observe: true, Handler: count},
		{ID: tag + "-void", Event: "Notification", Handler: count},
		{ID: tag + "-void2", Event: "Notification", Handler: count},
		{ID: tag + "-bg", Event: "Notification", Background: true, Handler: count},
		{ID: tag + "-panics", Event: "PostToolUse", Handler: engine.HandlerFunc(func(context.Context, *engine.Call) (engine.Result, error) {
			panic("hook bug")
		})},
	}
	if js != nil {
		hooks = append(hooks, engine.Hook{ID: tag + "-js", Event: "UserPromptSubmit", Handler: js})
	}
	return &engine.Config{Name: tag, Hooks: hooks}
}

// TestMillionFiresUnderChange fires a million events from eight goroutines
// while another swaps the whole configuration, another registers and
// removes hooks and another enables and disables them. Every fire must
// return a consistent outcome of one configuration generation, every hook
// that ran must be counted, no goroutine may leak (goleak) and the live
// heap must stay bounded.
func TestMillionFiresUnderChange(t *testing.T) {
	total := fires(t)
	e, err := engine.New(engine.WithMaxConcurrency(4), engine.WithBackgroundQueue(64, time.Second))
	if err != nil {
		t.Fatal(err)
	}
	pool, err := script.NewPool(t.TempDir(), script.WithSize(4))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	prog, err := pool.CompileInline("load.hcl", `
		if (/password/i.test(event.prompt)) return { decision: "block", reason: "no secrets" };
		return { additional_context: "prompt of " + event.prompt.length + " characters" };
	`, 1)
	if err != nil {
		t.Fatal(err)
	}
	js := pool.Handler(prog)
	var voids atomic.Int64
	if err := e.Load(config(0, pool, &voids, js)); err != nil {
		t.Fatal(err)
	}

	runtime.GC()
	heapBefore := liveHeap()
	var heapMax atomic.Uint64
	stop := make(chan struct{})
	var churn sync.WaitGroup

	// Whole-configuration swaps.
	var swaps atomic.Int64
	churn.Go(func() {
		for gen := 1; ; gen++ {
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
			if err := e.Load(config(gen%2, pool, &voids, js)); err != nil {
				t.Error(err)
				return
			}
			swaps.Add(1)
		}
	})
	// Hooks registered and removed, enabled and disabled.
	var registrations atomic.Int64
	churn.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			id := fmt.Sprintf("extra-%d", i%8)
			err := e.Register(engine.Hook{ID: id, Event: "Stop", Handler: engine.Static(engine.Result{"reason": id})})
			if err == nil {
				registrations.Add(1)
				_ = e.SetEnabled(id, i%2 == 0)
			}
			e.Unregister(fmt.Sprintf("extra-%d", (i+3)%8))
			runtime.Gosched()
		}
	})
	// The live heap, sampled.
	churn.Go(func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			if h := liveHeap(); h > heapMax.Load() {
				heapMax.Store(h)
			}
		}
	})

	const workers = 8
	var done, withHooks, ran, inconsistent, failed, bgQueued, bgRefused atomic.Int64
	var firstProblem atomic.Value
	problem := func(format string, args ...any) {
		firstProblem.CompareAndSwap(nil, fmt.Sprintf(format, args...))
	}
	var wg sync.WaitGroup
	start := time.Now()
	for w := range workers {
		wg.Go(func() {
			ctx := context.Background()
			for i := w; i < total; i += workers {
				var ev engine.Event
				switch i % 10 {
				case 0, 1, 2, 3:
					ev = engine.Event{Name: "PreToolUse", Payload: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls -la"}}}
				case 4:
					ev = engine.Event{Name: "PreToolUse", Payload: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /tmp/x"}}}
				case 5, 6:
					ev = engine.Event{Name: "Notification", Payload: map[string]any{"message": "hi"}}
				case 7:
					ev = engine.Event{Name: "PostToolUse", Payload: map[string]any{"tool_name": "Read"}}
				case 8:
					ev = engine.Event{Name: "Stop", Payload: map[string]any{"stop_hook_active": false}}
				default:
					ev = engine.Event{Name: "UserPromptSubmit", Payload: map[string]any{"prompt": "my password is x"}}
				}
				out, err := e.Fire(ctx, ev)
				if err != nil {
					failed.Add(1)
					problem("fire %d (%s): %v", i, ev.Name, err)
					continue
				}
				done.Add(1)
				if len(out.Hooks) > 0 {
					withHooks.Add(1)
				}
				gens := map[byte]bool{}
				for _, h := range out.Hooks {
					if h.Status == engine.StatusRan || h.Status == engine.StatusDecided {
						ran.Add(1)
					}
					if h.Phase == engine.PhaseBackground {
						switch h.Status {
						case engine.StatusQueued:
							bgQueued.Add(1)
						case engine.StatusError:
							bgRefused.Add(1) // the queue stayed full: reported here
						}
					}
					if len(h.ID) > 1 && h.ID[0] == 'g' {
						gens[h.ID[1]] = true
					}
				}
				if len(gens) > 1 {
					inconsistent.Add(1)
					problem("fire %d saw hooks of two configurations: %+v", i, out.Hooks)
				}
				switch i % 10 {
				case 4:
					if !out.Blocked || out.Decision != "deny" {
						problem("fire %d: rm -rf not denied: %+v", i, out)
					}
				case 7:
					if len(out.Hooks) != 1 || out.Hooks[0].Status != engine.StatusError || out.Hooks[0].Error == "" {
						problem("fire %d: the panicking hook is not reported as an error: %+v", i, out.Hooks)
					}
				case 9:
					if out.Decision != "block" {
						problem("fire %d: the JS hook did not block: %+v", i, out)
					}
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(stop)
	churn.Wait()
	if err := e.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if p, _ := firstProblem.Load().(string); p != "" {
		t.Fatal(p)
	}
	if failed.Load() != 0 || inconsistent.Load() != 0 || done.Load() != int64(total) {
		t.Fatalf("%d fires, %d done, %d failed, %d inconsistent", total, done.Load(), failed.Load(), inconsistent.Load())
	}
	st := e.Stats()
	if st.Fires != uint64(withHooks.Load()) {
		t.Fatalf("the engine counted %d fires with hooks, the outcomes show %d", st.Fires, withHooks.Load())
	}
	// Every background hook a fire admitted either ran or was dropped,
	// and every drop was reported in the fire's outcome.
	if st.BackgroundQueued != uint64(bgQueued.Load()) || st.BackgroundDone+st.BackgroundDropped != uint64(bgQueued.Load()+bgRefused.Load()) ||
		st.BackgroundDropped != uint64(bgRefused.Load()) {
		t.Fatalf("background: %d queued and %d refused in the outcomes; the engine counted queued %d, done %d, dropped %d",
			bgQueued.Load(), bgRefused.Load(), st.BackgroundQueued, st.BackgroundDone, st.BackgroundDropped)
	}
	runtime.GC()
	heapAfter := liveHeap()

	const bound = 64 << 20
	if heapMax.Load() > heapBefore+bound || heapAfter > heapBefore+bound/4 {
		t.Fatalf("live heap %d MiB before, at most %d MiB during, %d MiB after", heapBefore>>20, heapMax.Load()>>20, heapAfter>>20)
	}
	t.Logf("%d fires in %v (%.0f/s) from %d goroutines; %d configuration swaps, %d registrations; %d hooks ran, %d void/observe/background calls; background queued %d, done %d, dropped and reported %d; live heap %d MiB before, max %d MiB, %d MiB after",
		total, elapsed.Round(time.Millisecond), float64(total)/elapsed.Seconds(), workers, swaps.Load(), registrations.Load(),
		ran.Load(), voids.Load(), st.BackgroundQueued, st.BackgroundDone, st.BackgroundDropped,
		heapBefore>>20, heapMax.Load()>>20, heapAfter>>20)
}

var errFault = errors.New("injected fault")

// TestFaultsDoNotStopTheEngine injects failures into hooks — errors,
// panics, timeouts, cancellations — on every fire, and checks that each is
// reported in the trace and never reaches the caller or another hook.
func TestFaultsDoNotStopTheEngine(t *testing.T) {
	e, err := engine.New()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(context.Background())
	var healthy atomic.Int64
	faults := map[string]engine.Handler{
		"errors": engine.HandlerFunc(func(context.Context, *engine.Call) (engine.Result, error) { return nil, errFault }),
		"panics": engine.HandlerFunc(func(context.Context, *engine.Call) (engine.Result, error) { panic(errFault) }),
		"hangs": engine.HandlerFunc(func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}),
		"bad-result": engine.HandlerFunc(func(context.Context, *engine.Call) (engine.Result, error) {
			return engine.Result{"decision": 42, "continue": "maybe"}, nil
		}),
	}
	for id, h := range faults {
		if err := e.Register(engine.Hook{ID: id, Event: "PreToolUse", Handler: h, Timeout: 5 * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Register(engine.Hook{ID: "healthy", Event: "PreToolUse", Priority: -1, Handler: engine.HandlerFunc(func(context.Context, *engine.Call) (engine.Result, error) {
		healthy.Add(1)
		return engine.Result{"additional_context": "ok"}, nil
	})}); err != nil {
		t.Fatal(err)
	}
	const n = 200
	injected := 0
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range 4 {
		wg.Go(func() {
			for range n / 4 {
				out, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{"tool_name": "Bash"}})
				if err != nil {
					t.Error(err)
					return
				}
				faulty := 0
				for _, h := range out.Hooks {
					if h.ID != "healthy" && (h.Status == engine.StatusError || h.Status == engine.StatusTimeout || h.Note != "") {
						faulty++
					}
				}
				mu.Lock()
				injected += faulty
				mu.Unlock()
				if faulty != len(faults) || out.AdditionalContext != "ok" {
					t.Errorf("faults not contained: %+v", out.Hooks)
					return
				}
			}
		})
	}
	wg.Wait()
	if healthy.Load() != n {
		t.Fatalf("the healthy hook ran %d times in %d fires", healthy.Load(), n)
	}
	t.Logf("%d fires, %d faults injected and reported, the healthy hook ran every time", n, injected)
}
