package script_test

import (
	"context"
	"fmt"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/script"
)

// A TypeScript handler body, as a hook's ts attribute holds one: its
// types are stripped by esbuild, and an error inside it is reported at
// the line and column of the file it is written in.
func ExamplePool_CompileBody() {
	pool, err := script.NewPool("testdata/ts")
	if err != nil {
		panic(err)
	}
	defer pool.Close()
	body := `const cmd: string = event.tool_input?.command ?? "";
if (cmd.startsWith("rm ")) return { decision: "deny", reason: ` + "`no ${cmd}`" + ` };
if (cmd === "") throw new Error("no command");`
	// The body starts on line 12 of hooks.hcl, in a heredoc indented by 4.
	prog, err := pool.CompileBody(script.Body{File: "hooks.hcl", Line: 12, Text: body, TypeScript: true, Columns: []int{4, 4, 4}})
	if err != nil {
		panic(err)
	}
	h := pool.Handler(prog)
	for _, cmd := range []string{"rm -rf build", ""} {
		call := &engine.Call{Event: "PreToolUse", Hook: "no-rm", Timeout: time.Second, State: engine.NewState(nil),
			Payload: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}}}
		res, err := h.Handle(context.Background(), call)
		fmt.Println(res, err)
	}
	// Output:
	// map[decision:deny reason:no rm -rf build] <nil>
	// map[] hooks.hcl:14:27: Error: no command
}
