package dirs_test

import (
	"fmt"

	"github.com/hookctl/hookctl/internal/dirs"
)

func ExampleManaged() {
	getenv := func(k string) string {
		if k == dirs.ManagedEnv {
			return "/opt/acme/hookctl"
		}
		return ""
	}
	fmt.Println(dirs.Managed(getenv))
	// Output: /opt/acme/hookctl
}
