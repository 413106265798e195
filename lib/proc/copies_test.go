package proc

import (
	"bytes"
	"errors"
	"sync"
	"testing"
	"time"
)

// syncPipe is one end of a pipe as Windows' os.Pipe gives it: a read or
// write waits (for data, for room) until the other end acts or the
// operation is cancelled, deadlines do nothing, and a cancel (CancelIoEx)
// ends only the operation pending when it is made.
type syncPipe struct {
	mu      sync.Mutex
	pending chan struct{} // closed to cancel the operation pending now
	// always: every read returns a byte at once (a writer outside the
	// run that never stops), so that no read is ever pending; otherwise
	// a read waits for a cancel.
	always bool
	// entered, when set, is signalled as an operation begins, which then
	// waits for proceed before it becomes pending.
	entered chan struct{}
	proceed chan struct{}
	cancels int
}

var errAborted = errors.New("ERROR_OPERATION_ABORTED")

func (p *syncPipe) wait() error {
	if p.entered != nil {
		p.entered <- struct{}{}
		<-p.proceed
	}
	cancel := make(chan struct{})
	p.mu.Lock()
	p.pending = cancel
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.pending = nil
		p.mu.Unlock()
	}()
	<-cancel
	return errAborted
}

func (p *syncPipe) Read(b []byte) (int, error) {
	if p.always {
		b[0] = 'x'
		return 1, nil
	}
	return 0, p.wait()
}

func (p *syncPipe) Write([]byte) (int, error) { return 0, p.wait() }
func (p *syncPipe) Close() error              { return nil }

func (p *syncPipe) cancel() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cancels++
	if p.pending != nil {
		close(p.pending)
		p.pending = nil
	}
}

// cancelStopper is the Windows stopper over fake pipes: it cancels what
// is pending on each. firstDone is closed once its first stop returned.
type cancelStopper struct {
	pipes     []*syncPipe
	once      sync.Once
	firstDone chan struct{}
}

func (c *cancelStopper) stop() {
	for _, p := range c.pipes {
		p.cancel()
	}
	c.once.Do(func() { close(c.firstDone) })
}

// stopEnds fails the test unless c.stop returns; the bound only keeps a
// failure from hanging the test.
func stopEnds(t *testing.T, c *copies) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		c.stop()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("stop did not end the copies: Run would wait for ever for a pipe held outside the run")
	}
}

// TestStopEndsCopiesThatCancelMisses: on Windows the copies are stopped
// by cancelling their pending reads and writes, which ends only those
// pending when the cancel is made. A read or write that starts just
// after it, and a reader that is never pending because a process out of
// the run keeps writing, must end too: stop asks again until the copies
// are gone, and no copy reads again once stop has begun.
func TestStopEndsCopiesThatCancelMisses(t *testing.T) {
	t.Run("pending just after the cancel", func(t *testing.T) {
		out := &syncPipe{entered: make(chan struct{}), proceed: make(chan struct{})}
		in := &syncPipe{entered: make(chan struct{}), proceed: make(chan struct{})}
		st := &cancelStopper{pipes: []*syncPipe{in, out}, firstDone: make(chan struct{})}
		c := &copies{st: st}
		done := make(chan struct{})
		c.write(in, []byte("input"))
		c.read(out, &bytes.Buffer{}, done)
		<-in.entered
		<-out.entered
		// Both operations become pending only once the first cancel
		// has been made: it misses them.
		go func() {
			<-st.firstDone
			close(in.proceed)
			close(out.proceed)
		}()
		stopEnds(t, c)
		if in.cancels < 2 || out.cancels < 2 {
			t.Errorf("cancelled %d and %d times; the first cancel cannot have ended them", in.cancels, out.cancels)
		}
	})
	t.Run("a writer outside the run that never stops", func(t *testing.T) {
		out := &syncPipe{always: true}
		st := &cancelStopper{pipes: []*syncPipe{out}, firstDone: make(chan struct{})}
		c := &copies{st: st}
		done := make(chan struct{})
		c.read(out, &capped{max: 10}, done)
		stopEnds(t, c)
	})
}
