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
// every condition is false, 5 for ten declarative hooks, 19 for ten
// JavaScript hooks (their returns are constant literals, built once when
// they compile; a result computed per call would add its map's two), one
// less each as a host's answer fires them (no trace slice).
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
		{"declarative-10", "declarative.hcl", "PreToolUse", "", 5},
		{"js-10", "hooks.hcl", "PreToolUse", "", 19},
		// FireInto reuses the outcome's traces and merged output map:
		// three allocations less.
		{"declarative-10-into", "declarative.hcl", "PreToolUse", "", 2},
		{"js-10-into", "hooks.hcl", "PreToolUse", "", 16},
		// As a host's answer fires (HostOptions): no trace is made for
		// the hooks that ran cleanly.
		{"declarative-10-host", "declarative.hcl", "PreToolUse", "", 4},
		{"js-10-host", "hooks.hcl", "PreToolUse", "", 18},
	} {
		t.Run(c.name, func(t *testing.T) {
			var opts []engine.Option
			if strings.HasSuffix(c.name, "-host") {
				opts = HostOptions()
			}
			e, cfg, err := LoadEngine(filepath.Join("testdata", "peers", c.config), opts...)
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
