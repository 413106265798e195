package daemon

import (
	"errors"
	"strings"
	"testing"
)

// TestSupported: where the daemon's callers cannot be checked (Windows)
// it is refused with a reason that says what the client does instead.
func TestSupported(t *testing.T) {
	if err := supported("linux", true); err != nil {
		t.Fatalf("linux: %v", err)
	}
	err := supported("windows", false)
	var ue *UnsupportedError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "windows") || !strings.Contains(err.Error(), "runs hookctl itself") {
		t.Fatalf("windows: %v", err)
	}
}
