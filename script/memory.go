package script

import (
	"errors"
	"runtime"
	"runtime/metrics"
	"time"
)

// goja has no heap limit: a script that doubles a string in a loop takes
// the process's memory with it. The pool guards against that with a
// watchdog. While any script runs, it samples the process heap every
// memoryCheckEvery. When the heap has grown by more than the pool's memory
// limit since the watchdog started, it runs a collection to learn how much
// of that is held rather than garbage; when the live heap has grown past
// the limit, it interrupts every script running at that moment with
// ErrMemoryLimit, and their runtimes, which hold the memory, are dropped.
// Scripts that allocate a lot and keep little are left alone. The heap is
// the process's: an embedder whose own goroutines allocate hundreds of
// megabytes while a hook runs should raise the limit (WithMemoryLimit) or
// turn it off (0).

// DefaultMemoryLimit is how much the heap may grow while scripts run.
const DefaultMemoryLimit = 512 << 20

// memoryCheckEvery is the watchdog's sampling period.
const memoryCheckEvery = 5 * time.Millisecond

// ErrMemoryLimit is the cause of a script interrupted because the heap grew
// past the pool's memory limit while it ran.
var ErrMemoryLimit = errors.New("script interrupted: memory limit exceeded")

// WithMemoryLimit sets how many bytes the heap may grow while scripts run
// before they are interrupted (default DefaultMemoryLimit; 0 turns the
// guard off).
func WithMemoryLimit(bytes int64) Option {
	return func(p *Pool) {
		if bytes >= 0 {
			p.memLimit = uint64(bytes)
		}
	}
}

// heapSamples are what the watchdog reads: the live heap as of the last
// collection, and the heap including garbage not yet freed.
func heapSamples() []metrics.Sample {
	return []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
}

func readHeap(s []metrics.Sample) (live, all uint64) {
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		live = s[0].Value.Uint64()
	}
	if s[1].Value.Kind() == metrics.KindUint64 {
		all = s[1].Value.Uint64()
	}
	return live, all
}

// scriptStarted counts a running script and makes sure the watchdog runs.
func (p *Pool) scriptStarted() {
	if p.memLimit == 0 {
		return
	}
	p.running.Add(1)
	if p.watching.Load() {
		return
	}
	p.mu.Lock()
	if !p.watching.Load() && !p.closed {
		p.watching.Store(true)
		p.watchers.Add(1)
		go p.watchMemory()
	}
	p.mu.Unlock()
}

func (p *Pool) scriptEnded() {
	if p.memLimit != 0 {
		p.running.Add(-1)
	}
}

// watchMemory is the watchdog; it ends when no script runs.
func (p *Pool) watchMemory() {
	defer p.watchers.Done()
	sample := heapSamples()
	baseLive, baseAll := readHeap(sample)
	tick := time.NewTicker(memoryCheckEvery)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
		case <-p.closing:
			p.watching.Store(false)
			return
		}
		p.mu.Lock()
		if p.running.Load() == 0 || p.closed {
			p.watching.Store(false)
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
		live, all := readHeap(sample)
		// The collector may have freed what was there when we started.
		baseLive, baseAll = min(baseLive, live), min(baseAll, all)
		if all-baseAll <= p.memLimit {
			continue
		}
		runtime.GC() // how much of the growth is held?
		live, all = readHeap(sample)
		baseLive = min(baseLive, live)
		if live-baseLive <= p.memLimit {
			baseAll = all // garbage: measure from here
			continue
		}
		p.mu.Lock()
		vms := make([]*VM, 0, len(p.vms))
		for _, vm := range p.vms {
			vms = append(vms, vm)
		}
		p.mu.Unlock()
		for _, vm := range vms {
			vm.interrupt(ErrMemoryLimit) // only those in a call
		}
		p.log.Warn("hookctl: scripts interrupted: the heap grew past the memory limit while they ran",
			"grown_bytes", live-baseLive, "limit_bytes", p.memLimit)
		// Until the interrupted runtimes are gone their memory is held:
		// measure from here, and let the collector bring the base down.
		baseLive, baseAll = live, all
	}
}
