// Command hookctl is the hookctl CLI: it simulates events against a hook
// configuration (fire), replays recorded Claude Code sessions through it
// (replay), checks configurations (validate), lists hooks and events, plugs
// the engine into Claude Code (claude, serve), imports Claude Code settings
// and benchmarks configurations.
package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

func main() {
	start := time.Now()
	tuneGC(os.Args[1:])
	ctx := withMainStart(context.Background(), start)
	if runsHooks(subcommand(os.Args[1:])) {
		// Handled until the process exits.
		ctx, _ = withStopSignals(ctx)
	}
	code := runContext(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if se, ok := stoppedBySignal(ctx); ok && code != exitBlocked {
		if c := stoppedCode(subcommand(os.Args[1:]), code); c != code {
			// Never a silent allow: the host gave up on the hook.
			fmt.Fprintf(os.Stderr, "hookctl: %v\n", se)
			code = c
		}
	}
	os.Exit(code)
}

// subcommand is the first argument that is not a flag.
func subcommand(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

// oneShotHeap is the memory a short-lived command runs in before its
// first collection (collectPast).
const oneShotHeap = 64 << 20

// tuneGC sets the garbage collector for the command, unless GOGC or
// GOMEMLIMIT says otherwise. Most commands live a few milliseconds and
// allocate a few megabytes: collecting then only costs time, so they run
// without collections until the Go runtime holds oneShotHeap (a
// configuration of a hundred JS hooks is loaded and fired in a third of
// it), and collect from then on at GOGC=200: the command has turned out
// to be a big one (a thousand hooks, a payload of tens of megabytes),
// whose peak memory would otherwise be all it ever allocated (a thousand
// JS hooks: 180 MB of RSS without collections, 94 MB so, for the same
// time; Go's default GOGC=100 costs a fifth more CPU for 88 MB). serve and bench fire events for a long time, and their
// latency tail is set by how often the collector runs: GOGC=400 makes it a
// quarter as often, for a few more megabytes of heap (daemon, which lives
// as long, likewise). replay fires as many events as its transcript holds
// and allocates as it decodes them; it streams, so its live heap stays a
// few megabytes and GOGC=400 keeps collections rare (a 1 GB transcript:
// 76 MB of RSS). serve also gets a 1 GiB soft memory limit, twice its
// default --max-memory: under a flood of large inputs, GOGC=400 alone
// would let the heap grow to five times what they hold before collecting.
func tuneGC(args []string) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	switch subcommand(args) {
	case "serve", "daemon":
		debug.SetGCPercent(400)
		debug.SetMemoryLimit(1 << 30)
	case "bench", "replay":
		debug.SetGCPercent(400)
	default:
		collectPast(oneShotHeap, 200)
	}
}

// collectPast turns the collector off until the Go runtime's memory
// reaches limit (the soft memory limit starts the first collection), then
// on at gogc percent with no memory limit: a limit below what the command
// keeps live would make it collect over and over. The switch is made by
// the cleanup of an object no one holds, which runs after the first
// collection, whatever started it.
func collectPast(limit int64, gogc int) {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(limit)
	// 64 bytes, not a tiny allocation: tiny ones share a block, whose
	// cleanup may wait for its neighbours.
	sentinel := new([64]byte)
	runtime.AddCleanup(sentinel, func(gogc int) {
		debug.SetGCPercent(gogc)
		debug.SetMemoryLimit(math.MaxInt64)
	}, gogc)
}
