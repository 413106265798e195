package main

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookctl/hookctl/engine"
)

// benchResult is what `hookctl bench` prints.
type benchResult struct {
	Event         string  `json:"event"`
	Hooks         int     `json:"hooks"`
	Fires         int64   `json:"fires"`
	NsPerFire     float64 `json:"ns_per_fire"`
	P50Ns         int64   `json:"p50_ns"`
	P90Ns         int64   `json:"p90_ns"`
	P99Ns         int64   `json:"p99_ns"`
	AllocsPerFire float64 `json:"allocs_per_fire"`
	BytesPerFire  float64 `json:"bytes_per_fire"`
	FiresPerSec   float64 `json:"fires_per_sec"`
	Concurrency   int     `json:"concurrency"`
	Blocked       bool    `json:"blocked"`
}

// maxSamples bounds the latencies kept per worker for percentiles.
const maxSamples = 1 << 20

func newBenchCmd(a *app) *cobra.Command {
	var payloadPath, format string
	var sets []string
	var duration time.Duration
	var concurrency, warmup int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "bench [--config PATH] [--payload FILE|-] [--duration D] [--concurrency N] [--json] EVENT",
		Short: "Benchmark a configuration: fire an event repeatedly in-process",
		Long: `bench loads the configuration, warms up, then fires EVENT with the payload
repeatedly, in-process, for --duration on --concurrency goroutines, and prints
a summary: the event, how many hooks ran, whether the outcome is blocked, the
fires and goroutines, the mean, p50, p90 and p99 latency of a fire, allocations
and bytes per fire, and fires per second.

--json prints one JSON object instead, for scripts: event, hooks (how many
ran), blocked, fires, concurrency, ns_per_fire (mean latency), p50_ns, p90_ns,
p99_ns, allocs_per_fire, bytes_per_fire, fires_per_sec. Hooks really run:
command hooks spawn their processes, background hooks are queued.`,
		Example: `  hookctl bench --config examples/hooks.hcl --payload examples/payloads/PreToolUse.pip.json PreToolUse
  hookctl bench --duration 5s --concurrency 2 --json PreToolUse | jq .p99_ns`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError("bench needs exactly one EVENT")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if concurrency < 1 {
				return usageError("--concurrency must be at least 1")
			}
			switch {
			case format != "" && format != "json" && format != "text":
				return usageError("--format must be json or text")
			case asJSON && format == "text":
				return usageError("--json and --format text exclude each other")
			case format == "json":
				asJSON = true
			}
			payload, err := a.payload(payloadPath, sets)
			if err != nil {
				return err
			}
			eng, cfg, err := a.load()
			if err != nil {
				return err
			}
			defer cfg.Close()
			defer eng.Close(context.Background())
			id, err := eng.Resolve(args[0])
			if err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			spec, _ := eng.Event(args[0])
			if _, ok := payload["hook_event_name"]; !ok && spec.Source == engine.SourceClaudeCode {
				payload["hook_event_name"] = spec.Name
			}
			res, err := runBench(cmd.Context(), eng, engine.Event{ID: id, Payload: payload}, duration, concurrency, warmup)
			if err != nil {
				return &exitError{code: exitFailure, err: err}
			}
			res.Event = spec.Name
			if !asJSON {
				tw := tabwriter.NewWriter(a.stdout, 2, 4, 2, ' ', 0)
				fmt.Fprintf(tw, "event\t%s\nhooks that ran\t%d\nblocked\t%v\nfires\t%d\nconcurrency\t%d\n", res.Event, res.Hooks, res.Blocked, res.Fires, res.Concurrency)
				fmt.Fprintf(tw, "mean\t%s\np50\t%s\np90\t%s\np99\t%s\n", ns(res.NsPerFire), ns(float64(res.P50Ns)), ns(float64(res.P90Ns)), ns(float64(res.P99Ns)))
				fmt.Fprintf(tw, "allocs/fire\t%.1f\nbytes/fire\t%.0f\nfires/s\t%.0f\n", res.AllocsPerFire, res.BytesPerFire, res.FiresPerSec)
				return tw.Flush()
			}
			return writeJSON(a.stdout, res, true)
		},
	}
	cmd.ValidArgsFunction = a.eventArg
	cmd.Flags().StringVarP(&payloadPath, "payload", "p", "", "JSON payload file, or - for stdin")
	cmd.Flags().StringArrayVar(&sets, "set", nil, "set a payload field: key=value (dotted keys, JSON values); repeatable")
	cmd.Flags().DurationVarP(&duration, "duration", "d", 2*time.Second, "how long to fire")
	cmd.Flags().IntVarP(&concurrency, "concurrency", "n", 1, "goroutines firing at once")
	cmd.Flags().IntVar(&warmup, "warmup", 1000, "fires before measuring")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object instead of the summary")
	// --format json|text was the way to pick before --json; kept for
	// the scripts that pass it.
	cmd.Flags().StringVar(&format, "format", "", "output: json (as --json) or text (the default)")
	_ = cmd.Flags().MarkHidden("format")
	return cmd
}

func ns(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.2f ms", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.2f µs", v/1e3)
	}
	return fmt.Sprintf("%.0f ns", v)
}

// runBench warms up, then fires for d on n goroutines, timing every fire.
func runBench(ctx context.Context, eng *engine.Engine, ev engine.Event, d time.Duration, n, warmup int) (benchResult, error) {
	res := benchResult{Concurrency: n}
	out, err := eng.Fire(ctx, ev)
	if err != nil {
		return res, err
	}
	for _, h := range out.Hooks {
		if h.Status != engine.StatusSkipped {
			res.Hooks++
		}
	}
	res.Blocked = out.Blocked
	for range warmup {
		if _, err := eng.Fire(ctx, ev); err != nil {
			return res, err
		}
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var stop atomic.Bool
	samples := make([][]int64, n)
	var total atomic.Int64
	var firstErr error
	var errOnce sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	for w := range n {
		wg.Go(func() {
			local := make([]int64, 0, 1<<16)
			for !stop.Load() {
				t0 := time.Now()
				if _, err := eng.Fire(ctx, ev); err != nil {
					errOnce.Do(func() { firstErr = err })
					stop.Store(true)
					return
				}
				if len(local) < maxSamples {
					local = append(local, int64(time.Since(t0)))
				}
				total.Add(1)
			}
			samples[w] = local
		})
	}
	time.Sleep(d)
	stop.Store(true)
	wg.Wait()
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	if firstErr != nil {
		return res, firstErr
	}
	var all []int64
	for _, s := range samples {
		all = append(all, s...)
	}
	if len(all) == 0 {
		return res, fmt.Errorf("no fire completed in %s", d)
	}
	slices.Sort(all)
	pct := func(p float64) int64 { return all[min(len(all)-1, int(p*float64(len(all))))] }
	var sum int64
	for _, v := range all {
		sum += v
	}
	res.Fires = total.Load()
	res.NsPerFire = float64(sum) / float64(len(all))
	res.P50Ns, res.P90Ns, res.P99Ns = pct(0.50), pct(0.90), pct(0.99)
	res.AllocsPerFire = float64(after.Mallocs-before.Mallocs) / float64(res.Fires)
	res.BytesPerFire = float64(after.TotalAlloc-before.TotalAlloc) / float64(res.Fires)
	res.FiresPerSec = float64(res.Fires) / elapsed.Seconds()
	return res, nil
}
