package conditions_test

import (
	"fmt"

	"github.com/hookctl/hookctl/conditions"
)

func Example() {
	p, err := conditions.Compile("tool_name == 'Bash' and tool_input.command matches `\\brm\\s+-rf\\b` and not (cwd startsWith '/tmp')")
	if err != nil {
		panic(err)
	}
	var ev conditions.Evaluator // one per goroutine
	for _, cwd := range []string{"/home/me", "/tmp/scratch"} {
		ok, _ := ev.Eval(p, map[string]any{
			"tool_name": "Bash", "cwd": cwd,
			"tool_input": map[string]any{"command": "rm -rf build"},
		}, nil)
		fmt.Println(cwd, ok)
	}
	// Output:
	// /home/me true
	// /tmp/scratch false
}

func ExampleCompile_error() {
	_, err := conditions.Compile(`tool_input.command matches '\s+'`)
	fmt.Println(err)
	// Output: 1:30: invalid char escape
}
