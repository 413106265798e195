package bench

import (
	"bytes"
	"context"

	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
)

// The benchmarks of SPEC §8, in one package, in a form benchstat reads:
//
//	go test ./tests/bench -run XXX -bench . -benchmem -count 6 | tee new.txt
//	go run golang.org/x/perf/cmd/benchstat@latest new.txt
//
// The process benchmarks (bash, python3, hookctl claude) spawn processes
// and are slow; select the in-process ones with -bench 'InProcess'.

func loadEngine(b testing.TB, config string, opts ...engine.Option) (*engine.Engine, engine.EventID) {
	b.Helper()
	e, cfg, err := LoadEngine(filepath.Join("testdata", "peers", config), opts...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		e.Close(context.Background())
		cfg.Close()
	})
	id, err := e.Resolve("PreToolUse")
	if err != nil {
		b.Fatal(err)
	}
	return e, id
}

func payload(b testing.TB) map[string]any {
	b.Helper()
	p, err := ReadPayload(filepath.Join("testdata", "peers", "payload.json"))
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkInProcess covers the in-process scenarios.
func BenchmarkInProcess(b *testing.B) {
	ctx := context.Background()
	b.Run("no-hooks", func(b *testing.B) {
		e, _ := loadEngine(b, "hooks.hcl")
		ev := engine.Event{Name: "Notification", Payload: payload(b)}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := e.Fire(ctx, ev); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("condition-false", func(b *testing.B) {
		e, id := loadEngine(b, "hooks.hcl")
		p := payload(b)
		p["session_id"] = "test-session" // every condition is false
		ev := engine.Event{ID: id, Payload: p}
		out, _ := e.Fire(ctx, ev)
		for _, h := range out.Hooks {
			if h.Status != engine.StatusSkipped {
				b.Fatalf("hook %s entered JavaScript", h.ID)
			}
		}
		if len(out.Hooks)+out.Untraced != 10 {
			b.Fatalf("%d hooks traced, %d skipped untraced, want 10 in all", len(out.Hooks), out.Untraced)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := e.Fire(ctx, ev); err != nil {
				b.Fatal(err)
			}
		}
	})
	// -into: FireInto, the outcome reused from fire to fire; -host: the
	// engine a host's answer fires (HostOptions: clean hooks counted,
	// not traced).
	for _, c := range []struct {
		name, config string
		into, host   bool
	}{{"declarative-10", "declarative.hcl", false, false}, {"js-10", "hooks.hcl", false, false},
		{"declarative-10-into", "declarative.hcl", true, false}, {"js-10-into", "hooks.hcl", true, false},
		{"declarative-10-host", "declarative.hcl", false, true}, {"js-10-host", "hooks.hcl", false, true}} {
		b.Run(c.name, func(b *testing.B) {
			var opts []engine.Option
			if c.host {
				opts = HostOptions()
			}
			e, id := loadEngine(b, c.config, opts...)
			ev := engine.Event{ID: id, Payload: payload(b)}
			out, _ := e.Fire(ctx, ev)
			ran := out.UntracedRuns
			for _, h := range out.Hooks {
				if h.Status == engine.StatusDecided {
					ran++
				}
			}
			if ran != 10 {
				b.Fatalf("%d hooks decided, want 10", ran)
			}
			lat := make([]int64, 0, 1<<16)
			b.ReportAllocs()
			for b.Loop() {
				t0 := time.Now()
				var err error
				if c.into {
					err = e.FireInto(ctx, ev, &out)
				} else {
					_, err = e.Fire(ctx, ev)
				}
				if err != nil {
					b.Fatal(err)
				}
				if len(lat) < cap(lat) {
					lat = append(lat, int64(time.Since(t0)))
				}
			}
			reportPercentiles(b, lat)
		})
	}
	b.Run("js-10-parallel", func(b *testing.B) {
		e, id := loadEngine(b, "hooks.hcl")
		ev := engine.Event{ID: id, Payload: payload(b)}
		b.ReportAllocs()
		start := time.Now()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := e.Fire(ctx, ev); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "events/s")
	})
}

func reportPercentiles(b *testing.B, lat []int64) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2]), "p50-ns")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)]), "p99-ns")
}

// BenchmarkProcesses covers the peers that spawn processes: the 10 hooks as
// bash and as python3 command hooks (10 processes per event, in parallel,
// as Claude Code runs them), and hookctl claude (one process per event).
func BenchmarkProcesses(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "peers", "payload.json"))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name, cmd string
		n         int
	}{
		{"bash-10", "bash " + abs(b, "testdata/peers/hook.sh"), 10},
		{"python3-10", "python3 " + abs(b, "testdata/peers/hook.py"), 10},
		{"bash-1", "bash " + abs(b, "testdata/peers/hook.sh"), 1},
		{"python3-1", "python3 " + abs(b, "testdata/peers/hook.py"), 1},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if err := SpawnParallel(context.Background(), c.cmd, c.n, data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("hookctl-claude", func(b *testing.B) {
		bin := buildHookctl(b)
		cfg := abs(b, "testdata/peers/hooks.hcl")
		env, err := TrustEnv(bin, cfg, b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			cmd := ShellForm(bin, "claude", "--config", cfg)
			cmd.Stdin = bytes.NewReader(data)
			cmd.Env = append(env, "HOOKCTL_STATE_DIR="+b.TempDir())
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v: %s", err, out)
			}
		}
	})
	// hookctl-client: a small process per event, answered by the warm
	// daemon (the first call starts it, before the timer).
	b.Run("hookctl-client", func(b *testing.B) {
		bin := buildHookctl(b)
		client := filepath.Join(filepath.Dir(bin), "hookctl-client")
		cfg := abs(b, "testdata/peers/hooks.hcl")
		dir := b.TempDir()
		env, err := TrustEnv(bin, cfg, dir)
		if err != nil {
			b.Fatal(err)
		}
		env, stop, err := ClientEnv(env, dir)
		if err != nil {
			b.Fatal(err)
		}
		defer stop()
		call := func() {
			cmd := ShellForm(client, "claude", "--config", cfg)
			cmd.Stdin = bytes.NewReader(data)
			cmd.Env = env
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v: %s", err, out)
			}
		}
		call()
		for b.Loop() {
			call()
		}
	})
	b.Run("hookctl-serve", func(b *testing.B) {
		bin := buildHookctl(b)
		url, stop, err := StartServe(bin, abs(b, "testdata/peers/hooks.hcl"))
		if err != nil {
			b.Fatal(err)
		}
		defer stop()
		client := &http.Client{}
		var mu sync.Mutex
		for b.Loop() {
			mu.Lock()
			resp, err := client.Post(url, "application/json", bytes.NewReader(data))
			mu.Unlock()
			if err != nil {
				b.Fatal(err)
			}
			resp.Body.Close()
		}
	})
}

func abs(b *testing.B, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		b.Fatal(err)
	}
	return a
}

var (
	buildOnce sync.Once
	buildBin  string
	buildErr  error
)

// buildHookctl builds the hookctl command once per test binary.
func buildHookctl(tb testing.TB) string {
	tb.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "hookctl-bench")
		if err != nil {
			buildErr = err
			return
		}
		buildBin, buildErr = Build(dir)
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
	return buildBin
}

// BenchmarkColdStart is what `hookctl claude` does besides starting the
// process: load the 10-hook configuration, fire one event, close.
func BenchmarkColdStart(b *testing.B) {
	p := payload(b)
	for _, config := range []string{"hooks.hcl", "declarative.hcl"} {
		b.Run(config, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e, cfg, err := LoadEngine(filepath.Join("testdata", "peers", config))
				if err != nil {
					b.Fatal(err)
				}
				if _, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: p}); err != nil {
					b.Fatal(err)
				}
				e.Close(context.Background())
				cfg.Close()
			}
		})
	}
}
