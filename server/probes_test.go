package server_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/metrics"
	"github.com/hookctl/hookctl/metrics/metricstest"
	"github.com/hookctl/hookctl/server"
)

// TestServerMetrics: after a known sequence of requests, GET /metrics
// (parsed with the Prometheus text parser) counts the fires by event and
// decision, the hooks' statuses and failures, the requests by route and
// code and the refusals by limit; a name that is no event creates no
// label; fire replies name the configuration's hash.
func TestServerMetrics(t *testing.T) {
	reg := metrics.NewRegistry()
	m, err := metrics.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(engine.WithObserver(m))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	for _, h := range []engine.Hook{
		{ID: "gate", Event: "PreToolUse", When: "tool_input.command contains 'rm'", Handler: engine.Static(engine.Deny("no rm"))},
		{ID: "log", Event: "PreToolUse", Priority: 10, Handler: engine.HandlerFunc(func(context.Context, *engine.Call) (engine.Result, error) { return nil, nil })},
		{ID: "slow", Event: "Stop", Timeout: 20 * time.Millisecond, Handler: engine.HandlerFunc(func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})},
	} {
		if err := e.Register(h); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(server.NewServer(e, nil, server.WithMetrics(m, metrics.Handler(reg)),
		server.WithConfigHash(func() string { return "c0ffee" }),
		server.WithLimits(server.ServerLimits{Input: server.InputLimits{MaxBytes: 4096}})))
	defer srv.Close()
	c := freshClient()
	for range 3 {
		r := do(t, c, "POST", srv.URL+"/v1/fire/PreToolUse", rmPayload)
		if r.code != 200 || r.body["decision"] != "deny" || r.header.Get(server.HeaderConfigHash) != "c0ffee" {
			t.Fatalf("%d %v %s", r.code, r.header, r.raw)
		}
	}
	if r := do(t, c, "POST", srv.URL+"/claude", rmPayload); r.code != 200 || r.header.Get(server.HeaderConfigHash) != "c0ffee" {
		t.Fatalf("/claude: %d %v %s", r.code, r.header, r.raw)
	}
	if r := do(t, c, "POST", srv.URL+"/v1/fire/Stop", `{}`); r.code != 200 || !strings.Contains(r.raw, `"status":"timeout"`) {
		t.Fatalf("Stop: %d %s", r.code, r.raw)
	}
	if r := do(t, c, "POST", srv.URL+"/v1/fire/NoSuchEvent", `{}`); r.code != 404 {
		t.Fatalf("unknown event: %d %s", r.code, r.raw)
	}
	if r := do(t, c, "POST", srv.URL+"/v1/fire/PreToolUse", `{"pad":"`+strings.Repeat("x", 5000)+`"}`); r.code != 413 {
		t.Fatalf("large body: %d %s", r.code, r.raw)
	}
	if r := do(t, c, "GET", srv.URL+"/no/such/path", ""); r.code != 404 {
		t.Fatalf("%d", r.code)
	}

	f, err := metricstest.Scrape(context.Background(), srv.URL+"/metrics")
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range f.Check([]metricstest.Want{
		{Value: 4, Name: "hookctl_fires_total", Labels: []string{"event", "PreToolUse", "decision", "deny"}},
		{Value: 1, Name: "hookctl_fires_total", Labels: []string{"event", "Stop", "decision", "none"}},
		{Value: 4, Name: "hookctl_hook_status_total", Labels: []string{"event", "PreToolUse", "hook", "gate", "status", "decided"}},
		{Value: 4, Name: "hookctl_hook_status_total", Labels: []string{"event", "PreToolUse", "hook", "log", "status", "ran"}},
		{Value: 1, Name: "hookctl_hook_status_total", Labels: []string{"event", "Stop", "hook", "slow", "status", "timeout"}},
		{Value: 1, Name: "hookctl_hook_errors_total", Labels: []string{"event", "Stop", "hook", "slow", "kind", "timeout"}},
		{Value: 4, Name: "hookctl_hook_duration_seconds_count", Labels: []string{"event", "PreToolUse", "hook", "log", "handler", "go"}},
		{Value: 4, Name: "hookctl_http_requests_total", Labels: []string{"route", "/v1/fire/{event}", "code", "200"}},
		{Value: 1, Name: "hookctl_http_requests_total", Labels: []string{"route", "/v1/fire/{event}", "code", "404"}},
		{Value: 1, Name: "hookctl_http_requests_total", Labels: []string{"route", "/v1/fire/{event}", "code", "413"}},
		{Value: 1, Name: "hookctl_http_requests_total", Labels: []string{"route", "/claude", "code", "200"}},
		{Value: 1, Name: "hookctl_http_requests_total", Labels: []string{"route", "other", "code", "404"}},
		{Value: 1, Name: "hookctl_http_requests_rejected_total", Labels: []string{"limit", "max-body"}},
		{Value: 0, Name: "hookctl_http_requests_rejected_total", Labels: []string{"limit", "max-queue"}},
		{Value: 0, Name: "hookctl_http_requests_in_flight"},
		{Value: 64, Name: "hookctl_http_requests_in_flight_limit"},
		{Value: 0, Name: "hookctl_http_draining"},
	}...) {
		t.Error(msg)
	}
	if ev := f.LabelValues("hookctl_fires_total", "event"); slices.Contains(ev, "NoSuchEvent") {
		t.Errorf("an unknown event became a label: %v", ev)
	}
	if _, ok := f.Value("go_goroutines"); !ok {
		t.Error("no Go collector")
	}
	if r := do(t, c, "POST", srv.URL+"/metrics", ""); r.code != 405 {
		t.Errorf("POST /metrics: %d", r.code)
	}
}

// TestReadyzAndLivez: /readyz is 200 while every check passes and 503
// naming the failing ones otherwise (a registered check, draining, a
// closed engine, wedged scripts); /livez is 200 unless wedged, draining
// or not; both answer with the configuration's hash where it matters, and
// a draining server still serves fires.
func TestReadyzAndLivez(t *testing.T) {
	var mu sync.Mutex
	var natsErr error
	pool := server.PoolStats{Size: 2, Idle: 2}
	e := gateEngine(t, nil)
	s := server.NewServer(e, nil, server.WithConfigHash(func() string { return "abc" }),
		server.WithLimits(server.ServerLimits{WedgedAfter: time.Minute}),
		server.WithPoolStats(func() server.PoolStats {
			mu.Lock()
			defer mu.Unlock()
			return pool
		}),
		server.WithReadiness("nats", func(ctx context.Context) error {
			mu.Lock()
			defer mu.Unlock()
			return natsErr
		}))
	srv := httptest.NewServer(s)
	defer srv.Close()
	c := freshClient()
	set := func(err error, ps server.PoolStats) {
		mu.Lock()
		defer mu.Unlock()
		natsErr, pool = err, ps
	}
	check := func(path string, code int, status string, failing ...string) reply {
		t.Helper()
		r := do(t, c, "GET", srv.URL+path, "")
		if r.code != code || r.body["status"] != status {
			t.Fatalf("%s: %d %s, want %d %s", path, r.code, r.raw, code, status)
		}
		var got []string
		if fl, ok := r.body["failing"].([]any); ok {
			for _, f := range fl {
				got = append(got, f.(string))
			}
		}
		if !slices.Equal(got, failing) {
			t.Fatalf("%s: failing %v, want %v: %s", path, got, failing, r.raw)
		}
		return r
	}

	r := check("/readyz", 200, "ready")
	if r.body["config_hash"] != "abc" || r.body["checks"].(map[string]any)["nats"] != "ok" {
		t.Fatalf("%s", r.raw)
	}
	check("/livez", 200, "ok")
	if h := check("/healthz", 200, "ok"); h.body["config_hash"] != "abc" || h.body["draining"] != false {
		t.Fatalf("%s", h.raw)
	}

	set(errors.New("nats: no servers available"), server.PoolStats{Size: 2, Idle: 2})
	r = check("/readyz", 503, "not ready", "nats")
	if r.body["checks"].(map[string]any)["nats"] != "nats: no servers available" {
		t.Fatalf("%s", r.raw)
	}
	check("/livez", 200, "ok")

	set(nil, server.PoolStats{Size: 2, InUse: 2, OldestCall: 2 * time.Minute})
	check("/readyz", 503, "not ready", "scripts")
	check("/livez", 503, "wedged")

	set(nil, server.PoolStats{Size: 2, Idle: 2})
	check("/readyz", 200, "ready")
	s.Drain()
	if !s.Draining() {
		t.Fatal("not draining")
	}
	check("/readyz", 503, "draining", "draining")
	check("/livez", 200, "ok")
	if h := check("/healthz", 200, "ok"); h.body["draining"] != true {
		t.Fatalf("%s", h.raw)
	}
	if r := do(t, c, "POST", srv.URL+"/v1/fire/PreToolUse", rmPayload); r.code != 200 || r.body["decision"] != "deny" {
		t.Fatalf("a draining server refused a fire: %d %s", r.code, r.raw)
	}
	for _, p := range []string{"/readyz", "/livez"} {
		if r := do(t, c, "POST", srv.URL+p, ""); r.code != 405 {
			t.Errorf("POST %s: %d", p, r.code)
		}
	}
	if r := do(t, c, "GET", srv.URL+"/metrics", ""); r.code != 404 {
		t.Errorf("/metrics without WithMetrics: %d", r.code)
	}

	e2 := gateEngine(t, nil)
	srv2 := httptest.NewServer(server.NewServer(e2, nil))
	defer srv2.Close()
	if err := e2.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	r = do(t, c, "GET", srv2.URL+"/readyz", "")
	if r.code != 503 || !strings.Contains(r.raw, `"failing":["engine"]`) || r.body["config_hash"] != nil {
		t.Fatalf("closed engine: %d %s", r.code, r.raw)
	}
}
