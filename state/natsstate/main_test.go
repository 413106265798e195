package natsstate_test

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any test leaves a goroutine behind (a
// State not closed, a server not shut down). The goroutines running
// before the tests start (ants' package-level default pool, which the
// engine brings in) are not ours and are ignored.
func TestMain(m *testing.M) {
	ignore := goleak.IgnoreCurrent()
	dir, err := os.MkdirTemp("", "natsstate-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	shared.dir = dir
	code := m.Run()
	if shared.ts != nil {
		shared.ts.Stop()
	}
	os.RemoveAll(dir)
	if code == 0 {
		if err := goleak.Find(ignore); err != nil {
			fmt.Fprintln(os.Stderr, "goroutines left running:", err)
			code = 1
		}
	}
	os.Exit(code)
}
