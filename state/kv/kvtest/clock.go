package kvtest

import (
	"sync"
	"time"
)

// Clock is a settable clock for expiry tests: it stands still until
// Advance moves it. It is safe for concurrent use.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a Clock set to 2025-06-01 12:00:00 UTC.
func NewClock() *Clock {
	return &Clock{t: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)}
}

// Now returns the clock's time; pass it where a store takes a clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
