package gopool

import (
	"slices"
	"sync"
	"time"
)

// maxIdle is how many goroutines wait for work; idleFor how long.
const (
	maxIdle = 8
	idleFor = 100 * time.Millisecond
)

// Pool runs functions on long-lived goroutines: a goroutine's stack grows
// to the depth of what it runs (a script runtime, a JSON decoder), and a
// goroutine that is reused keeps its grown stack (until the collector
// shrinks it) where a fresh one would grow it again, copy by copy, every
// time. A function that no goroutine is idle for gets a goroutine of its
// own, which stays in the pool after it; at most maxIdle wait, each for
// idleFor at most, so an idle process keeps none. Go never waits, and
// never queues: a goroutine that is busy (however long) takes nothing
// more. The zero value is ready to use.
type Pool struct {
	mu   sync.Mutex
	idle []chan func() // the waiting goroutines, the latest last
	// Parked, when set (by tests, before the first Go), is called when a
	// goroutine waits for work.
	Parked func()
}

// Go runs f on an idle goroutine of the pool, or on a new one; it does
// not wait for f.
func (p *Pool) Go(f func()) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle[n-1] = nil
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		c <- f // buffered: the goroutine, taken off the list, receives it
		return
	}
	p.mu.Unlock()
	go p.loop(f)
}

// loop runs f, then the functions handed to it while it is one of the
// idle goroutines.
func (p *Pool) loop(f func()) {
	c := make(chan func(), 1)
	var t *time.Timer
	for {
		f()
		p.mu.Lock()
		if len(p.idle) >= maxIdle {
			p.mu.Unlock()
			return
		}
		p.idle = append(p.idle, c)
		p.mu.Unlock()
		if t == nil {
			t = time.NewTimer(idleFor)
		} else {
			t.Reset(idleFor)
		}
		if p.Parked != nil {
			p.Parked()
		}
		select {
		case f = <-c:
			t.Stop()
			continue
		case <-t.C:
		}
		p.mu.Lock()
		i := slices.Index(p.idle, c)
		if i >= 0 {
			p.idle = slices.Delete(p.idle, i, i+1)
		}
		p.mu.Unlock()
		if i >= 0 {
			return
		}
		f = <-c // Go took this goroutine as its timer fired
	}
}
