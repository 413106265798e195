package assemble_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/engine"
)

// TestReloadKeepsCustomEvents: a configuration that declares a custom
// event loads again into the engine it was loaded into (a reload of serve
// or the daemon), with the event's hooks and a hook added since; before,
// the second load found the event's name taken by itself (HK1304), so no
// reload of such a configuration ever took, whatever else had changed.
func TestReloadKeepsCustomEvents(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.hcl")
	const event = `event "deploy.pre" {
  description = "before a deploy"
  strategy    = "modifying"
  decisions   = ["allow", "deny"]
}
hook "no-prod" {
  event    = "deploy.pre"
  when     = "target == 'prod'"
  decision = "deny"
  reason   = "no prod"
}
`
	if err := os.WriteFile(path, []byte(event), 0o600); err != nil {
		t.Fatal(err)
	}
	eng, err := assemble.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(context.Background())
	load := func() {
		t.Helper()
		cfg, err := assemble.Load(path, assemble.WithEngine(eng))
		if err != nil {
			t.Fatalf("load: %v", err)
		}
		t.Cleanup(cfg.Close)
		if err := eng.Load(cfg.Engine); err != nil {
			t.Fatalf("engine load: %v", err)
		}
	}
	load()
	more := event + `hook "no-friday" {
  event    = "deploy.pre"
  when     = "day == 'friday'"
  decision = "deny"
  reason   = "not on a friday"
}
`
	if err := os.WriteFile(path, []byte(more), 0o600); err != nil {
		t.Fatal(err)
	}
	load()
	out, err := eng.Fire(context.Background(), engine.Event{Name: "deploy.pre", Payload: map[string]any{"target": "staging", "day": "friday"}})
	if err != nil {
		t.Fatal(err)
	}
	if out.Decision != "deny" || out.Reason != "not on a friday" {
		t.Fatalf("after the reload: %q %q, want the new hook's deny", out.Decision, out.Reason)
	}
}
