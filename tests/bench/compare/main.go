// Command compare runs hookctl and its peers on the same ten hooks and the
// same payload, one after the other on this machine, and prints medians,
// tails and ratios (the in-process peers in interleaved rounds, each the
// median of its rounds):
//
//   - hookctl in-process: the hooks as JavaScript (testdata/peers/hooks.hcl)
//     and as declarative hooks (declarative.hcl);
//   - Node.js in-process, OpenClaw style (node_runner.js, run with the
//     machine's node);
//   - bash and python3 command hooks, one process per hook, ten in
//     parallel per event, as Claude Code runs them (hook.sh, hook.py);
//   - hookctl claude (one process per event) and hookctl serve (one HTTP
//     round trip per event).
//
// Run it from the repository root:
//
//	go run ./tests/bench/compare            # about a minute
//	go run ./tests/bench/compare -quick     # a few seconds, rougher
//	go run ./tests/bench/compare -markdown  # the table as Markdown
//
// A peer whose interpreter is missing is reported as skipped.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/tests/bench"
)

func main() {
	quick := flag.Bool("quick", false, "fewer fires and processes: seconds instead of a minute")
	markdown := flag.Bool("markdown", false, "print the table as Markdown")
	dir := flag.String("peers", "tests/bench/testdata/peers", "directory of the peer hooks and payload")
	procs := flag.Int("processes", 0, "measure only one bash process, hookctl claude and hookctl-client, in `N` rounds of 40 events each")
	flag.Parse()
	var err error
	if *procs > 0 {
		err = runProcesses(*dir, *procs, 40, os.Stdout)
	} else {
		err = run(*dir, *quick, *markdown, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

// row is one peer's measurement; the durations are per event.
type row struct {
	name           string
	p50, p99, mean time.Duration
	// best is the lowest p50 of a peer measured in rounds (medianRow):
	// the round the machine disturbed least.
	best    time.Duration
	allocs  float64 // per event; -1 when not measured
	note    string
	skipped string
}

type sizes struct {
	jsFires, declFires, nodeFires, bashEvents, pyEvents, claudeRuns, serveReqs int
	rounds                                                                     int
	throughput                                                                 time.Duration
}

func run(dir string, quick, markdown bool, w io.Writer) error {
	n := sizes{jsFires: 150_000, declFires: 450_000, nodeFires: 250_000, bashEvents: 40, pyEvents: 12, claudeRuns: 40, serveReqs: 3000, rounds: 5, throughput: 3 * time.Second}
	if quick {
		n = sizes{jsFires: 10_000, declFires: 30_000, nodeFires: 20_000, bashEvents: 5, pyEvents: 3, claudeRuns: 5, serveReqs: 300, rounds: 2, throughput: 500 * time.Millisecond}
	}
	payloadPath := filepath.Join(dir, "payload.json")
	payloadJSON, err := os.ReadFile(payloadPath)
	if err != nil {
		return err
	}
	payload, err := bench.ReadPayload(payloadPath)
	if err != nil {
		return err
	}
	hooksHCL, _ := filepath.Abs(filepath.Join(dir, "hooks.hcl"))
	declHCL, _ := filepath.Abs(filepath.Join(dir, "declarative.hcl"))

	printMachine(w)
	loadBefore, stealBefore := machineLoad()
	var rows []row
	report := func(r row, err error) {
		if err != nil {
			r.skipped = err.Error()
		}
		rows = append(rows, r)
		if r.skipped != "" {
			fmt.Fprintf(os.Stderr, "  %-34s skipped: %s\n", r.name, r.skipped)
		} else {
			fmt.Fprintf(os.Stderr, "  %-34s p50 %s (%s)\n", r.name, human(r.p50), r.note)
		}
	}
	fmt.Fprintln(os.Stderr, "measuring:")

	// hookctl and Node in-process, in rounds: each round measures every
	// one of them afresh (a new engine, a new node process), and a row is
	// the median of its rounds. On a shared machine one instance can run
	// at half the speed of the next, for its whole life; rounds spread
	// that over every peer instead of letting it fall on one.
	//
	// The engine is the one a host's answer fires (bench.HostOptions:
	// the hooks that ran cleanly counted, not traced), but for the rows
	// that say "every hook traced" and FireInto, serve's path (its
	// metrics read every trace).
	host := bench.HostOptions()
	inProc := []struct {
		name, config string
		fires        int
		into         bool
		gogc         int
		opts         []engine.Option
	}{
		{"hookctl, 10 JS hooks, in-process", hooksHCL, n.jsFires, false, 0, host},
		{"hookctl, 10 declarative hooks", declHCL, n.declFires, false, 0, host},
		// FireInto: the outcome reused from fire to fire, as a server
		// that replies per request can.
		{"hookctl, 10 JS hooks, FireInto", hooksHCL, n.jsFires, true, 0, nil},
		{"hookctl, 10 declarative hooks, FireInto", declHCL, n.declFires, true, 0, nil},
		{"hookctl, 10 JS hooks, GOGC=400", hooksHCL, n.jsFires, false, 400, host},
		{"hookctl, 10 JS hooks, every hook traced", hooksHCL, n.jsFires, false, 0, nil},
	}
	rounds := make([][]row, len(inProc)+1) // the last: Node
	nodeScript := filepath.Join(dir, "node_runner.js")
	var nodeErr error
	var floors []exprFloor
	for range n.rounds {
		floor, err := measureExprFloor(payload, n.declFires/n.rounds/10)
		if err != nil {
			return err
		}
		floors = append(floors, floor)
		for i, v := range inProc {
			r, err := func() (row, error) {
				if v.gogc != 0 {
					defer debug.SetGCPercent(debug.SetGCPercent(v.gogc))
				}
				return inProcess(v.name, v.config, payload, v.fires/n.rounds, v.into, v.opts...)
			}()
			if err != nil {
				return err
			}
			rounds[i] = append(rounds[i], r)
		}
		if nodeErr == nil {
			var r row
			if r, nodeErr = nodePeer(nodeScript, payloadPath, n.nodeFires/n.rounds); nodeErr == nil {
				rounds[len(inProc)] = append(rounds[len(inProc)], r)
			}
		}
	}
	meds := make([]row, len(rounds))
	for i, rs := range rounds {
		if i == len(inProc) && nodeErr != nil {
			meds[i] = row{name: "Node.js in-process, OpenClaw style"}
			report(meds[i], nodeErr)
			continue
		}
		meds[i] = medianRow(rs)
		report(meds[i], nil)
	}
	js, decl, jsInto, jsGC, jsFull := meds[0], meds[1], meds[2], meds[4], meds[5]
	eps, err := throughput(hooksHCL, payload, n.throughput)
	if err != nil {
		return err
	}
	noHook, noHookAllocs, err := noHooks(hooksHCL)
	if err != nil {
		return err
	}

	// One process per hook.
	hookSh, _ := filepath.Abs(filepath.Join(dir, "hook.sh"))
	hookPy, _ := filepath.Abs(filepath.Join(dir, "hook.py"))
	bashRow, bashErr := processes("bash, 10 processes per event", "bash", "bash "+hookSh, 10, payloadJSON, n.bashEvents)
	report(bashRow, bashErr)
	pyRow, pyErr := processes("python3, 10 processes per event", "python3", "python3 "+hookPy, 10, payloadJSON, n.pyEvents)
	report(pyRow, pyErr)
	report(processes("python3, the checks in 1 process", "python3", "python3 "+hookPy, 1, payloadJSON, n.pyEvents))

	// hookctl as a process.
	tmp, err := os.MkdirTemp("", "hookctl-compare")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin, err := bench.Build(tmp)
	if err != nil {
		return err
	}
	// The same checks as one hook in one bash process (what hookctl
	// claude replaces when a user folds every check into one script),
	// hookctl claude and hookctl-client, a process per event each, taken
	// in turn event by event, so that the machine's changes of pace fall
	// on all three alike.
	for _, r := range pairedProcesses(bin, hooksHCL, "bash "+hookSh, payloadJSON, tmp, n.claudeRuns) {
		report(r.row, r.err)
	}
	cold, coldErr := coldBreakdown(bin, hooksHCL, payloadJSON, tmp, n.claudeRuns)
	report(servePeer(bin, hooksHCL, payloadJSON, n.serveReqs))

	fmt.Fprintln(w)
	printTable(w, rows, js, markdown)
	fmt.Fprintln(w)
	if coldErr != nil {
		fmt.Fprintf(w, "cold path: %v\n\n", coldErr)
	} else {
		cold.print(w)
		fmt.Fprintln(w)
	}
	var nodeRounds []row
	if nodeErr == nil {
		nodeRounds = rounds[len(inProc)]
	}
	printTargets(w, targets{js: js, jsGC: jsGC, jsInto: jsInto, jsFull: jsFull, jsFullRounds: rounds[5], decl: decl, jsRounds: rounds[0], declRounds: rounds[1], nodeRounds: nodeRounds, floors: floors, rows: rows, eps: eps, noHook: noHook, noHookAllocs: noHookAllocs, bash: bashRow, bashErr: bashErr, py: pyRow, pyErr: pyErr})
	loadAfter, stealAfter := machineLoad()
	printLoad(w, loadBefore, loadAfter, stealBefore, stealAfter)
	return nil
}

// runProcesses measures the process peers alone (one bash process
// running the checks, hookctl claude, hookctl-client answered by a warm
// daemon), events taken in turn, in rounds of runs events: per round the
// p50 of each and hookctl-client's p50 ÷ bash's; then the median of those
// ratios and their range.
func runProcesses(dir string, rounds, runs int, w io.Writer) error {
	payloadJSON, err := os.ReadFile(filepath.Join(dir, "payload.json"))
	if err != nil {
		return err
	}
	hooksHCL, _ := filepath.Abs(filepath.Join(dir, "hooks.hcl"))
	hookSh, _ := filepath.Abs(filepath.Join(dir, "hook.sh"))
	tmp, err := os.MkdirTemp("", "hookctl-compare")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin, err := bench.Build(tmp)
	if err != nil {
		return err
	}
	printMachine(w)
	loadBefore, stealBefore := machineLoad()
	var ratios []float64
	for i := range rounds {
		res := pairedProcesses(bin, hooksHCL, "bash "+hookSh, payloadJSON, tmp, runs)
		for _, r := range res {
			if r.err != nil {
				return fmt.Errorf("%s: %w", r.row.name, r.err)
			}
		}
		bash, claude, client, gofloor, sh := res[0].row, res[1].row, res[2].row, res[3].row, res[4].row
		x := float64(client.p50) / float64(bash.p50)
		ratios = append(ratios, x)
		fmt.Fprintf(w, "round %d: bash %s, hookctl claude %s, hookctl-client %s: client ÷ bash %.2f×; floors: a Go program %s (÷ bash %.2f×), the shell alone %s\n",
			i+1, human(bash.p50), human(claude.p50), human(client.p50), x, human(gofloor.p50), float64(gofloor.p50)/float64(bash.p50), human(sh.p50))
	}
	slices.Sort(ratios)
	fmt.Fprintf(w, "hookctl-client ÷ one bash hook process, median of %d rounds: %.2f× (%.2f–%.2f×; ≤ 1.0× in every round: %s)\n",
		rounds, ratios[len(ratios)/2], ratios[0], ratios[len(ratios)-1], map[bool]string{true: "met", false: "NOT met"}[ratios[len(ratios)-1] <= 1.0])
	loadAfter, stealAfter := machineLoad()
	printLoad(w, loadBefore, loadAfter, stealBefore, stealAfter)
	return nil
}

// machineLoad returns the 1-minute load average and the CPU time stolen
// by the hypervisor so far (in clock ticks), where /proc says; -1 when
// unknown.
func machineLoad() (load float64, steal int64) {
	load, steal = -1, -1
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Sscan(string(b), &load)
	}
	if b, err := os.ReadFile("/proc/stat"); err == nil {
		line, _, _ := strings.Cut(string(b), "\n")
		f := strings.Fields(line)
		if len(f) > 8 && f[0] == "cpu" {
			fmt.Sscan(f[8], &steal)
		}
	}
	return load, steal
}

// printLoad prints the machine's load around the run, and warns when it
// was busy: other work on the cores makes every figure above slower and
// noisier, the tails most.
func printLoad(w io.Writer, before, after float64, stealBefore, stealAfter int64) {
	if before < 0 {
		return
	}
	cores := float64(runtime.NumCPU())
	fmt.Fprintf(w, "machine load (1-minute average): %.2f before, %.2f after, %d cores", before, after, runtime.NumCPU())
	if stealBefore >= 0 && stealAfter >= stealBefore {
		fmt.Fprintf(w, "; CPU stolen by the hypervisor during the run: %.2f s", float64(stealAfter-stealBefore)/100)
	}
	fmt.Fprintln(w)
	// The run itself keeps about one core busy.
	if before > 0.5*cores || after > cores+0.5 {
		fmt.Fprintln(w, "WARNING: the machine was busy during this run; the figures are slower and noisier than on an idle machine. Run it again when it is idle.")
	}
}

func printMachine(w io.Writer) {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	version := func(name string, args ...string) string {
		out, err := exec.Command(name, args...).Output()
		if err != nil {
			return "not found"
		}
		line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		return line
	}
	gogc := os.Getenv("GOGC")
	if gogc == "" {
		gogc = "100 (default)"
	}
	fmt.Fprintf(w, "machine: %s, %d cores (GOMAXPROCS %d), %s/%s\n", model, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(w, "go: %s, GOGC %s; node: %s; %s; %s\n", runtime.Version(), gogc, version("node", "--version"),
		version("bash", "--version"), version("python3", "--version"))
}

// inProcess fires the config's PreToolUse hooks n times after a warm-up
// and returns the latency distribution and allocations per fire; into
// fires with FireInto, into one reused Outcome. opts are the engine's.
func inProcess(name, config string, payload map[string]any, n int, into bool, opts ...engine.Option) (row, error) {
	r := row{name: name}
	e, cfg, err := bench.LoadEngine(config, opts...)
	if err != nil {
		return r, err
	}
	defer cfg.Close()
	defer e.Close(context.Background())
	id, err := e.Resolve("PreToolUse")
	if err != nil {
		return r, err
	}
	ev := engine.Event{ID: id, Payload: payload}
	ctx := context.Background()
	out, err := e.Fire(ctx, ev)
	if err != nil {
		return r, err
	}
	decided := out.UntracedRuns // ran cleanly: with engine.WithQuietRuns, counted
	for _, h := range out.Hooks {
		if h.Status == engine.StatusDecided {
			decided++
		}
	}
	if decided != 10 || out.AdditionalContext == "" {
		return r, fmt.Errorf("%d of the 10 hooks decided", decided)
	}
	fire := func() error {
		if into {
			return e.FireInto(ctx, ev, &out)
		}
		_, err := e.Fire(ctx, ev)
		return err
	}
	for range n / 10 {
		if err := fire(); err != nil {
			return r, err
		}
	}
	runtime.GC()
	lat := make([]time.Duration, n)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	for i := range n {
		t0 := time.Now()
		if err := fire(); err != nil {
			return r, err
		}
		lat[i] = time.Since(t0)
	}
	total := time.Since(start)
	runtime.ReadMemStats(&after)
	r.p50, r.p99 = percentiles(lat)
	r.mean = total / time.Duration(n)
	r.allocs = float64(after.Mallocs-before.Mallocs) / float64(n)
	r.note = fmt.Sprintf("%d fires", n)
	return r, nil
}

// medianRow is the median of rounds of one peer: of their p50s, p99s and
// means each.
func medianRow(rs []row) row {
	if len(rs) == 0 {
		return row{}
	}
	out := rs[0]
	med := func(f func(row) time.Duration) time.Duration {
		v := make([]time.Duration, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	out.p50 = med(func(r row) time.Duration { return r.p50 })
	out.p99 = med(func(r row) time.Duration { return r.p99 })
	out.mean = med(func(r row) time.Duration { return r.mean })
	lo, hi := rs[0].p50, rs[0].p50
	for _, r := range rs {
		lo, hi = min(lo, r.p50), max(hi, r.p50)
	}
	out.best = lo
	out.note = fmt.Sprintf("median of %d rounds, p50 %s to %s", len(rs), human(lo), human(hi))
	return out
}

// throughput fires from GOMAXPROCS goroutines for d and returns events/s.
func throughput(config string, payload map[string]any, d time.Duration) (float64, error) {
	e, cfg, err := bench.LoadEngine(config, bench.HostOptions()...)
	if err != nil {
		return 0, err
	}
	defer cfg.Close()
	defer e.Close(context.Background())
	id, err := e.Resolve("PreToolUse")
	if err != nil {
		return 0, err
	}
	ev := engine.Event{ID: id, Payload: payload}
	var fires atomic.Int64
	var failed atomic.Value
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	start := time.Now()
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				if _, err := e.Fire(context.Background(), ev); err != nil {
					failed.Store(err)
					return
				}
				fires.Add(1)
			}
		})
	}
	wg.Wait()
	if err, _ := failed.Load().(error); err != nil {
		return 0, err
	}
	return float64(fires.Load()) / time.Since(start).Seconds(), nil
}

// noHooks measures a fire of an event without hooks.
func noHooks(config string) (float64, float64, error) {
	e, cfg, err := bench.LoadEngine(config)
	if err != nil {
		return 0, 0, err
	}
	defer cfg.Close()
	defer e.Close(context.Background())
	id, err := e.Resolve("Notification")
	if err != nil {
		return 0, 0, err
	}
	ev := engine.Event{ID: id}
	ctx := context.Background()
	const n = 5_000_000
	var before, after runtime.MemStats
	best := time.Duration(1 << 62)
	for range 3 {
		runtime.ReadMemStats(&before)
		start := time.Now()
		for range n {
			_, _ = e.Fire(ctx, ev)
		}
		best = min(best, time.Since(start))
		runtime.ReadMemStats(&after)
	}
	return float64(best.Nanoseconds()) / n, float64(after.Mallocs-before.Mallocs) / n, nil
}

// nodePeer runs node_runner.js.
func nodePeer(script, payload string, fires int) (row, error) {
	r := row{name: "Node.js in-process, OpenClaw style"}
	node, err := exec.LookPath("node")
	if err != nil {
		return r, fmt.Errorf("node not found")
	}
	out, err := exec.Command(node, script, payload, fmt.Sprint(fires)).Output()
	if err != nil {
		return r, fmt.Errorf("node: %v", err)
	}
	var res struct {
		Fires int     `json:"fires"`
		Mean  float64 `json:"mean_ns"`
		P50   float64 `json:"p50_ns"`
		P99   float64 `json:"p99_ns"`
		Node  string  `json:"node"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return r, fmt.Errorf("node output %q: %v", out, err)
	}
	r.p50, r.p99, r.mean = time.Duration(res.P50), time.Duration(res.P99), time.Duration(res.Mean)
	r.allocs = -1
	r.note = fmt.Sprintf("%d fires, node %s", res.Fires, res.Node)
	return r, nil
}

// processes runs events of n parallel hook processes.
func processes(name, interpreter, cmdline string, n int, payload []byte, events int) (row, error) {
	r := row{name: name, allocs: -1}
	if _, err := exec.LookPath(interpreter); err != nil {
		return r, fmt.Errorf("%s not found", interpreter)
	}
	one := func() error { return bench.SpawnParallel(context.Background(), cmdline, n, payload) }
	err := timeRuns(&r, one, 1, events) // one warm-up event fills the caches
	r.note = fmt.Sprintf("%d events", events)
	return r, err
}

// claudeOne returns one run of `hookctl claude`, a whole process per
// event, start-up, configuration load and trust check included.
func claudeOne(bin, config string, payload []byte, tmp string) (func() error, error) {
	state := filepath.Join(tmp, "state")
	env, err := bench.TrustEnv(bin, config, tmp)
	if err != nil {
		return nil, err
	}
	return func() error {
		cmd := bench.ShellForm(bin, "claude", "--config", config)
		cmd.Stdin = bytes.NewReader(payload)
		cmd.Env = append(env, "HOOKCTL_STATE_DIR="+state)
		out, err := cmd.CombinedOutput()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 2 {
				return nil
			}
			return fmt.Errorf("%v: %s", err, out)
		}
		return nil
	}, nil
}

// clientOne returns one run of `hookctl-client claude`, as a host runs
// it, answered by a daemon (the first run starts it) that stop ends.
func clientOne(bin, config string, payload []byte, tmp string) (one func() error, stop func(), err error) {
	client := filepath.Join(filepath.Dir(bin), "hookctl-client")
	dir := filepath.Join(tmp, "client")
	env, err := bench.TrustEnv(bin, config, tmp)
	if err != nil {
		return nil, nil, err
	}
	env, stop, err = bench.ClientEnv(env, dir)
	if err != nil {
		return nil, nil, err
	}
	return func() error {
		cmd := bench.ShellForm(client, "claude", "--config", config)
		cmd.Stdin = bytes.NewReader(payload)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%v: %s", err, out)
		}
		return nil
	}, stop, nil
}

type result struct {
	row row
	err error
}

// pairedProcesses times one bash process running the checks, hookctl
// claude and hookctl-client claude, a process per event each, in turn:
// event i of each runs right after event i of the one before.
func pairedProcesses(bin, config, bashCmd string, payload []byte, tmp string, runs int) []result {
	out := []result{
		{row: row{name: "bash, the checks in 1 process", allocs: -1}},
		{row: row{name: "hookctl claude, a process per event", allocs: -1}},
		{row: row{name: "hookctl-client claude (daemon), a process per event", allocs: -1}},
		{row: row{name: "floor: a Go program that writes {} and exits", allocs: -1}},
		{row: row{name: "floor: the shell alone (sh -c true)", allocs: -1}},
	}
	ones := make([]func() error, len(out))
	if _, err := exec.LookPath("bash"); err != nil {
		out[0].err = errors.New("bash not found")
	} else {
		ones[0] = func() error { return bench.SpawnParallel(context.Background(), bashCmd, 1, payload) }
	}
	ones[1], out[1].err = claudeOne(bin, config, payload, tmp)
	var stop func()
	ones[2], stop, out[2].err = clientOne(bin, config, payload, tmp)
	if stop != nil {
		defer stop()
	}
	// What any Go program costs a host, and what the shell itself does:
	// the floors under hookctl-client and the bash peer.
	ones[3], out[3].err = goFloorOne(tmp, payload)
	ones[4] = func() error { return bench.ShellForm("true").Run() }
	lat := make([][]time.Duration, len(out))
	for i := -1; i < runs; i++ { // run -1 warms up (and starts the daemon)
		for j, one := range ones {
			if out[j].err != nil {
				continue
			}
			t0 := time.Now()
			if err := one(); err != nil {
				out[j].err = err
				continue
			}
			if i >= 0 {
				lat[j] = append(lat[j], time.Since(t0))
			}
		}
	}
	for j := range out {
		if out[j].err != nil {
			continue
		}
		summarize(&out[j].row, lat[j])
		out[j].row.note = fmt.Sprintf("%d runs, in turn with the other process peers", runs)
	}
	return out
}

// goFloorOne builds the smallest Go program a hook could be (it writes
// {} and exits) and returns one run of it, through the shell as the other
// process peers.
func goFloorOne(tmp string, payload []byte) (func() error, error) {
	dir := filepath.Join(tmp, "gofloor")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	src := "package main\n\nimport \"os\"\n\nfunc main() { os.Stdout.WriteString(\"{}\\n\") }\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module gofloor\n\ngo 1.24\n"), 0o644); err != nil {
		return nil, err
	}
	bin := filepath.Join(dir, "gofloor")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build: %v: %s", err, out)
	}
	return func() error {
		cmd := bench.ShellForm(bin)
		cmd.Stdin = bytes.NewReader(payload)
		return cmd.Run()
	}, nil
}

// servePeer posts events to a running `hookctl serve`.
func servePeer(bin, config string, payload []byte, reqs int) (row, error) {
	r := row{name: "hookctl serve, an HTTP request per event", allocs: -1}
	url, stop, err := bench.StartServe(bin, config)
	if err != nil {
		return r, err
	}
	defer stop()
	client := &http.Client{Timeout: 10 * time.Second}
	one := func() error {
		resp, err := client.Post(url, "application/json", bytes.NewReader(payload))
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("serve answered %s", resp.Status)
		}
		return nil
	}
	err = timeRuns(&r, one, reqs/10, reqs)
	r.note = fmt.Sprintf("%d requests, loopback", reqs)
	return r, err
}

// timeRuns calls one warm times, then n times measured, and fills r's
// median, tail and mean.
func timeRuns(r *row, one func() error, warm, n int) error {
	for range warm {
		if err := one(); err != nil {
			return err
		}
	}
	lat := make([]time.Duration, n)
	for i := range n {
		t0 := time.Now()
		if err := one(); err != nil {
			return err
		}
		lat[i] = time.Since(t0)
	}
	summarize(r, lat)
	return nil
}

// summarize sets a row's p50, p99 and mean from its latencies.
func summarize(r *row, lat []time.Duration) {
	var total time.Duration
	for _, d := range lat {
		total += d
	}
	r.mean = total / time.Duration(max(1, len(lat)))
	r.p50, r.p99 = percentiles(lat)
}

func percentiles(lat []time.Duration) (p50, p99 time.Duration) {
	s := slices.Clone(lat)
	slices.Sort(s)
	return s[len(s)/2], s[min(len(s)-1, len(s)*99/100)]
}

func printTable(w io.Writer, rows []row, base row, markdown bool) {
	header := []string{"peer (same 10 hooks, same payload)", "p50 per event", "p99", "mean", "allocs", "p50 ÷ hookctl JS p50"}
	var lines [][]string
	for _, r := range rows {
		if r.skipped != "" {
			lines = append(lines, []string{r.name, "skipped: " + r.skipped, "", "", "", ""})
			continue
		}
		allocs := "—"
		if r.allocs >= 0 {
			allocs = fmt.Sprintf("%.0f", r.allocs)
		}
		ratio := "1"
		if r.name != base.name {
			ratio = ratioNumber(float64(r.p50) / float64(base.p50))
		}
		lines = append(lines, []string{r.name, human(r.p50), human(r.p99), human(r.mean), allocs, ratio})
	}
	if markdown {
		fmt.Fprintln(w, "| "+strings.Join(header, " | ")+" |")
		fmt.Fprintln(w, "|"+strings.Repeat("---|", len(header)))
		for _, l := range lines {
			fmt.Fprintln(w, "| "+strings.Join(l, " | ")+" |")
		}
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, l := range lines {
		fmt.Fprintln(tw, strings.Join(l, "\t"))
	}
	tw.Flush()
}

// ratioNumber prints a ratio with the precision it deserves.
func ratioNumber(x float64) string {
	switch {
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.0f", x)
	case x >= 1:
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

type targets struct {
	js, jsGC, jsInto, decl row
	// jsFull is the JS hooks with every hook traced (no
	// engine.WithQuietRuns), and its rounds.
	jsFull       row
	jsFullRounds []row
	// The rounds of the JS and declarative hooks and of Node, in the
	// order they ran (interleaved), and the expr floor of each round.
	jsRounds, declRounds, nodeRounds []row
	floors                           []exprFloor
	rows                             []row
	eps                              float64
	noHook, noHookAllocs             float64
	bash, py                         row
	bashErr, pyErr                   error
}

func printTargets(w io.Writer, t targets) {
	check := func(ok bool) string {
		if ok {
			return "met"
		}
		return "NOT met"
	}
	find := func(prefix string) (row, bool) {
		for _, r := range t.rows {
			if strings.HasPrefix(r.name, prefix) && r.skipped == "" {
				return r, true
			}
		}
		return row{}, false
	}
	fmt.Fprintln(w, "SPEC §8 targets:")
	fmt.Fprintf(w, "  no-hook fire: %.1f ns, %.0f allocs (≤ 12 ns, 0 allocs): %s\n", t.noHook, t.noHookAllocs, check(t.noHook <= 12 && t.noHookAllocs == 0))
	if r, ok := pairedRatios(t.declRounds, t.nodeRounds); ok {
		node, _ := find("Node.js")
		fmt.Fprintf(w, "  10 declarative hooks vs Node running 10 JS hooks, p50, median of %d interleaved rounds: %s vs %s, %s (≤ 1.0×): %s (best rounds: %s vs %s, %.2f×)\n",
			len(r.each), human(t.decl.p50), human(node.p50), r, check(r.med <= 1.0), human(t.decl.best), human(node.best), float64(t.decl.best)/float64(node.best))
	} else {
		fmt.Fprintln(w, "  10 declarative hooks vs Node: node not found, not measured")
	}
	if len(t.floors) > 0 && len(t.floors) == len(t.declRounds) {
		per, shared := make([]float64, len(t.floors)), make([]float64, len(t.floors))
		for i, f := range t.floors {
			per[i] = float64(t.declRounds[i].p50) / float64(f.perHook)
			shared[i] = float64(t.declRounds[i].p50) / float64(f.shared)
		}
		rp, rs := ratiosOf(per), ratiosOf(shared)
		fl := medianFloor(t.floors)
		fmt.Fprintf(w, "  10 declarative hooks vs the expr floor (10 expr.Run: %s; 1 shared: %s), medians of rounds: %s the first (≤ 2×): %s; %s the second\n",
			human(fl.perHook), human(fl.shared), rp, check(rp.med <= 2), rs)
	}
	fmt.Fprintf(w, "  10 JS hooks, medians of rounds: p50 %s (≤ 15 µs): %s; p99 %s (≤ 50 µs): %s, with FireInto %s: %s, with GOGC=400 %s: %s; %.0f allocs (≤ 150): %s\n",
		human(t.js.p50), check(t.js.p50 <= 15*time.Microsecond), human(t.js.p99), check(t.js.p99 <= 50*time.Microsecond),
		human(t.jsInto.p99), check(t.jsInto.p99 > 0 && t.jsInto.p99 <= 60*time.Microsecond),
		human(t.jsGC.p99), check(t.jsGC.p99 <= 60*time.Microsecond), t.js.allocs, check(t.js.allocs <= 150))
	fmt.Fprintf(w, "  throughput, 10 JS hooks, %d cores: %.0f events/s (≥ 60,000): %s\n", runtime.GOMAXPROCS(0), t.eps, check(t.eps >= 60_000))
	if t.bashErr == nil {
		x := float64(t.bash.p50) / float64(t.js.p50)
		fmt.Fprintf(w, "  vs bash processes: %.0f× (≥ 1000×): %s\n", x, check(x >= 1000))
	}
	if t.pyErr == nil {
		x := float64(t.py.p50) / float64(t.js.p50)
		fmt.Fprintf(w, "  vs python3 processes: %.0f× (≥ 10,000×): %s\n", x, check(x >= 10_000))
	}
	if c, ok := find("hookctl claude"); ok {
		fmt.Fprintf(w, "  hookctl claude with 10 hooks: p50 %s (≤ 10 ms): %s\n", human(c.p50), check(c.p50 <= 10*time.Millisecond))
	}
	if c, ok := find("hookctl-client"); ok {
		if b, ok := find("bash, the checks in 1 process"); ok && b.p50 > 0 {
			x := float64(c.p50) / float64(b.p50)
			fmt.Fprintf(w, "  hookctl-client and a warm daemon, 10 hooks, vs one bash hook process: %.2f× (≤ 1.0×): %s\n", x, check(x <= 1.0))
		}
	}
	if c, ok := find("hookctl claude"); ok {
		if b, ok := find("bash, the checks in 1 process"); ok && b.p50 > 0 {
			x := float64(c.p50) / float64(b.p50)
			fmt.Fprintf(w, "  hookctl claude cold (no daemon), 10 hooks, vs one bash hook process: %.2f× (≤ 3×): %s\n", x, check(x <= 3))
		}
	}
	if r, ok := pairedRatios(t.jsRounds, t.nodeRounds); ok {
		// Each round's ratio is of two peers measured one after the
		// other; the headline is their median, the best rounds (each
		// peer at its least disturbed) beside it.
		node, _ := find("Node.js")
		fmt.Fprintf(w, "  10 JS hooks vs Node's p50, median of %d interleaved rounds: %s vs %s, %s (≤ 4×): %s (best rounds: %.1f×); %.0f allocs per fire (≤ 40): %s\n",
			len(r.each), human(t.js.p50), human(node.p50), r, check(r.med <= 4), float64(t.js.best)/float64(node.best), t.js.allocs, check(math.Round(t.js.allocs) <= 40))
		fmt.Fprintf(w, "  the same, ≤ 3×: %s\n", check(r.med <= 3))
		if f, ok := pairedRatios(t.jsFullRounds, t.nodeRounds); ok {
			fmt.Fprintf(w, "  10 JS hooks with every hook traced vs Node's p50: %s vs %s, %s; p99 %s\n", human(t.jsFull.p50), human(node.p50), f, human(t.jsFull.p99))
		}
	}
}

// ratios are the per-round ratios of two peers, and their median.
type ratios struct {
	each        []float64
	med, lo, hi float64
}

func (r ratios) String() string {
	return fmt.Sprintf("%.2f× (rounds %.2f–%.2f×)", r.med, r.lo, r.hi)
}

// ratiosOf sorts out the median and range of per-round ratios.
func ratiosOf(each []float64) ratios {
	r := ratios{each: each}
	if len(each) == 0 {
		return r
	}
	s := slices.Clone(each)
	slices.Sort(s)
	r.med, r.lo, r.hi = s[len(s)/2], s[0], s[len(s)-1]
	return r
}

// pairedRatios are the ratios of a's p50 to b's in each round (a and b
// measured in the same rounds, one after the other); ok is false when
// they were not.
func pairedRatios(a, b []row) (ratios, bool) {
	if len(a) == 0 || len(a) != len(b) {
		return ratios{}, false
	}
	each := make([]float64, len(a))
	for i := range a {
		if a[i].p50 <= 0 || b[i].p50 <= 0 {
			return ratios{}, false
		}
		each[i] = float64(a[i].p50) / float64(b[i].p50)
	}
	return ratiosOf(each), true
}

func human(d time.Duration) string {
	switch {
	case d < time.Microsecond:
		return fmt.Sprintf("%d ns", d.Nanoseconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%.1f µs", float64(d.Nanoseconds())/1e3)
	case d < time.Second:
		return fmt.Sprintf("%.2f ms", float64(d.Nanoseconds())/1e6)
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

// coldPhases are the phases hookctl prints with HOOKCTL_TIMINGS=1, in
// order.
var coldPhases = []string{"command", "decode", "trust", "engine", "parse", "build", "load", "fire", "close"}

// cold is where a cold `hookctl claude` spends its time, medians over
// runs: before main (process start, the Go runtime, package
// initialisation), each phase of the command, the script runtime made in
// the background, and the exit.
type cold struct {
	runs                    int
	beforeMain, inits, exit time.Duration
	total, runtime          time.Duration
	phases                  map[string]time.Duration
}

// coldBreakdown runs `hookctl claude` runs times with HOOKCTL_TIMINGS=1
// and `hookctl --version` with GODEBUG=inittrace=1, and takes medians.
func coldBreakdown(bin, config string, payload []byte, tmp string, runs int) (cold, error) {
	c := cold{runs: runs, phases: map[string]time.Duration{}}
	env, err := bench.TrustEnv(bin, config, tmp)
	if err != nil {
		return c, err
	}
	env = append(env, "HOOKCTL_STATE_DIR="+filepath.Join(tmp, "state"), "HOOKCTL_TIMINGS=1")
	samples := map[string][]time.Duration{}
	for range runs {
		cmd := exec.Command(bin, "claude", "--config", config)
		cmd.Stdin = bytes.NewReader(payload)
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		t0 := time.Now()
		err := cmd.Run()
		wall := time.Since(t0)
		if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 2) {
			return c, fmt.Errorf("hookctl claude: %v: %s", err, stderr.Bytes())
		}
		got, ok := parseTimings(stderr.String())
		if !ok {
			return c, fmt.Errorf("hookctl claude printed no timings: %s", stderr.Bytes())
		}
		before := time.Unix(0, int64(got["main_unix_ns"])).Sub(t0)
		samples["before"] = append(samples["before"], before)
		samples["exit"] = append(samples["exit"], wall-before-got["total"])
		samples["wall"] = append(samples["wall"], wall)
		for k, v := range got {
			samples[k] = append(samples[k], v)
		}
	}
	for range runs {
		cmd := exec.Command(bin, "--version")
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			return c, fmt.Errorf("hookctl --version: %v: %s", err, out)
		}
		samples["inits"] = append(samples["inits"], initTime(string(out)))
	}
	med := func(k string) time.Duration {
		if len(samples[k]) == 0 {
			return 0
		}
		p50, _ := percentiles(samples[k])
		return p50
	}
	c.beforeMain, c.inits, c.exit, c.total, c.runtime = med("before"), med("inits"), med("exit"), med("wall"), med("runtime")
	for _, p := range coldPhases {
		c.phases[p] = med(p)
	}
	return c, nil
}

// parseTimings reads the "hookctl: timings:" line: main_unix_ns as a
// count of nanoseconds, the rest as milliseconds.
func parseTimings(stderr string) (map[string]time.Duration, bool) {
	for _, line := range strings.Split(stderr, "\n") {
		rest, ok := strings.CutPrefix(line, "hookctl: timings: ")
		if !ok {
			continue
		}
		out := map[string]time.Duration{}
		for _, f := range strings.Fields(rest) {
			k, v, _ := strings.Cut(f, "=")
			if k == "main_unix_ns" {
				var ns int64
				fmt.Sscan(v, &ns)
				out[k] = time.Duration(ns)
				continue
			}
			var ms float64
			fmt.Sscan(strings.TrimSuffix(v, "ms"), &ms)
			out[k] = time.Duration(ms * 1e6)
		}
		return out, true
	}
	return nil, false
}

// initTime sums the clock time of every package's initialisation in a
// GODEBUG=inittrace=1 trace ("init PKG @T ms, C ms clock, ...").
func initTime(trace string) time.Duration {
	var total float64
	for _, line := range strings.Split(trace, "\n") {
		f := strings.Fields(line)
		if len(f) >= 7 && f[0] == "init" && f[6] == "clock," {
			var ms float64
			fmt.Sscan(f[4], &ms)
			total += ms
		}
	}
	return time.Duration(total * 1e6)
}

func (c cold) print(w io.Writer) {
	fmt.Fprintf(w, "cold path of hookctl claude, 10 JS hooks (medians of %d runs; HOOKCTL_TIMINGS=1):\n", c.runs)
	fmt.Fprintf(w, "  %-44s %s (package initialisation alone: %s)\n", "before main: process start, Go runtime, inits", human(c.beforeMain), human(c.inits))
	for _, p := range coldPhases {
		fmt.Fprintf(w, "  %-44s %s\n", p, human(c.phases[p]))
	}
	fmt.Fprintf(w, "  %-44s %s\n", "exit", human(c.exit))
	fmt.Fprintf(w, "  %-44s %s\n", "total, as the host sees it", human(c.total))
	fmt.Fprintf(w, "  script runtime (goja, standard library, lockdown), made in the background from build on: %s\n", human(c.runtime))
}
