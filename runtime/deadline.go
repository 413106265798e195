package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/hookctl/hookctl/protocol"
)

// MaxMargin bounds Margin.
const MaxMargin = 5 * time.Second

// Margin is how much sooner than a host's timeout hookctl answers: a
// tenth of the timeout, at most MaxMargin (5 s of Gemini CLI's 60 s,
// 200 ms of a 2 s timeout). Half of it is left for the hooks' processes
// to be killed, the rest for the reply to reach the host.
func Margin(hostTimeout time.Duration) time.Duration { return min(hostTimeout/10, MaxMargin) }

// Deadline is how long hookctl lets its hooks run under a host that waits
// hostTimeout for the reply: hostTimeout less Margin.
func Deadline(hostTimeout time.Duration) time.Duration { return hostTimeout - Margin(hostTimeout) }

// HostTimeoutError is a call whose hooks were still running at the
// deadline hookctl answers by, before the host stops waiting (and, on
// every host, runs the action).
type HostTimeoutError struct {
	// Host is the host's name for people.
	Host string
	// After is the deadline; HostTimeout the host's timeout.
	After, HostTimeout time.Duration
}

func (e *HostTimeoutError) Error() string {
	return fmt.Sprintf("hooks still running after %s, %s would stop waiting at %s; blocked (the hooks were cancelled and their processes killed; raise the host's timeout and --host-timeout together to give them longer)",
		protocol.FormatTimeout(e.After), e.Host, protocol.FormatTimeout(e.HostTimeout))
}

// hostTimeout is the host's timeout for the call: --host-timeout, else
// the protocol's default for the event; 0 when the call has none.
func hostTimeout(req *Request, p Protocol, ev *Event) time.Duration {
	switch {
	case req.HostTimeout < 0:
		return 0
	case req.HostTimeout > 0:
		return req.HostTimeout
	}
	return p.HookTimeout(ev.HostEvent)
}

// answerWithin is answer under the host's timeout: when the hooks are
// still running at the deadline (Deadline of the host's timeout, counted
// from req.Start), their context is cancelled (command hooks' process
// groups are killed, as on their own timeout) and the call is answered
// with the host's block, whether or not the cancelled call has returned
// within half the margin.
func (r *Runtime) answerWithin(ctx context.Context, req *Request, p Protocol, ev *Event, getenv func(string) string) Reply {
	ht := hostTimeout(req, p, ev)
	if ht <= 0 {
		return r.answer(ctx, req, p, ev, getenv)
	}
	herr := &HostTimeoutError{Host: p.Title(), After: Deadline(ht), HostTimeout: ht}
	ctx, cancel := context.WithDeadlineCause(ctx, req.Start.Add(herr.After), herr)
	defer cancel()
	// The call may outlive this function (a hook that ignores its
	// context): what it would still write to the caller's stderr and
	// timer is dropped once the answer is given.
	g := &gate{}
	inner := *req
	inner.Stderr = &gatedWriter{g: g, w: req.stderr()}
	if req.Timer != nil {
		inner.Timer = &gatedTimer{g: g, t: req.Timer}
	}
	done := make(chan Reply, 1)
	r.calls.Go(func() {
		defer func() {
			if v := recover(); v != nil {
				done <- p.Block(ev, fmt.Sprintf("hookctl: the call failed (%v); no hook could decide, so the action is blocked", v))
			}
		}()
		done <- r.answer(ctx, &inner, p, ev, getenv)
	})
	defer g.close()
	select {
	case reply := <-done:
		if !errors.Is(context.Cause(ctx), herr) {
			return reply
		}
		// The deadline passed while the call ended: its hooks were
		// cancelled, so what it answered is not their decision.
	case <-ctx.Done():
		t := time.NewTimer(Margin(ht) / 2)
		defer t.Stop()
		if !errors.Is(context.Cause(ctx), herr) {
			// The caller's context ended (a stop signal): answer says
			// why, if it returns in time.
			select {
			case reply := <-done:
				return reply
			case <-t.C:
				return p.Block(ev, fmt.Sprintf("hookctl: %v; the hooks did not finish, so the action is blocked", context.Cause(ctx)))
			}
		}
		select {
		case <-done:
		case <-t.C:
		}
	}
	fmt.Fprintf(req.stderr(), "hookctl: %v\n", herr)
	return p.Block(ev, "hookctl: "+herr.Error())
}

// gate drops what a call that outlived its answer would still write.
type gate struct {
	mu     sync.Mutex
	closed bool
}

func (g *gate) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}

// do runs f unless the gate is closed.
func (g *gate) do(f func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.closed {
		f()
	}
}

type gatedWriter struct {
	g *gate
	w io.Writer
}

func (w *gatedWriter) Write(b []byte) (n int, err error) {
	n = len(b)
	w.g.do(func() { n, err = w.w.Write(b) })
	return n, err
}

type gatedTimer struct {
	g *gate
	t Timer
}

func (t *gatedTimer) Mark(name string) { t.g.do(func() { t.t.Mark(name) }) }

func (t *gatedTimer) Add(name string, d time.Duration) { t.g.do(func() { t.t.Add(name, d) }) }

func (t *gatedTimer) Phase() func(string, time.Duration) {
	phase := t.t.Phase()
	if phase == nil {
		return nil
	}
	return func(name string, d time.Duration) { t.g.do(func() { phase(name, d) }) }
}
