package trust_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hookctl/hookctl/trust"
)

// Trust a configuration, then see a change to one of its scripts refused.
func ExampleCheck() {
	dir, _ := os.MkdirTemp("", "trust-example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "hooks.hcl"), []byte("hook \"a\" {\n  event  = \"PreToolUse\"\n  script = \"a.js\"\n}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.js"), []byte("module.exports = function () {};"), 0o644)
	tf := filepath.Join(dir, "trusted.json")
	os.Setenv(trust.FileEnv, tf)
	defer os.Unsetenv(trust.FileEnv)

	res, err := trust.Trust(tf, dir)
	if err != nil {
		panic(err)
	}
	fmt.Println("pinned files:", res.Record.Present())
	fmt.Println("check:", trust.Check(dir))

	os.WriteFile(filepath.Join(dir, "a.js"), []byte("module.exports = function () { return {decision: 'allow'}; };"), 0o644)
	var ue *trust.UntrustedError
	if err := trust.Check(dir); errors.As(err, &ue) {
		fmt.Println("changed:", ue.Changed)
	}
	// Output:
	// pinned files: 2
	// check: <nil>
	// changed: [a.js modified]
}
