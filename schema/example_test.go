package schema_test

import (
	"errors"
	"fmt"

	"github.com/hookctl/hookctl/schema"
)

func ExampleResolve() {
	_, err := schema.Resolve("PreToolUse", []string{"Bash"}, []string{"tool_input", "comand"})
	fmt.Println(err)
	var u *schema.UnknownFieldError
	if errors.As(err, &u) {
		fmt.Println(u.Suggestion)
	}
	f, _ := schema.Resolve("PreToolUse", []string{"Bash", "Write"}, []string{"tool_input", "file_path"})
	fmt.Println(f.Type)
	// Output:
	// tool_input.comand: Bash has no field "comand"; did you mean "command"?
	// command
	// string
}
