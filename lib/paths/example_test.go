package paths_test

import (
	"fmt"

	"github.com/hookctl/hookctl/lib/paths"
)

func Example() {
	p := paths.Resolve("../secrets/.env", "/home/u/project/src", "/home/u")
	fmt.Println(p)
	fmt.Println(paths.Inside(p, "/home/u/project"))
	fmt.Println(paths.Match(".env", p), paths.Match(".env.example", p))
	// Output:
	// /home/u/project/secrets/.env
	// true
	// true false
}
