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

// A command argument in Git Bash's form names a drive on Windows; in
// PowerShell it is a directory on the working directory's drive. A
// guard judges both readings.
func ExampleSystem_ArgForms() {
	for _, f := range paths.Windows.ArgForms("/c/Users/me") {
		fmt.Println(paths.Windows.Resolve(f, `D:\proj`, ""))
	}
	fmt.Println(paths.Unix.ArgForms("/c/Users/me"))
	// Output:
	// C:/Users/me
	// D:/c/Users/me
	// [/c/Users/me]
}

// macOS's default volumes and Windows ignore case (and macOS Unicode
// normalisation): a guard compares names under the rules of the system
// whose paths it judges.
func ExampleSystem_Equal() {
	fmt.Println(paths.Unix.Equal(".ENV", ".env"), paths.Darwin.Equal(".ENV", ".env"), paths.Windows.Equal(".ſsh", ".SSH"))
	fmt.Println(paths.Darwin.Equal("cafe\u0301", "CAFÉ"), paths.Darwin.Match("/Users/*/.aws/credentials", "/users/me/.AWS/Credentials"))
	// Output:
	// false true true
	// true true
}
