//go:build unix || windows

package filelock

import (
	"context"
	"time"
)

// poll calls try until it takes the lock (nil), fails for another reason
// than the lock being held (busy false), or ctx ends (ctx.Err()), backing
// off from 50µs up to 10ms between tries.
func poll(ctx context.Context, try func() error, busy func(error) bool) error {
	delay := 50 * time.Microsecond
	for {
		err := try()
		if err == nil || !busy(err) {
			return err
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		delay = min(2*delay, 10*time.Millisecond)
	}
}
