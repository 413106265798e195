package state_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a test leaves a goroutine behind (a
// Shared not closed, an audit queue or a NATS connection left running).
// The goroutines running before the tests start (ants' default pool,
// which the engine brings in) are not ours.
func TestMain(m *testing.M) {
	ignore := goleak.IgnoreCurrent()
	code := m.Run()
	if code == 0 {
		if err := goleak.Find(ignore); err != nil {
			os.Stderr.WriteString("goroutines left running: " + err.Error() + "\n")
			code = 1
		}
	}
	os.Exit(code)
}
