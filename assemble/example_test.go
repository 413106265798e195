package assemble_test

import (
	"context"
	"fmt"

	"github.com/hookctl/hookctl/assemble"
	"github.com/hookctl/hookctl/conditions"
	"github.com/hookctl/hookctl/engine"
)

// Load a configuration for an engine, then fire an event through it.
func ExampleLoad() {
	eng, err := assemble.NewEngine()
	if err != nil {
		panic(err)
	}
	defer eng.Close(context.Background())
	cfg, err := assemble.LoadSource("hooks.hcl", []byte(`
hook "no-rm" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "hasCommand(tool_input.command, 'rm')"
  decision = "deny"
  reason   = "no deletes"
}
hook "uv" {
  event   = "PreToolUse"
  matcher = "Bash"
  js      = <<JS
    const c = event.tool_input.command;
    if (c.startsWith("pip ")) return { updated_input: { command: "uv " + c } };
  JS
}
`), ".", assemble.WithEngine(eng))
	if err != nil {
		panic(err) // *hcl.Diagnostics: every problem with file:line:column
	}
	defer cfg.Close()
	if err := eng.Load(cfg.Engine); err != nil {
		panic(err)
	}
	for _, cmd := range []string{"rm -rf build", "pip install requests"} {
		out, err := eng.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{
			"tool_name": "Bash", "tool_input": map[string]any{"command": cmd},
		}})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: decision=%q reason=%q input=%v\n", cmd, out.Decision, out.Reason, out.UpdatedInput)
	}
	// Output:
	// rm -rf build: decision="deny" reason="no deletes" input=map[]
	// pip install requests: decision="" reason="" input=map[command:uv pip install requests]
}

// A program that embeds hookctl supplies a condition function from Go;
// the configuration declares it with a function block, so that the
// hookctl command (validate, test, the language server) checks the calls
// too. Loading checks that the program registered the function with the
// declared signature.
func ExampleLoad_embedderFunction() {
	onCall := map[string]bool{"alice": true}
	eng, err := assemble.NewEngine(engine.WithConditionOptions(conditions.WithFunctions(conditions.Function{
		Name:  "isOnCall",
		Fn:    func(p ...any) (any, error) { user, _ := p[0].(string); return onCall[user], nil },
		Types: []any{new(func(string) bool)},
	})))
	if err != nil {
		panic(err)
	}
	defer eng.Close(context.Background())
	cfg, err := assemble.LoadSource("hooks.hcl", []byte(`
function "isOnCall" {
  params      = ["string"]
  result      = "bool"
  description = "the user is on call this week (supplied by the program)"
}
hook "no-deploy-off-call" {
  event    = "PreToolUse"
  matcher  = "Bash"
  when     = "tool_input.command startsWith 'deploy' && !isOnCall(user)"
  decision = "deny"
  reason   = "only the on-call engineer deploys"
  on_error = "block"
}
`), ".", assemble.WithEngine(eng))
	if err != nil {
		panic(err)
	}
	defer cfg.Close()
	if err := eng.Load(cfg.Engine); err != nil {
		panic(err)
	}
	for _, user := range []string{"alice", "bob"} {
		out, err := eng.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: map[string]any{
			"tool_name": "Bash", "user": user, "tool_input": map[string]any{"command": "deploy prod"},
		}})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: decision=%q\n", user, out.Decision)
	}
	// Output:
	// alice: decision=""
	// bob: decision="deny"
}
