package patch_test

import (
	"fmt"

	"github.com/hookctl/hookctl/lib/patch"
)

func ExampleParse() {
	p, err := patch.Parse("*** Begin Patch\n*** Add File: .env\n+TOKEN=x\n*** Update File: a.go\n*** Move to: b.go\n@@\n-x\n+y\n*** End Patch\n")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Paths())
	fmt.Printf("%q\n", p.Added()[0].Content)
	// Output:
	// [.env a.go b.go]
	// "TOKEN=x\n"
}
