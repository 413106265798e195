package hosts_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/hosts"
)

func install(t *testing.T, host string, existing string, req protocol.InstallRequest) string {
	t.Helper()
	h, _ := hosts.New().Lookup(host)
	res, err := h.Install([]byte(existing), req)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(res.Data) {
		t.Fatalf("not JSON:\n%s", res.Data)
	}
	return string(res.Data)
}

// TestInstallIsIdempotent: installing again (also switching between
// hookctl and hookctl-client) replaces the earlier entries and keeps the
// others.
func TestInstallIsIdempotent(t *testing.T) {
	existing := `{"options": {"debug": true}, "hooks": {"PreToolUse": [{"name": "mine", "command": "./guard.sh"}]}}`
	req := protocol.InstallRequest{Events: []string{"PreToolUse"}, Program: "hookctl", Config: "/p/hooks.hcl"}
	once := install(t, "crush", existing, req)
	twice := install(t, "crush", once, req)
	if once != twice {
		t.Fatalf("installing twice changed the file:\n%s\n%s", once, twice)
	}
	req.Program = "hookctl-client"
	client := install(t, "crush", twice, req)
	if strings.Count(client, "hook --host crush") != 1 || !strings.Contains(client, "hookctl-client") || !strings.Contains(client, "./guard.sh") || !strings.Contains(client, `"debug": true`) {
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
			inst, err := p.Install(nil, protocol.InstallRequest{Events: []string{"PreToolUse", "Stop"}, Program: "hookctl", Config: "/p/my proj/hooks.hcl", Timeout: timeout})
			if err != nil {
				t.Fatal(err)
			}
			out := inst.Data
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

// TestInstallQuotesTheConfiguration: a configuration path with a space
// or shell metacharacters is one quoted word, read back as itself.
func TestInstallQuotesTheConfiguration(t *testing.T) {
	for _, cfg := range []string{"/a/my proj/hooks.hcl", "/a/$(touch pwned)/h.hcl", "/a/it's;rm -rf ~/h.hcl"} {
		for _, host := range hosts.New().Names() {
			out := install(t, host, "", protocol.InstallRequest{Events: []string{"PreToolUse"}, Program: "hookctl", Config: cfg})
			var doc map[string]any
			json.Unmarshal([]byte(out), &doc)
			var cmds []string
			for _, list := range doc["hooks"].(map[string]any) {
				for _, e := range list.([]any) {
					m := e.(map[string]any)
					for _, k := range []string{"command", "bash"} {
						if s, ok := m[k].(string); ok {
							cmds = append(cmds, s)
						}
					}
					if inner, ok := m["hooks"].([]any); ok {
						cmds = append(cmds, inner[0].(map[string]any)["command"].(string))
					}
				}
			}
			if len(cmds) == 0 {
				t.Fatalf("%s: no command in %s", host, out)
			}
			for _, c := range cmds {
				got, ok := protocol.ParseHookctlCommand(c)
				if !ok || got.Config != cfg {
					t.Errorf("%s: %q reads back as %+v (%v)", host, c, got, ok)
				}
			}
		}
	}
}

// TestInstallReplacesOnlyItsConfiguration: an organisation's hookctl
// entry for another configuration stays; the same configuration's entry
// (written with or without --config, relative or absolute) is replaced.
func TestInstallReplacesOnlyItsConfiguration(t *testing.T) {
	existing := `{"hooks": {"PreToolUse": [
	  {"matcher": "", "hooks": [{"type": "command", "command": "hookctl claude --config /etc/org/policy.hcl"}]},
	  {"matcher": "", "hooks": [{"type": "command", "command": "hookctl claude --config hooks.hcl"}]},
	  {"matcher": "", "hooks": [{"type": "command", "command": "hookctl claude"}]}
	]}}`
	out := install(t, "claude", existing, protocol.InstallRequest{Events: []string{"PreToolUse"}, Program: "hookctl",
		Config: "/p/hooks.hcl", ProjectDir: "/p", Discovered: "/p/hooks.hcl"})
	if !strings.Contains(out, "/etc/org/policy.hcl") {
		t.Fatalf("the organisation's entry was removed:\n%s", out)
	}
	if strings.Count(out, "hookctl claude") != 2 || !strings.Contains(out, "hookctl claude --config /p/hooks.hcl") {
		t.Fatalf("the project's entries were not replaced by one:\n%s", out)
	}
	// Another project's configuration leaves the entry without --config.
	out = install(t, "claude", existing, protocol.InstallRequest{Events: []string{"PreToolUse"}, Program: "hookctl",
		Config: "/q/other.hcl", ProjectDir: "/p", Discovered: "/p/hooks.hcl"})
	if strings.Count(out, "hookctl claude") != 4 {
		t.Fatalf("entries of other configurations were removed:\n%s", out)
	}
}

// TestInstallKeepsKeyOrder: the file keeps its keys, their order and its
// bytes outside the hook lists; the user's entries keep theirs.
func TestInstallKeepsKeyOrder(t *testing.T) {
	existing := "{\n    \"zeta\": 1,\n    \"hooks\": {\n        \"Stop\": [{\"z\": 1, \"hooks\": [{\"type\": \"command\", \"command\": \"./s.sh\"}], \"a\": 2}]\n    },\n    \"alpha\": {\"b\": 1, \"a\": 2}\n}\n"
	out := install(t, "claude", existing, protocol.InstallRequest{Events: []string{"PreToolUse", "Stop"}, Program: "hookctl", Config: "/p/h.hcl"})
	if !strings.HasPrefix(out, "{\n    \"zeta\": 1,\n    \"hooks\": {\n        \"Stop\": [\n            {\"z\": 1, \"hooks\": [{\"type\": \"command\", \"command\": \"./s.sh\"}], \"a\": 2},") ||
		!strings.HasSuffix(out, "    },\n    \"alpha\": {\"b\": 1, \"a\": 2}\n}\n") {
		t.Fatalf("the file was reordered or reformatted:\n%s", out)
	}
	if i, j := strings.Index(out, `"Stop"`), strings.Index(out, `"PreToolUse"`); i < 0 || j < i {
		t.Fatalf("events out of order:\n%s", out)
	}
	if again := install(t, "claude", out, protocol.InstallRequest{Events: []string{"PreToolUse", "Stop"}, Program: "hookctl", Config: "/p/h.hcl"}); again != out {
		t.Fatalf("a second install changed the file:\n%s\n%s", out, again)
	}
}

// TestInstallRefusesWhatItCannotRead: a file that is not a JSON object,
// with a key twice, or a hooks value of another shape is left alone.
func TestInstallRefusesWhatItCannotRead(t *testing.T) {
	h, _ := hosts.New().Lookup("claude")
	for _, bad := range []string{`[1]`, `{"hooks": 1}`, `{"hooks": {"Stop": {}}}`, `{"a": 1, "a": 2}`, `{"hooks": {}, "hooks": {}}`, `{// c
}`} {
		if _, err := h.Install([]byte(bad), protocol.InstallRequest{Events: []string{"Stop"}, Program: "hookctl"}); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestInstallRemovesOnlyItsOwnLists: a list that held only an earlier
// install's entry goes when its event has no hooks any more; the user's
// empty list stays.
func TestInstallRemovesOnlyItsOwnLists(t *testing.T) {
	existing := `{"hooks": {"Notification": [], "Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "hookctl claude --config /p/h.hcl"}]}]}}`
	out := install(t, "claude", existing, protocol.InstallRequest{Events: []string{"PreToolUse"}, Program: "hookctl", Config: "/p/h.hcl"})
	if !strings.Contains(out, `"Notification":[]`) || strings.Contains(out, `"Stop"`) || !strings.Contains(out, `"PreToolUse"`) {
		t.Fatalf("%s", out)
	}
}

// TestInstallReplacesItsEntryWhateverItsFlags: an earlier install's entry
// for the same configuration is replaced, not kept beside the new one,
// whatever --host-timeout it was written with (another value, another
// unit), with --verbose added by hand, and with flags before the
// subcommand whose values are no subcommand; a --command entry (one that
// is more than a simple command) is replaced when its --host-timeout
// differs. Another configuration's entry with the
// same flags stays.
func TestInstallReplacesItsEntryWhateverItsFlags(t *testing.T) {
	for _, host := range hosts.New().Names() {
		h, _ := hosts.New().Lookup(host)
		prog := strings.Fields(h.HookCommand("hookctl"))
		for _, old := range []string{
			h.HookCommand("hookctl") + " --config /p/hooks.hcl --host-timeout 90s",
			h.HookCommand("hookctl") + " --config /p/hooks.hcl --verbose --host-timeout 1500ms",
			h.HookCommand("hookctl") + " --verbose --host-timeout=5s --config=/p/hooks.hcl",
			"hookctl --config /p/hooks.hcl " + strings.Join(prog[1:], " "),
			"hookctl --log-level debug --config /p/hooks.hcl " + strings.Join(prog[1:], " ") + " --on-ask allow --host-timeout 9s",
		} {
			req := protocol.InstallRequest{Events: []string{"PreToolUse"}, Program: "hookctl", Config: "/p/hooks.hcl", Timeout: 20 * time.Second}
			first := install(t, host, "", protocol.InstallRequest{Events: []string{"PreToolUse"}, Program: "hookctl", Config: "/q/org.hcl"})
			// The earlier entry: what this install writes, its command
			// replaced by old.
			written := install(t, host, first, req)
			cmd := regexp.MustCompile(`hookctl [^"]*--config /p/hooks.hcl --host-timeout 20s`).FindString(written)
			if cmd == "" {
				t.Fatalf("%s: no command in %s", host, written)
			}
			existing := strings.ReplaceAll(written, cmd, old)
			req.Timeout = 0
			out := install(t, host, existing, req)
			if strings.Count(out, "/p/hooks.hcl") != strings.Count(written, "/p/hooks.hcl") || strings.Contains(out, old) {
				t.Errorf("%s: the entry %q was not replaced:\n%s", host, old, out)
			}
			if !strings.Contains(out, "/q/org.hcl") {
				t.Errorf("%s: another configuration's entry went:\n%s", host, out)
			}
		}
		// A --command, installed again with another timeout.
		req := protocol.InstallRequest{Events: []string{"PreToolUse"}, Command: "cd /p && hookctl hook --host " + host + " --verbose", ProjectDir: "/p"}
		once := install(t, host, "", req)
		req.Timeout = 7 * time.Second
		again := install(t, host, once, req)
		if strings.Count(again, "--verbose") != strings.Count(once, "--verbose") || !strings.Contains(again, "--host-timeout 7s") {
			t.Errorf("%s: reinstalling a --command:\n%s\n%s", host, once, again)
		}
	}
}
