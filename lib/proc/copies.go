package proc

import (
	"errors"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// stopper makes the reads and writes the copying goroutines have pending
// on a run's own pipe ends return at once. How depends on the system:
// deadlines where the pipes are pollable (Unix: deadlines), cancelling
// the pending operations where they are not (Windows' os.Pipe is
// synchronous and ignores deadlines: cancelIO in proc_windows.go).
type stopper interface {
	// stop ends what is pending now. An operation that starts after it
	// returns may not be ended by it: copies.stop calls it again until
	// the copies have returned.
	stop()
}

// stopRetry is how often copies.stop asks its stopper again.
const stopRetry = 10 * time.Millisecond

// errStopped is what a copy reads once its run stopped copying.
var errStopped = errors.New("proc: copying stopped")

// copies are the goroutines that write a run's input to its stdin pipe
// and read its output from its stdout and stderr pipes. A pipe another
// process still holds (one that left the run's process group or job: a
// handle duplicated into a process outside it, a child of a service)
// never reaches EOF; stop ends them anyway.
type copies struct {
	st      stopper
	wg      sync.WaitGroup
	stopped atomic.Bool
	running atomic.Int32 // copies not yet returned
}

// write writes p to w, then closes w, on a goroutine of its own.
func (c *copies) write(w io.WriteCloser, p []byte) {
	c.running.Add(1)
	c.wg.Go(func() {
		defer c.running.Add(-1)
		_, _ = w.Write(p) // an error: the program did not read it all
		_ = w.Close()
	})
}

// read copies r to w on a goroutine of its own, and closes done when it
// has ended (EOF, an error, or stop).
func (c *copies) read(r io.Reader, w io.Writer, done chan<- struct{}) {
	c.running.Add(1)
	c.wg.Go(func() {
		defer c.running.Add(-1)
		defer close(done)
		_, _ = io.Copy(w, stoppable{r, &c.stopped})
	})
}

// stop ends the copies and returns once they all have returned. The
// stopper ends what is pending; no copy starts another read once stop
// has begun (a reader that always has more, fed by a process outside the
// run, would otherwise never end), and the stopper is asked again until
// the copies are gone: one started just after it was asked is not ended
// by every stopper (cancelling on Windows ends only the operations
// pending at the time).
func (c *copies) stop() {
	c.stopped.Store(true)
	if c.running.Load() == 0 {
		c.wg.Wait() // the copies have returned: the pipes reached EOF
		return
	}
	c.st.stop()
	done := make(chan struct{})
	go func() {
		c.wg.Wait()
		close(done)
	}()
	t := time.NewTicker(stopRetry)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			c.st.stop()
		}
	}
}

// stoppable reads r until stopped is set.
type stoppable struct {
	r       io.Reader
	stopped *atomic.Bool
}

func (s stoppable) Read(p []byte) (int, error) {
	if s.stopped.Load() {
		return 0, errStopped
	}
	return s.r.Read(p)
}

// deadlines stops I/O on pollable files by setting their deadlines to
// now: a pending read or write returns, and so does every later one
// (until drain clears the deadline).
type deadlines struct{ w, r1, r2 *os.File }

func (d deadlines) stop() {
	now := time.Now()
	_ = d.w.SetWriteDeadline(now)
	_ = d.r1.SetReadDeadline(now)
	_ = d.r2.SetReadDeadline(now)
}
