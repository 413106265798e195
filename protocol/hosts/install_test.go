package hosts_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/protocol/hosts"
)

// TestInstallIsIdempotent: installing again (also switching between
// hookctl and hookctl-client) replaces the earlier entries and keeps the
// others.
func TestInstallIsIdempotent(t *testing.T) {
	h, _ := hosts.New().Lookup("crush")
	existing := []byte(`{"options": {"debug": true}, "hooks": {"PreToolUse": [{"name": "mine", "command": "./guard.sh"}]}}`)
	once, _, err := h.Install(existing, []string{"PreToolUse"}, "hookctl hook --host crush", 0)
	if err != nil {
		t.Fatal(err)
	}
	twice, _, _ := h.Install(once, []string{"PreToolUse"}, "hookctl hook --host crush", 0)
	if !bytes.Equal(once, twice) {
		t.Fatalf("installing twice changed the file:\n%s\n%s", once, twice)
	}
	client, _, _ := h.Install(twice, []string{"PreToolUse"}, "hookctl-client hook --host crush", 0)
	if strings.Count(string(client), "hook --host crush") != 1 || !strings.Contains(string(client), "hookctl-client") || !strings.Contains(string(client), "./guard.sh") || !strings.Contains(string(client), `"debug": true`) {
		t.Fatalf("switching to the client:\n%s", client)
	}
}

// TestInstallWritesTheHostTimeoutTwice: every host's installed entry has
// the host's timeout in its own field and unit, and the same value as the
// command's --host-timeout (hookctl's deadline derives from it); the
// default is the host's default for the event, and a timeout is rounded up
// to the host's unit.
func TestInstallWritesTheHostTimeoutTwice(t *testing.T) {
	hostTimeout := regexp.MustCompile(`--host-timeout (\S+)`)
	for _, p := range hosts.New().All() {
		for _, timeout := range []time.Duration{0, 90 * time.Second, 1500 * time.Millisecond} {
			out, _, err := p.Install(nil, []string{"PreToolUse", "Stop"}, p.HookCommand("hookctl"), timeout)
			if err != nil {
				t.Fatal(err)
			}
			entries, err := p.Entries(out)
			if err != nil || len(entries) == 0 {
				t.Fatalf("%s: reading back %s: %v", p.Name(), out, err)
			}
			for _, e := range entries {
				m := hostTimeout.FindStringSubmatch(e.Command)
				if m == nil {
					t.Fatalf("%s %s: no --host-timeout in %q", p.Name(), e.Event, e.Command)
				}
				flag, err := time.ParseDuration(m[1])
				if err != nil || flag != e.Timeout || e.Timeout <= 0 {
					t.Errorf("%s %s: the entry's timeout %v, the command's --host-timeout %s", p.Name(), e.Event, e.Timeout, m[1])
				}
				want := timeout
				if want == 0 {
					want = p.HookTimeout(e.Event)
				}
				if e.Timeout < want || e.Timeout-want >= time.Second {
					t.Errorf("%s %s: timeout %v for %v", p.Name(), e.Event, e.Timeout, want)
				}
			}
		}
	}
}
