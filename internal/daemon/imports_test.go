package daemon

import (
	"go/build"
	"slices"
	"testing"
)

// TestClientImportsNoNet: hookctl-client links this package, and package
// net's or encoding/json's initialisation would cost every client
// process more than its call; the daemon's server side is package
// daemonserver.
func TestClientImportsNoNet(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, banned := range []string{"net", "encoding/json", "net/http"} {
		if slices.Contains(pkg.Imports, banned) {
			t.Errorf("package daemon imports %s", banned)
		}
	}
}
