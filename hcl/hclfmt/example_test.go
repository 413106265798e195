package hclfmt_test

import (
	"fmt"

	"github.com/hookctl/hookctl/hcl/hclfmt"
)

// Format aligns and indents, and keeps the JavaScript of a heredoc as it
// was written.
func ExampleFormat() {
	src := `hook "no-rm" {
event = "PreToolUse"
    matcher="Bash"
  js = <<-JS
      if (event.tool_input.command.includes("rm -rf"))
          return { decision: "deny" };
  JS
}
`
	out, err := hclfmt.Format("hooks.hcl", []byte(src))
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	// Output:
	// hook "no-rm" {
	//   event   = "PreToolUse"
	//   matcher = "Bash"
	//   js      = <<-JS
	//       if (event.tool_input.command.includes("rm -rf"))
	//           return { decision: "deny" };
	//   JS
	// }
}
