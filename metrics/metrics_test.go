package metrics_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/metrics"
	"github.com/hookctl/hookctl/metrics/metricstest"
)

// scrape serves reg's metrics once and parses them with the Prometheus
// text parser.
func scrape(t *testing.T, reg prometheus.Gatherer) metricstest.Families {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/metrics", nil)
	req.Header.Set("Accept", "text/plain")
	metrics.Handler(reg).ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Fatalf("/metrics: %d %s", rec.Code, rec.Body)
	}
	fams, err := metricstest.Parse(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

func want(t *testing.T, fams metricstest.Families, value float64, name string, labels ...string) {
	t.Helper()
	got, ok := fams.Value(name, labels...)
	if !ok {
		t.Errorf("%s%v: no such series", name, labels)
		return
	}
	if got != value {
		t.Errorf("%s%v = %v, want %v", name, labels, got, value)
	}
}

func handler(f func(ctx context.Context) (engine.Result, error)) engine.Handler {
	return engine.HandlerFunc(func(ctx context.Context, _ *engine.Call) (engine.Result, error) { return f(ctx) })
}

// After a known sequence of fires the metrics say what the engine did:
// fires by event and decision, the status of every hook, durations, and
// errors by kind (a timeout, a panic, an error), background hooks
// included.
func TestMetricsAfterKnownFires(t *testing.T) {
	reg := metrics.NewRegistry()
	m, err := metrics.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(engine.WithObserver(m))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.WatchEngine(eng.Stats); err != nil {
		t.Fatal(err)
	}
	bg := make(chan struct{}, 1)
	for _, h := range []engine.Hook{
		{ID: "deny-rm", Event: "PreToolUse", Priority: 10, Handler: handler(func(context.Context) (engine.Result, error) { return engine.Deny("no"), nil })},
		{ID: "after", Event: "PreToolUse", Handler: handler(func(context.Context) (engine.Result, error) { return nil, nil })},
		{ID: "slow", Event: "Stop", Timeout: 5 * time.Millisecond, Handler: handler(func(ctx context.Context) (engine.Result, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})},
		{ID: "panics", Event: "Stop", Priority: -1, Handler: handler(func(context.Context) (engine.Result, error) { panic("x") })},
		{ID: "audit", Event: "PostToolUse", Background: true, Handler: handler(func(context.Context) (engine.Result, error) {
			defer func() { bg <- struct{}{} }()
			return nil, errors.New("audit log unwritable")
		})},
	} {
		if err := eng.Register(h); err != nil {
			t.Fatal(err)
		}
	}
	fire := func(name string) {
		start := time.Now()
		out, err := eng.Fire(context.Background(), engine.Event{Name: name, Payload: map[string]any{"tool_name": "Bash"}})
		if err != nil {
			t.Fatal(err)
		}
		m.ObserveFire(&out, time.Since(start))
	}
	for range 3 {
		fire("PreToolUse")
	}
	fire("tool.pre") // an alias counts as its event
	fire("Stop")
	fire("PostToolUse")
	fire("SessionStart") // no hooks: the fast path, still counted
	<-bg
	if err := eng.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	// A name that is no event fails and is not counted.
	if out, err := eng.Fire(context.Background(), engine.Event{Name: "NoSuchEvent"}); err == nil {
		t.Fatal("unknown event fired")
	} else {
		m.ObserveFire(&out, 0)
	}

	f := scrape(t, reg)
	want(t, f, 4, "hookctl_fires_total", "event", "PreToolUse", "decision", "deny")
	want(t, f, 4, "hookctl_fires_blocked_total", "event", "PreToolUse")
	want(t, f, 1, "hookctl_fires_total", "event", "Stop", "decision", "none")
	want(t, f, 1, "hookctl_fires_total", "event", "SessionStart", "decision", "none")
	want(t, f, 4, "hookctl_fire_duration_seconds_count", "event", "PreToolUse")
	if ev := f.LabelValues("hookctl_fires_total", "event"); slices.Contains(ev, "NoSuchEvent") || slices.Contains(ev, "tool.pre") || len(ev) != 4 {
		t.Errorf("event labels %v: want the 4 canonical names fired", ev)
	}
	want(t, f, 4, "hookctl_hook_status_total", "event", "PreToolUse", "hook", "deny-rm", "status", "decided")
	want(t, f, 4, "hookctl_hook_status_total", "event", "PreToolUse", "hook", "after", "status", "skipped")
	want(t, f, 1, "hookctl_hook_status_total", "event", "Stop", "hook", "slow", "status", "timeout")
	want(t, f, 1, "hookctl_hook_status_total", "event", "Stop", "hook", "panics", "status", "error")
	want(t, f, 1, "hookctl_hook_status_total", "event", "PostToolUse", "hook", "audit", "status", "queued")
	want(t, f, 4, "hookctl_hook_duration_seconds_count", "event", "PreToolUse", "hook", "deny-rm", "handler", "go")
	want(t, f, 1, "hookctl_hook_errors_total", "event", "Stop", "hook", "slow", "kind", "timeout")
	want(t, f, 1, "hookctl_hook_errors_total", "event", "Stop", "hook", "panics", "kind", "panic")
	want(t, f, 1, "hookctl_hook_errors_total", "event", "PostToolUse", "hook", "audit", "kind", "error")
	if n := f.Series("hookctl_hook_errors_total"); n != 3 {
		t.Errorf("%d error series, want 3", n)
	}
	if d, _ := f.Value("hookctl_hook_duration_seconds_sum", "hook", "slow"); d < 0.005 {
		t.Errorf("slow took %vs", d)
	}
	want(t, f, 1, "hookctl_background_hooks_queued_total")
	want(t, f, 1, "hookctl_background_hooks_done_total")
	want(t, f, 0, "hookctl_background_hooks_dropped_total")
	want(t, f, 0, "hookctl_background_queue_depth")
	want(t, f, engine.DefaultBackgroundQueue, "hookctl_background_queue_capacity")
	want(t, f, 0, "hookctl_fires_in_progress")
	// The registry's own Go and process collectors.
	if _, ok := f.Value("go_goroutines"); !ok {
		t.Error("no go_goroutines")
	}
	if _, ok := f.Value("process_start_time_seconds"); !ok {
		t.Error("no process_start_time_seconds")
	}
}

// The configuration's hash is one config_info series; a reload moves it,
// a failed reload keeps it and counts a failure.
func TestMetricsConfigReloads(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := metrics.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	f := scrape(t, reg)
	want(t, f, 0, "hookctl_config_reloads_total", "result", "failure")
	want(t, f, 0, "hookctl_config_reloads_total", "result", "success")

	before := time.Now()
	m.SetConfig("aaa")
	f = scrape(t, reg)
	want(t, f, 1, "hookctl_config_info", "hash", "aaa")
	want(t, f, 1, "hookctl_config_last_reload_successful")
	if ts, _ := f.Value("hookctl_config_last_reload_success_timestamp_seconds"); ts < float64(before.Unix()) {
		t.Errorf("last reload at %v, before %v", ts, before.Unix())
	}

	m.ObserveReload("", errors.New("bad config"))
	f = scrape(t, reg)
	want(t, f, 1, "hookctl_config_reloads_total", "result", "failure")
	want(t, f, 1, "hookctl_config_info", "hash", "aaa")
	want(t, f, 0, "hookctl_config_last_reload_successful")

	m.ObserveReload("bbb", nil)
	f = scrape(t, reg)
	want(t, f, 1, "hookctl_config_reloads_total", "result", "success")
	want(t, f, 1, "hookctl_config_info", "hash", "bbb")
	want(t, f, 1, "hookctl_config_last_reload_successful")
	if n := f.Series("hookctl_config_info"); n != 1 || m.Hash() != "bbb" {
		t.Errorf("%d config_info series, hash %q; want one, bbb", n, m.Hash())
	}
}

// Scripts and server stats are read at every scrape.
func TestMetricsWatchScriptsAndServer(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := metrics.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	scripts := metrics.ScriptStats{Size: 4, InUse: 1, Idle: 3, OldestCall: 1500 * time.Millisecond}
	server := metrics.ServerStats{InFlight: 2, MaxInFlight: 64, Queued: 1, MaxQueue: 256, InputMemory: 100, MaxInputMemory: 1 << 20,
		Connections: 5, MaxConnections: 1024, ConnectionsClosed: 7, Rejected: map[string]uint64{"max-queue": 3, "max-body": 1}, Draining: true}
	if err := m.WatchScripts(func() metrics.ScriptStats { return scripts }); err != nil {
		t.Fatal(err)
	}
	if err := m.WatchServer(func() metrics.ServerStats { return server }); err != nil {
		t.Fatal(err)
	}
	if err := m.WatchServer(func() metrics.ServerStats { return server }); err == nil {
		t.Error("a second WatchServer accepted")
	}
	m.ObserveRequest("/v1/fire/{event}", 200, time.Millisecond)
	f := scrape(t, reg)
	want(t, f, 4, "hookctl_script_runtimes")
	want(t, f, 1, "hookctl_script_runtimes_in_use")
	want(t, f, 3, "hookctl_script_runtimes_idle")
	want(t, f, 1.5, "hookctl_script_oldest_call_seconds")
	want(t, f, 2, "hookctl_http_requests_in_flight")
	want(t, f, 64, "hookctl_http_requests_in_flight_limit")
	want(t, f, 1, "hookctl_http_requests_queued")
	want(t, f, 3, "hookctl_http_requests_rejected_total", "limit", "max-queue")
	want(t, f, 1, "hookctl_http_requests_rejected_total", "limit", "max-body")
	want(t, f, 7, "hookctl_http_connections_closed_total")
	want(t, f, 1, "hookctl_http_draining")
	want(t, f, 1, "hookctl_http_requests_total", "route", "/v1/fire/{event}", "code", "200")
	want(t, f, 1, "hookctl_http_request_duration_seconds_count", "route", "/v1/fire/{event}")
}

// A second Metrics on one registry is refused; const labels go on every
// series.
func TestMetricsRegistration(t *testing.T) {
	reg := prometheus.NewRegistry()
	if _, err := metrics.New(reg); err != nil {
		t.Fatal(err)
	}
	if _, err := metrics.New(reg); err == nil {
		t.Fatal("a second Metrics on one registry accepted")
	}
	reg2 := prometheus.NewRegistry()
	m2, err := metrics.New(reg2, metrics.WithConstLabels(prometheus.Labels{"replica": "b"}))
	if err != nil {
		t.Fatal(err)
	}
	if err := m2.WatchScripts(func() metrics.ScriptStats { return metrics.ScriptStats{Size: 2} }); err != nil {
		t.Fatal(err)
	}
	m2.SetConfig("x")
	f := scrape(t, reg2)
	want(t, f, 1, "hookctl_config_info", "replica", "b", "hash", "x")
	want(t, f, 2, "hookctl_script_runtimes", "replica", "b")
	if _, err := metrics.New(nil); err == nil {
		t.Error("nil registerer accepted")
	}
	if _, err := metrics.New(prometheus.NewRegistry(), metrics.WithDurationBuckets(1, 0.5)); err == nil {
		t.Error("decreasing buckets accepted")
	}
}
