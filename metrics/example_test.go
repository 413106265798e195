package metrics_test

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/metrics"
)

// An embedding program records its engine's fires and hook runs on its
// own registry and serves them where it likes.
func Example() {
	reg := prometheus.NewRegistry() // or metrics.NewRegistry(): with the Go and process collectors
	m, err := metrics.New(reg)
	if err != nil {
		panic(err)
	}
	// The engine tells m of every hook run ...
	eng, err := engine.New(engine.WithObserver(m))
	if err != nil {
		panic(err)
	}
	defer eng.Close(context.Background())
	if err := m.WatchEngine(eng.Stats); err != nil {
		panic(err)
	}
	_ = eng.Register(engine.Hook{ID: "no-rm", Event: "PreToolUse", Handler: engine.HandlerFunc(
		func(ctx context.Context, c *engine.Call) (engine.Result, error) {
			return engine.Deny("no"), nil
		})})

	// ... and the program of every fire's outcome.
	for range 3 {
		start := time.Now()
		out, err := eng.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{"tool_name": "Bash"}})
		if err != nil {
			panic(err)
		}
		m.ObserveFire(&out, time.Since(start))
	}

	rec := httptest.NewRecorder()
	metrics.Handler(reg).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for line := range strings.Lines(string(body)) {
		if strings.HasPrefix(line, "hookctl_fires_total") || strings.HasPrefix(line, "hookctl_hook_status_total") ||
			strings.HasPrefix(line, "hookctl_hook_duration_seconds_count") {
			fmt.Print(line)
		}
	}
	// Output:
	// hookctl_fires_total{decision="deny",event="PreToolUse"} 3
	// hookctl_hook_duration_seconds_count{event="PreToolUse",handler="go",hook="no-rm"} 3
	// hookctl_hook_status_total{event="PreToolUse",hook="no-rm",status="decided"} 3
}
