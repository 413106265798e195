package hosts_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/protocol/hosts"
)

// TestInstallIsIdempotent: installing again (also switching between
// hookctl and hookctl-client) replaces the earlier entries and keeps the
// others.
func TestInstallIsIdempotent(t *testing.T) {
	h, _ := hosts.New().Lookup("crush")
	existing := []byte(`{"options": {"debug": true}, "hooks": {"PreToolUse": [{"name": "mine", "command": "./guard.sh"}]}}`)
	once, _, err := h.Install(existing, []string{"PreToolUse"}, "hookctl hook --host crush")
	if err != nil {
		t.Fatal(err)
	}
	twice, _, _ := h.Install(once, []string{"PreToolUse"}, "hookctl hook --host crush")
	if !bytes.Equal(once, twice) {
		t.Fatalf("installing twice changed the file:\n%s\n%s", once, twice)
	}
	client, _, _ := h.Install(twice, []string{"PreToolUse"}, "hookctl-client hook --host crush")
	if strings.Count(string(client), "hook --host crush") != 1 || !strings.Contains(string(client), "hookctl-client") || !strings.Contains(string(client), "./guard.sh") || !strings.Contains(string(client), `"debug": true`) {
		t.Fatalf("switching to the client:\n%s", client)
	}
}
