package hooktest_test

import (
	"context"
	"fmt"

	"github.com/hookctl/hookctl/hooktest"
)

// Run loads the configuration once and runs the test blocks of the
// *_test.hcl files beside it; the report says what differed in each
// failing test and which hooks no test reached.
func ExampleRun() {
	rep, err := hooktest.Run(context.Background(), "testdata/example/hooks.hcl")
	if err != nil {
		panic(err) // a configuration or test file with problems
	}
	for _, t := range rep.Tests {
		fmt.Printf("%s: passed=%v\n", t.Name, t.Passed)
		for _, f := range t.Failures {
			fmt.Printf("  %s: want %s, got %s\n", f.Field, f.Want, f.Got)
		}
	}
	for _, h := range rep.Coverage.NotReached() {
		fmt.Println("not reached:", h.ID)
	}
	// Output:
	// rm is denied: passed=true
	// pip becomes uv pip: passed=false
	//   hooks.no-rm: want decided, got skipped (condition was false)
	// not reached: greet
}
