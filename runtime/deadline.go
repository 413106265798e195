package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/hookctl/hookctl/internal/hosttime"
	"github.com/hookctl/hookctl/protocol"
)

// MaxMargin bounds Margin.
const MaxMargin = hosttime.MaxMargin

// Margin is how much sooner than a host's timeout hookctl answers: a
// tenth of the timeout, at most MaxMargin (5 s of Gemini CLI's 60 s,
// 200 ms of a 2 s timeout). Half of it is left for the hooks' processes
// to be killed, the rest for the reply to reach the host. hookctl-client
// computes the same (internal/hosttime).
func Margin(hostTimeout time.Duration) time.Duration { return hosttime.Margin(hostTimeout) }

// Deadline is how long hookctl lets its hooks run under a host that waits
// hostTimeout for the reply: hostTimeout less Margin.
func Deadline(hostTimeout time.Duration) time.Duration { return hosttime.Deadline(hostTimeout) }

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

// InputTimeoutError is a call whose input was still not read whole
// (the host left its stdin open after the payload) at the deadline of the
// host's timeout.
type InputTimeoutError struct {
	// After is the deadline; HostTimeout the host's timeout.
	After, HostTimeout time.Duration
}

func (e *InputTimeoutError) Error() string {
	return fmt.Sprintf("the hook input was not closed within %s (the host would stop waiting at %s); no hook ran, so the action is blocked",
		protocol.FormatTimeout(e.After), protocol.FormatTimeout(e.HostTimeout))
}

// leastTimeout is the shortest host timeout of p, whatever the event (of
// every protocol of the registry when p is nil: the host is detected from
// the input, which is not read yet).
func (r *Runtime) leastTimeout(p Protocol) time.Duration {
	least := func(p Protocol) time.Duration {
		d := p.HookTimeout("")
		if t, ok := p.(interface {
			TimeoutTable() (time.Duration, map[string]time.Duration)
		}); ok {
			def, events := t.TimeoutTable()
			d = def
			for _, e := range events {
				d = min(d, e)
			}
		}
		return d
	}
	if p != nil {
		return least(p)
	}
	d := time.Duration(0)
	for _, name := range r.protocols.Names() {
		if q, ok := r.protocols.Lookup(name); ok {
			if l := least(q); d == 0 || l < d {
				d = l
			}
		}
	}
	return d
}

// decodeWithin is decode for a call whose input is read from Stdin (the
// one-shot hookctl claude and hook): the read ends at the deadline of the
// host's timeout (--host-timeout, else the shortest default of the host,
// or of every host when it is detected: the event is not known before
// the input is), counted from req.Start, with an *InputTimeoutError. A
// host closes the input once it has written the payload; one that holds
// it open is answered by then rather than at its end. The read itself
// goes on in the background: the one-shot process exits once it has
// answered.
func (r *Runtime) decodeWithin(req *Request) (map[string]any, error) {
	if req.Payload != nil || req.Stdin == nil || req.HostTimeout < 0 {
		return r.decode(*req)
	}
	ht := req.HostTimeout
	if ht == 0 {
		ht = r.leastTimeout(req.Protocol)
	}
	if ht <= 0 {
		return r.decode(*req)
	}
	type result struct {
		raw map[string]any
		err error
	}
	done := make(chan result, 1)
	in := *req
	go func() {
		raw, err := r.decode(in)
		done <- result{raw, err}
	}()
	after := Deadline(ht)
	t := time.NewTimer(time.Until(req.Start.Add(after)))
	defer t.Stop()
	select {
	case res := <-done:
		return res.raw, res.err
	case <-t.C:
		return nil, &InputTimeoutError{After: after, HostTimeout: ht}
	}
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
