package command_test

import (
	"context"
	"fmt"
	"os"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/handler/command"
	"github.com/hookctl/hookctl/protocol/crush"
)

// A command hook speaks Claude Code's protocol by default (exit 2 blocks
// with stderr as the reason), or the convention Spec.Protocol names: here
// a crush script, whose exit 49 halts the turn.
func ExampleNew() {
	eng, err := engine.New()
	if err != nil {
		panic(err)
	}
	defer eng.Close(context.Background())
	guard, err := command.New(command.Spec{Shell: `cat >/dev/null; echo "no rm -rf" >&2; exit 2`, Dir: os.TempDir()})
	if err != nil {
		panic(err)
	}
	halt, err := command.New(command.Spec{Shell: `cat >/dev/null; echo "stop here" >&2; exit 49`, Dir: os.TempDir(), Protocol: crush.New()})
	if err != nil {
		panic(err)
	}
	for _, h := range []engine.Hook{{ID: "guard", Event: "PreToolUse", Handler: guard}, {ID: "halt", Event: "PostToolUse", Handler: halt}} {
		if err := eng.Register(h); err != nil {
			panic(err)
		}
	}
	call := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /"}}
	for _, event := range []string{"PreToolUse", "PostToolUse"} {
		out, err := eng.Fire(context.Background(), engine.Event{Name: event, Payload: call})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: decision %q, reason %q, continue %v\n", event, out.Decision, out.Reason, out.Continue)
	}
	// Output:
	// PreToolUse: decision "deny", reason "no rm -rf", continue true
	// PostToolUse: decision "block", reason "stop here", continue false
}
