package hosts_test

import (
	"fmt"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/hosts"
)

// A payload that came without --host: the registry detects its host, the
// host's protocol decodes it onto the catalog and answers in its format.
func ExampleNew() {
	reg := hosts.New()
	fmt.Println(reg.Names())

	raw := map[string]any{"event": "PreToolUse", "tool_name": "bash", "tool_input": map[string]any{"command": "rm -rf /"}}
	p, why := reg.Detect(raw, func(string) string { return "" })
	fmt.Println(p.Title(), "-", why)

	ev, err := p.Decode(raw, "")
	if err != nil {
		panic(err)
	}
	fmt.Println(ev.HostEvent, "fires", ev.Name)
	r := p.Block(ev, "no rm -rf")
	fmt.Printf("%s", r.Stdout)

	gemini, _ := reg.Lookup("gemini")
	ev, _ = gemini.Decode(map[string]any{"hook_event_name": "BeforeTool", "tool_name": "run_shell_command"}, "")
	fmt.Println(ev.HostEvent, "fires", ev.Name, "- blocks with exit", gemini.BlockExit(), "- can ask:", gemini.CanAsk())
	out := engine.Outcome{Event: ev.Name, Continue: true, Decision: engine.DecisionAsk, Reason: "sure?"}
	r = gemini.Reply(ev, out, protocol.Options{})
	fmt.Printf("%s", r.Stdout)
	// Output:
	// [claude crush codex gemini cursor copilot]
	// crush - the payload names its event in "event" (crush)
	// PreToolUse fires PreToolUse
	// {"decision":"deny","reason":"no rm -rf","version":1}
	// BeforeTool fires PreToolUse - blocks with exit 2 - can ask: true
	// {"decision":"ask","reason":"sure?"}
}
