package bench

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
)

// TestFireAllocations holds the benchmark configurations to their
// allocation budgets per fire: none for an event without hooks, 2 when
// every condition is false, 6 for ten declarative hooks, 20 for ten
// JavaScript hooks (their returns are constant literals, built once when
// they compile; a result computed per call would add its map's two).
// Counts are exact, unlike times; .ci/run runs this without the race
// detector.
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
		{"js-10", "hooks.hcl", "PreToolUse", "", 20},
		// FireInto reuses the outcome's traces and merged output map:
		// three allocations less.
		{"declarative-10-into", "declarative.hcl", "PreToolUse", "", 3},
		{"js-10-into", "hooks.hcl", "PreToolUse", "", 17},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, cfg, err := LoadEngine(filepath.Join("testdata", "peers", c.config))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				e.Close(context.Background())
				cfg.Close()
			})
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
			// The script runtime is made in the background while the
			// configuration loads: counting while it is made would count
			// its allocations too.
			for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
				if st := cfg.ScriptStats(); st.Size == 0 || st.Created > 0 && st.Idle > 0 { // no pool, or its runtime ready
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("no script runtime made: %+v", cfg.ScriptStats())
				}
			}
			var out engine.Outcome
			got := testing.AllocsPerRun(2000, func() {
				var err error
				if strings.HasSuffix(c.name, "-into") {
					err = e.FireInto(ctx, ev, &out)
				} else {
					_, err = e.Fire(ctx, ev)
				}
				if err != nil {
					t.Fatal(err)
				}
			})
			if got > c.max {
				t.Errorf("%.1f allocations per fire, budget %.0f", got, c.max)
			}
		})
	}
}
