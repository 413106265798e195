package hosts_test

import (
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol/hosts"
)

// TestHasEventTakesWhatInstallWrites: every event key install writes for
// a host is one HasEvent accepts (doctor reads the others as never
// firing), and a misspelt or mis-cased key is not.
func TestHasEventTakesWhatInstallWrites(t *testing.T) {
	for _, p := range hosts.New().All() {
		he, ok := p.(interface{ HostEvents(string) []string })
		if !ok {
			t.Fatalf("%s: no HostEvents", p.Name())
		}
		for _, s := range engine.BuiltinEvents() {
			for _, name := range he.HostEvents(s.Name) {
				if !p.HasEvent(name) {
					t.Errorf("%s: install writes %q, HasEvent refuses it", p.Name(), name)
				}
			}
		}
		for _, bad := range []string{"PreToolUser", "pretooluse", "", "preToolUse "} {
			if p.HasEvent(bad) {
				t.Errorf("%s: HasEvent(%q)", p.Name(), bad)
			}
		}
	}
}
