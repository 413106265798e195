package metrics

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/hookctl/hookctl/engine"
)

// Namespace prefixes every metric name.
const Namespace = "hookctl"

// DecisionNone is the decision label of a fire no hook decided.
const DecisionNone = "none"

// DefaultDurationBuckets are the buckets of the duration histograms, in
// seconds: from 10µs (a script hook) to a minute (the default hook
// timeout).
var DefaultDurationBuckets = []float64{
	0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005,
	0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
	0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
}

// Metrics records a hookctl engine's fires and hook runs and serves them
// through the registry it was created with. It implements
// engine.Observer. Create it with New.
type Metrics struct {
	reg prometheus.Registerer

	fires        *prometheus.CounterVec
	firesBlocked *prometheus.CounterVec
	fireDuration *prometheus.HistogramVec
	hookStatus   *prometheus.CounterVec
	hookDuration *prometheus.HistogramVec
	hookErrors   *prometheus.CounterVec

	reloads        *prometheus.CounterVec
	configInfo     *prometheus.GaugeVec
	lastReloadTime prometheus.Gauge
	lastReloadOK   prometheus.Gauge

	requests        *prometheus.CounterVec
	requestDuration *prometheus.HistogramVec

	mu   sync.Mutex // serializes configuration changes
	hash string
}

// Option configures a Metrics.
type Option func(*options)

type options struct {
	buckets []float64
	labels  prometheus.Labels
}

// WithDurationBuckets sets the buckets of the duration histograms
// (seconds, increasing); the default is DefaultDurationBuckets.
func WithDurationBuckets(b ...float64) Option {
	return func(o *options) { o.buckets = b }
}

// WithConstLabels adds labels with fixed values to every metric, say the
// replica's name.
func WithConstLabels(l prometheus.Labels) Option {
	return func(o *options) { o.labels = l }
}

// NewRegistry returns a registry with the Go runtime and process
// collectors, the usual base for serving a process's metrics.
func NewRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// Handler serves the metrics of g in the Prometheus exposition formats
// (the text format unless the scraper asks for another).
func Handler(g prometheus.Gatherer) http.Handler {
	return promhttp.HandlerFor(g, promhttp.HandlerOpts{ErrorHandling: promhttp.HTTPErrorOnError})
}

// New creates the metrics and registers them with reg. It fails when reg
// already holds metrics of the same names: one Metrics per registry (or
// per prometheus.WrapRegistererWithPrefix of it).
func New(reg prometheus.Registerer, opts ...Option) (*Metrics, error) {
	if reg == nil {
		return nil, errors.New("metrics: nil registerer")
	}
	o := options{buckets: DefaultDurationBuckets}
	for _, f := range opts {
		f(&o)
	}
	if len(o.buckets) == 0 || !sort.Float64sAreSorted(o.buckets) {
		return nil, fmt.Errorf("metrics: duration buckets %v must be increasing", o.buckets)
	}
	counter := func(name, help string, labels ...string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: name, Help: help}, labels)
	}
	histogram := func(name, help string, labels ...string) *prometheus.HistogramVec {
		return prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: Namespace, Name: name, Help: help, Buckets: o.buckets}, labels)
	}
	gauge := func(name, help string) prometheus.Gauge {
		return prometheus.NewGauge(prometheus.GaugeOpts{Namespace: Namespace, Name: name, Help: help})
	}
	m := &Metrics{
		reg:          prometheus.WrapRegistererWith(o.labels, reg),
		fires:        counter("fires_total", "Events fired, by canonical event name and merged decision (none when no hook decided).", "event", "decision"),
		firesBlocked: counter("fires_blocked_total", "Fires whose outcome blocked (a deny, block or cancel decision, continue=false, or a blocking field).", "event"),
		fireDuration: histogram("fire_duration_seconds", "Time to fire an event: every hook of the fire but the background ones.", "event"),
		hookStatus:   counter("hook_status_total", "Hooks in fire traces, by status: decided, ran, skipped, error, timeout, queued (background).", "event", "hook", "status"),
		hookDuration: histogram("hook_duration_seconds", "Time a hook that runs code took, all attempts (declarative hooks run no code and are not timed).", "event", "hook", "handler"),
		hookErrors:   counter("hook_errors_total", "Hooks that failed, by kind: error, timeout or panic (background hooks included).", "event", "hook", "kind"),
		reloads:      counter("config_reloads_total", "Configuration reloads, by result: success or failure (the previous configuration keeps serving).", "result"),
		configInfo: prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: Namespace, Name: "config_info",
			Help: "1, labelled with the hash of the configuration serving now (sha256 of its files)."}, []string{"hash"}),
		lastReloadTime:  gauge("config_last_reload_success_timestamp_seconds", "When the configuration serving now was loaded (Unix time)."),
		lastReloadOK:    gauge("config_last_reload_successful", "1 when the last load of the configuration succeeded, 0 when it failed."),
		requests:        counter("http_requests_total", "HTTP requests answered, by route and status code.", "route", "code"),
		requestDuration: histogram("http_request_duration_seconds", "Time to answer an HTTP request, by route.", "route"),
	}
	for _, c := range []prometheus.Collector{m.fires, m.firesBlocked, m.fireDuration, m.hookStatus, m.hookDuration, m.hookErrors,
		m.reloads, m.configInfo, m.lastReloadTime, m.lastReloadOK, m.requests, m.requestDuration} {
		if err := m.reg.Register(c); err != nil {
			return nil, fmt.Errorf("metrics: %w", err)
		}
	}
	// Both results exist from the start, so rate() and increase() see the
	// first failure.
	m.reloads.WithLabelValues("success")
	m.reloads.WithLabelValues("failure")
	return m, nil
}

// FireStarted implements engine.Observer; it leaves ctx as it is.
func (m *Metrics) FireStarted(ctx context.Context, _ engine.FireInfo) context.Context { return ctx }

// HookDone implements engine.Observer: it records how long a hook that
// runs code took (declarative hooks run none and are not timed) and, when
// it failed, an error of its kind (error, timeout or panic). Background
// hooks are recorded when they end.
func (m *Metrics) HookDone(_ context.Context, fire engine.FireInfo, tr *engine.HookTrace) {
	if tr.Handler != DeclarativeKind {
		m.hookDuration.WithLabelValues(fire.Event, tr.ID, tr.Handler).Observe(tr.Duration.Seconds())
	}
	if kind := FailureKind(tr); kind != "" {
		m.hookErrors.WithLabelValues(fire.Event, tr.ID, kind).Inc()
	}
}

// FireEnded implements engine.Observer and records nothing: ObserveFire
// records every fire, those of events without hooks too, which the engine
// does not report to observers.
func (m *Metrics) FireEnded(context.Context, engine.FireInfo, *engine.Outcome, error) {}

// DeclarativeKind is the handler kind of declarative hooks.
const DeclarativeKind = "declarative"

// FailureKind classifies a hook's failure for the kind label: "timeout",
// "panic" or "error", or "" when it did not fail.
func FailureKind(tr *engine.HookTrace) string {
	switch {
	case tr.Status == engine.StatusTimeout:
		return "timeout"
	case tr.Status != engine.StatusError:
		return ""
	case tr.Panic:
		return "panic"
	}
	return "error"
}

// ObserveFire records a fire that returned out after took: its decision
// and the status of each hook in its trace. Call it after every
// Engine.Fire; an outcome with no event (a fire that found no event) is
// not counted, so a name that is no event never becomes a label.
func (m *Metrics) ObserveFire(out *engine.Outcome, took time.Duration) {
	if out == nil || out.Event == "" {
		return
	}
	d := string(out.Decision)
	if d == "" {
		d = DecisionNone
	}
	m.fires.WithLabelValues(out.Event, d).Inc()
	if out.Blocked {
		m.firesBlocked.WithLabelValues(out.Event).Inc()
	}
	m.fireDuration.WithLabelValues(out.Event).Observe(took.Seconds())
	for i := range out.Hooks {
		tr := &out.Hooks[i]
		m.hookStatus.WithLabelValues(out.Event, tr.ID, string(tr.Status)).Inc()
	}
}

// ObserveRequest records an HTTP request answered with code after took.
// route must come from a closed set (the server's routes), never from the
// request's path.
func (m *Metrics) ObserveRequest(route string, code int, took time.Duration) {
	m.requests.WithLabelValues(route, strconv.Itoa(code)).Inc()
	m.requestDuration.WithLabelValues(route).Observe(took.Seconds())
}

// SetConfig records that the configuration with hash is serving: the
// config_info series of the previous hash goes, and the last reload time
// is now.
func (m *Metrics) SetConfig(hash string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.hash != hash {
		m.configInfo.Reset()
		m.hash = hash
	}
	m.configInfo.WithLabelValues(hash).Set(1)
	m.lastReloadTime.Set(float64(time.Now().UnixNano()) / 1e9)
	m.lastReloadOK.Set(1)
}

// ObserveReload records a reload: a success serving the configuration
// with hash (as SetConfig), or a failure (err not nil) that keeps the
// previous configuration and its hash.
func (m *Metrics) ObserveReload(hash string, err error) {
	if err != nil {
		m.reloads.WithLabelValues("failure").Inc()
		m.lastReloadOK.Set(0)
		return
	}
	m.reloads.WithLabelValues("success").Inc()
	m.SetConfig(hash)
}

// Hash returns the hash SetConfig last recorded.
func (m *Metrics) Hash() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.hash
}
