package daemon

import (
	"errors"
	"strings"
	"testing"
)

// TestSupported: the daemon runs where its transport checks its callers
// (unix sockets; Windows' named pipes); elsewhere it is refused with a
// reason that says what the client does instead.
func TestSupported(t *testing.T) {
	for _, goos := range []string{"linux", "darwin", "windows"} {
		if err := supported(goos, true); err != nil {
			t.Fatalf("%s: %v", goos, err)
		}
	}
	if err := Supported(); err != nil {
		t.Fatalf("here: %v", err)
	}
	err := supported("plan9", false)
	var ue *UnsupportedError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "plan9") || !strings.Contains(err.Error(), "runs hookctl itself") {
		t.Fatalf("plan9: %v", err)
	}
}
