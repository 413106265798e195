package metrics

import (
	"errors"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hookctl/hookctl/engine"
)

// ScriptStats is the use of a pool of script runtimes: how many there
// are, how many run a call and how many wait, and how long the oldest
// call in progress has run.
type ScriptStats struct {
	Size, InUse, Idle int
	OldestCall        time.Duration
}

// ServerStats is an HTTP server's load and what it refused.
type ServerStats struct {
	// InFlight requests fire now, of MaxInFlight; Queued wait for one to
	// end, of MaxQueue.
	InFlight, MaxInFlight int
	Queued, MaxQueue      int
	// InputMemory is the estimated memory of the request bodies held now,
	// of MaxInputMemory (bytes).
	InputMemory, MaxInputMemory int64
	// Connections are open now, of MaxConnections; ConnectionsClosed
	// counts those closed to make room.
	Connections, MaxConnections int
	ConnectionsClosed           uint64
	// Rejected counts the requests refused, by the name of the limit that
	// refused them (a closed set the server defines: max-queue,
	// queue-timeout, max-memory, max-body, ...).
	Rejected map[string]uint64
	// Draining is true once the server stopped being ready to take new
	// work (shutting down).
	Draining bool
}

// gaugeFuncs is a collector of values read at scrape time.
type gaugeFuncs struct {
	descs   []*prometheus.Desc
	collect func(ch chan<- prometheus.Metric)
}

func (g *gaugeFuncs) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range g.descs {
		ch <- d
	}
}

func (g *gaugeFuncs) Collect(ch chan<- prometheus.Metric) { g.collect(ch) }

func desc(name, help string, labels ...string) *prometheus.Desc {
	return prometheus.NewDesc(prometheus.BuildFQName(Namespace, "", name), help, labels, nil)
}

func gauge(ch chan<- prometheus.Metric, d *prometheus.Desc, v float64) {
	ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v)
}

func counter(ch chan<- prometheus.Metric, d *prometheus.Desc, v float64) {
	ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v)
}

func (m *Metrics) register(what string, c prometheus.Collector) error {
	if err := m.reg.Register(c); err != nil {
		var are prometheus.AlreadyRegisteredError
		if errors.As(err, &are) {
			return fmt.Errorf("metrics: %s already watched", what)
		}
		return fmt.Errorf("metrics: %w", err)
	}
	return nil
}

// WatchEngine serves the engine counters stats returns (Engine.Stats) at
// every scrape: the background queue and fires in progress. It may be
// called once per Metrics.
func (m *Metrics) WatchEngine(stats func() engine.Stats) error {
	if stats == nil {
		return errors.New("metrics: nil engine stats")
	}
	var (
		queued   = desc("background_hooks_queued_total", "Background hooks queued.")
		done     = desc("background_hooks_done_total", "Background hooks run to their end.")
		dropped  = desc("background_hooks_dropped_total", "Background hooks dropped: the queue stayed full, or shutdown gave up waiting.")
		depth    = desc("background_queue_depth", "Background hooks queued or running now.")
		capacity = desc("background_queue_capacity", "Size of the background queue.")
		active   = desc("fires_in_progress", "Fires running now (fires of events without hooks excepted).")
	)
	return m.register("engine", &gaugeFuncs{
		descs: []*prometheus.Desc{queued, done, dropped, depth, capacity, active},
		collect: func(ch chan<- prometheus.Metric) {
			st := stats()
			counter(ch, queued, float64(st.BackgroundQueued))
			counter(ch, done, float64(st.BackgroundDone))
			counter(ch, dropped, float64(st.BackgroundDropped))
			gauge(ch, depth, float64(st.BackgroundPending))
			gauge(ch, capacity, float64(st.BackgroundCapacity))
			gauge(ch, active, float64(st.ActiveFires))
		},
	})
}

// WatchScripts serves the script runtime pool's use that stats returns at
// every scrape (the pool of the configuration serving then). It may be
// called once per Metrics.
func (m *Metrics) WatchScripts(stats func() ScriptStats) error {
	if stats == nil {
		return errors.New("metrics: nil script stats")
	}
	var (
		size   = desc("script_runtimes", "Script runtimes in the pool.")
		inUse  = desc("script_runtimes_in_use", "Script runtimes running a hook now.")
		idle   = desc("script_runtimes_idle", "Script runtimes waiting for a hook.")
		oldest = desc("script_oldest_call_seconds", "How long the oldest script call in progress has run (0 when none runs).")
	)
	return m.register("scripts", &gaugeFuncs{
		descs: []*prometheus.Desc{size, inUse, idle, oldest},
		collect: func(ch chan<- prometheus.Metric) {
			st := stats()
			gauge(ch, size, float64(st.Size))
			gauge(ch, inUse, float64(st.InUse))
			gauge(ch, idle, float64(st.Idle))
			gauge(ch, oldest, st.OldestCall.Seconds())
		},
	})
}

// WatchServer serves the HTTP server load that stats returns at every
// scrape. It may be called once per Metrics.
func (m *Metrics) WatchServer(stats func() ServerStats) error {
	if stats == nil {
		return errors.New("metrics: nil server stats")
	}
	var (
		inFlight    = desc("http_requests_in_flight", "Requests firing now.")
		maxInFlight = desc("http_requests_in_flight_limit", "Requests that may fire at once (--max-inflight).")
		queued      = desc("http_requests_queued", "Requests waiting for one in flight to end.")
		maxQueue    = desc("http_requests_queue_limit", "Requests that may wait (--max-queue).")
		memory      = desc("http_input_memory_bytes", "Estimated memory of the request bodies held now.")
		maxMemory   = desc("http_input_memory_limit_bytes", "Bound on the memory of the request bodies held at once (--max-memory).")
		conns       = desc("http_connections", "Open connections.")
		maxConns    = desc("http_connections_limit", "Connections that may be open at once (--max-conns).")
		closed      = desc("http_connections_closed_total", "Connections closed to make room for new ones.")
		rejected    = desc("http_requests_rejected_total", "Requests refused by a limit, by the limit's name (503 for max-queue, queue-timeout and max-memory; 413 or 400 for input limits; 408 for read-timeout).", "limit")
		draining    = desc("http_draining", "1 once the server is shutting down (/readyz answers 503), else 0.")
	)
	return m.register("server", &gaugeFuncs{
		descs: []*prometheus.Desc{inFlight, maxInFlight, queued, maxQueue, memory, maxMemory, conns, maxConns, closed, rejected, draining},
		collect: func(ch chan<- prometheus.Metric) {
			st := stats()
			gauge(ch, inFlight, float64(st.InFlight))
			gauge(ch, maxInFlight, float64(st.MaxInFlight))
			gauge(ch, queued, float64(st.Queued))
			gauge(ch, maxQueue, float64(st.MaxQueue))
			gauge(ch, memory, float64(st.InputMemory))
			gauge(ch, maxMemory, float64(st.MaxInputMemory))
			gauge(ch, conns, float64(st.Connections))
			gauge(ch, maxConns, float64(st.MaxConnections))
			counter(ch, closed, float64(st.ConnectionsClosed))
			for limit, n := range st.Rejected {
				ch <- prometheus.MustNewConstMetric(rejected, prometheus.CounterValue, float64(n), limit)
			}
			d := 0.0
			if st.Draining {
				d = 1
			}
			gauge(ch, draining, d)
		},
	})
}
