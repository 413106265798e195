package bench

import (
	"context"
	"testing"

	"github.com/hookctl/hookctl/engine"
)

// TestFireAllocations holds the benchmark configurations to their
// allocation budgets per fire: none for an event without hooks, 2 when
// every condition is false, 6 for ten declarative hooks, 40 for ten
// JavaScript hooks (each returns a result the engine keeps). Counts are
// exact, unlike times; .ci/run runs this without the race detector.
func TestFireAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates: run without -race")
	}
	ctx := context.Background()
	for _, c := range []struct {
		name, config, event string
		session             string
		max                 float64
	}{
		{"no-hooks", "hooks.hcl", "Notification", "", 0},
		{"condition-false", "hooks.hcl", "PreToolUse", "test-session", 2},
		{"declarative-10", "declarative.hcl", "PreToolUse", "", 6},
		{"js-10", "hooks.hcl", "PreToolUse", "", 40},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, _ := loadEngine(t, c.config)
			p := payload(t)
			if c.session != "" {
				p["session_id"] = c.session
			}
			ev := engine.Event{Name: c.event, Payload: p}
			for range 100 { // warm: runtimes made, caches filled
				if _, err := e.Fire(ctx, ev); err != nil {
					t.Fatal(err)
				}
			}
			got := testing.AllocsPerRun(2000, func() {
				if _, err := e.Fire(ctx, ev); err != nil {
					t.Fatal(err)
				}
			})
			if got > c.max {
				t.Errorf("%.1f allocations per fire, budget %.0f", got, c.max)
			}
		})
	}
}
