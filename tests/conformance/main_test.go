package conformance_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the suite if any test leaves a goroutine behind (a hook
// still running after its engine was closed, a timer, a pool worker).
// Goroutines that exist before the tests start are not ours and are
// ignored.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreCurrent())
}
