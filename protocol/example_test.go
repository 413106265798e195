package protocol_test

import (
	"context"
	"fmt"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/protocol"
	"github.com/hookctl/hookctl/protocol/codex"
)

// Handle fires a decoded event and answers in its host's format: Codex
// cannot ask, so an ask is a deny by default, said on stderr.
func ExampleHandle() {
	eng, err := engine.New()
	if err != nil {
		panic(err)
	}
	defer eng.Close(context.Background())
	ask := engine.Static(engine.Result{"decision": "ask", "reason": "force push?"})
	if err := eng.Register(engine.Hook{ID: "push", Event: "PreToolUse", Handler: ask}); err != nil {
		panic(err)
	}

	p := codex.New()
	ev, err := p.Decode(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": "git push -f"}}, "")
	if err != nil {
		panic(err)
	}
	r, err := protocol.Handle(context.Background(), eng, ev, protocol.Options{Ask: protocol.AskDeny})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s%s\n", r.Stdout, r.Stderr)
	// Output:
	// {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"force push? (denied: the hook asked for approval, which Codex cannot ask for)"}}
	// hookctl: Codex cannot ask for approval; ask mapped to deny (--on-ask)
}
