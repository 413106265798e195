package hosts_test

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/jsonx"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/hosts"
)

// blocks reports whether a result read back from a reply stops the call.
func blocks(res engine.Result, err error) bool {
	if err != nil {
		return false
	}
	d, _ := res["decision"].(string)
	return d == "deny" || d == "block" || res["continue"] == false
}

// TestEveryProtocolIsComplete lists the registry and checks that each
// protocol implements the interface meaningfully: names, events that are
// catalog events or said to be unsupported, a block its own scripts'
// reader reads as a block (with and without an event), an ask that a host
// which cannot ask denies, an install file that names the command and
// installs twice the same, and an import of that file.
func TestEveryProtocolIsComplete(t *testing.T) {
	reg := hosts.New()
	if len(reg.All()) == 0 || len(reg.All()) != len(reg.Names()) {
		t.Fatalf("registry: %d protocols, names %v", len(reg.All()), reg.Names())
	}
	seen := map[string]bool{}
	for _, name := range reg.Conventions() {
		if name == "" || seen[name] {
			t.Fatalf("convention name %q empty or listed twice: %v", name, reg.Conventions())
		}
		seen[name] = true
		c, ok := reg.Convention(name)
		if !ok || c.Name() != name || c.Title() == "" {
			t.Fatalf("Convention(%q) = %v, %v", name, c, ok)
		}
	}
	if reg.Default() == nil {
		t.Fatal("no protocol takes the payloads that look like no host's")
	}
	for _, p := range reg.All() {
		t.Run(p.Name(), func(t *testing.T) {
			if got, ok := reg.Lookup(p.Name()); !ok || got != p || p.Title() == "" {
				t.Fatalf("Lookup(%q) = %v, %v; title %q", p.Name(), got, ok, p.Title())
			}
			for hostEv, m := range p.Events() {
				if hostEv == "" || m.Event == "" {
					t.Errorf("event %q maps to %q", hostEv, m.Event)
				}
				if !protocol.KnownEvent(m.Event) && !slices.ContainsFunc(p.Limitations(), func(l string) bool { return strings.Contains(l, hostEv) }) {
					t.Errorf("event %q maps to %q, not a catalog event, and Limitations does not say so", hostEv, m.Event)
				}
				if m.Unsupported && protocol.KnownEvent(m.Event) || m.Silent && !m.Unsupported {
					t.Errorf("event %q: Unsupported %v, Silent %v, but %q is a catalog event: %v", hostEv, m.Unsupported, m.Silent, m.Event, protocol.KnownEvent(m.Event))
				}
				if m.Tool != "" && len(m.Input) == 0 {
					t.Errorf("event %q is tool %s with no input fields", hostEv, m.Tool)
				}
			}
			// A nil payload with --event decodes (an embedder's call), or is
			// an *InputError; it never panics.
			if ev, err := p.Decode(nil, "PreToolUse"); err != nil && !errorsAsInput(err) || err == nil && (ev.Name != "PreToolUse" || ev.Payload == nil) {
				t.Errorf("Decode(nil, PreToolUse) = %+v, %v", ev, err)
			}
			if !p.CanAsk() && len(p.Limitations()) == 0 {
				t.Error("cannot ask, and Limitations says nothing")
			}

			// A PreToolUse payload as the host sends it decodes to the
			// catalog's PreToolUse.
			call := map[string]any{"session_id": "s1", "cwd": "/w", "tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /"}}
			b, err := p.EncodePayload("PreToolUse", call)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := jsonx.DecodeObject(b)
			if err != nil {
				t.Fatalf("payload %s: %v", b, err)
			}
			ev, err := p.Decode(raw, "")
			if err != nil {
				t.Fatalf("decode %s: %v", b, err)
			}
			if ev.Protocol != p || ev.Name != "PreToolUse" || ev.HostEvent == "" {
				t.Fatalf("decoded %s as %+v", b, ev)
			}
			if in, _ := ev.Payload["tool_input"].(map[string]any); in["command"] != "rm -rf /" {
				t.Fatalf("tool_input lost: %v", ev.Payload)
			}

			read := func(r protocol.Reply) (engine.Result, error) {
				return p.ReadReply("PreToolUse", ev.Payload, r.ExitCode, r.Stdout, []byte(r.Stderr), "hook")
			}
			if r := p.Block(ev, "no"); !blocks(read(r)) {
				t.Errorf("Block(PreToolUse) = %+v, which its own reader does not read as a block", r)
			}
			r := p.Block(nil, "cannot read")
			if (r.ExitCode == 0 || r.ExitCode != p.BlockExit()) && len(r.Stdout) == 0 {
				t.Errorf("Block(nil) = %+v: neither the blocking exit status %d nor a reply", r, p.BlockExit())
			}
			if !blocks(read(r)) {
				t.Errorf("Block(nil) = %+v, which its own reader does not read as a block", r)
			}
			for _, ev := range []*protocol.Event{ev, nil} {
				if r := p.Warn(ev, "careful"); r.ExitCode != 0 || blocks(read(r)) || !strings.Contains(string(r.Stdout)+r.Stderr, "careful") {
					t.Errorf("Warn(%v) = %+v: blocks, or does not say the message", ev, r)
				}
			}
			ask := engine.Outcome{Event: "PreToolUse", Continue: true, Decision: engine.DecisionAsk, Reason: "sure?"}
			res, err := read(p.Reply(ev, ask, protocol.Options{}))
			if !p.CanAsk() && !blocks(res, err) {
				t.Errorf("an ask on a host that cannot ask was read back as %v, %v", res, err)
			}
			if p.CanAsk() && (err != nil || res["decision"] != "ask") {
				t.Errorf("an ask was read back as %v, %v", res, err)
			}
			deny := engine.Outcome{Event: "PreToolUse", Continue: true, Decision: engine.DecisionDeny, Reason: "no", Blocked: true}
			if !blocks(read(p.Reply(ev, deny, protocol.Options{Ask: protocol.AskAllow}))) {
				t.Error("a deny was not read back as a block")
			}

			path := p.ConfigPath()
			if path == "" || filepath.IsAbs(path) {
				t.Fatalf("ConfigPath %q", path)
			}
			cmd := p.HookCommand("hookctl")
			if !strings.HasPrefix(cmd, "hookctl ") {
				t.Fatalf("HookCommand %q", cmd)
			}
			req := protocol.InstallRequest{Events: []string{"PreToolUse", "Stop"}, Program: "hookctl", Config: "/p/hooks.hcl"}
			inst, err := p.Install(nil, req)
			if err != nil || !json.Valid(inst.Data) || !strings.Contains(string(inst.Data), cmd+" --config /p/hooks.hcl --host-timeout ") {
				t.Fatalf("Install: %v, %v", inst, err)
			}
			once, notes := inst.Data, inst.Notes
			inst, err = p.Install(once, req)
			if twice := inst.Data; err != nil || string(twice) != string(once) {
				t.Fatalf("a second install changed the file:\n%s\n%s", once, twice)
			}
			for _, n := range notes {
				if !strings.Contains(n, p.Title()) {
					t.Errorf("note %q does not name the host", n)
				}
			}
			settings, _, err := p.ToClaudeSettings(once)
			if err != nil {
				t.Fatalf("importing the installed file: %v", err)
			}
			var doc struct {
				Hooks map[string][]any `json:"hooks"`
			}
			if err := json.Unmarshal(settings, &doc); err != nil || len(doc.Hooks["PreToolUse"]) == 0 {
				t.Fatalf("the installed file imports as %s (%v)", settings, err)
			}
		})
	}
}

// TestConventionsSpeak: a convention that is no host (opta) still runs
// scripts: its payload is JSON and a failing script on a tool gate is
// read as a block.
func TestConventionsSpeak(t *testing.T) {
	reg := hosts.New()
	for _, name := range reg.Conventions() {
		if _, isHost := reg.Lookup(name); isHost {
			continue
		}
		c, _ := reg.Convention(name)
		b, err := c.EncodePayload("PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}})
		if err != nil || !json.Valid(b) {
			t.Fatalf("%s: payload %s, %v", name, b, err)
		}
		if !blocks(c.ReadReply("PreToolUse", nil, 3, nil, []byte("no"), "hook")) {
			t.Errorf("%s: a failing script on PreToolUse does not block", name)
		}
	}
}

func errorsAsInput(err error) bool {
	var ie *protocol.InputError
	return errors.As(err, &ie)
}
