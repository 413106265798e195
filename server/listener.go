package server

import (
	"container/list"
	"context"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// LimitListener returns ln bounded to the server's MaxConns open
// connections. A connection beyond the bound is not left waiting in the
// kernel's backlog behind connections that do nothing: room is made by
// closing the connection that has waited longest without a request in a
// handler: a client that never sent a complete request (slow or idle), or
// a kept-alive connection idle since its last reply. Connections
// whose requests are in a handler are never closed; when every one is,
// the new connection is closed at once. So a flood of idle or slow
// connections cannot keep /healthz and well-formed requests out.
//
// It relies on the connection tracking of the *http.Server HTTPServer
// returns; with another server, connections are closed oldest first.
func (s *Server) LimitListener(ln net.Listener) net.Listener {
	return &limitListener{Listener: ln, t: s.conns}
}

type limitListener struct {
	net.Listener
	t *connTracker
}

// Accept waits for a connection and makes room for it.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		tc := &trackedConn{Conn: c, t: l.t}
		victim, ok := l.t.add(tc)
		if victim != nil {
			_ = victim.Close()
		}
		if ok {
			return tc, nil
		}
		_ = c.Close() // every connection is busy in a handler
	}
}

// connTracker keeps the open connections in two lists, each oldest (or
// least recently used) first: fresh ones, which never had a request in a
// handler, and served ones.
type connTracker struct {
	max     int
	mu      sync.Mutex
	fresh   list.List
	served  list.List
	evicted atomic.Uint64
}

type trackedConn struct {
	net.Conn
	t    *connTracker
	once sync.Once
	// Guarded by t.mu.
	elem     *list.Element // nil once removed
	isServed bool
	busy     int
	since    time.Time // accepted, or its last request left the handler
}

func (t *connTracker) openCount() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.fresh.Len() + t.served.Len()
}

// add tracks c. When the tracker is full it removes a connection to close
// (victim), or reports false when every connection is busy.
func (t *connTracker) add(c *trackedConn) (victim *trackedConn, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fresh.Len()+t.served.Len() >= t.max {
		victim = t.pickVictim()
		if victim == nil {
			return nil, false
		}
		t.remove(victim)
		t.evicted.Add(1)
	}
	c.since = time.Now()
	c.elem = t.fresh.PushBack(c)
	return victim, true
}

// pickVictim returns, of the oldest fresh connection and the served one
// idle the longest, the one waiting for longer.
func (t *connTracker) pickVictim() *trackedConn {
	var fresh, idle *trackedConn
	if e := t.fresh.Front(); e != nil {
		fresh = e.Value.(*trackedConn)
	}
	for e := t.served.Front(); e != nil; e = e.Next() {
		if c := e.Value.(*trackedConn); c.busy == 0 {
			idle = c
			break
		}
	}
	switch {
	case fresh == nil:
		return idle
	case idle == nil || !idle.since.Before(fresh.since):
		return fresh
	default:
		return idle
	}
}

// remove untracks c; t.mu is held.
func (t *connTracker) remove(c *trackedConn) {
	if c.elem == nil {
		return
	}
	if c.isServed {
		t.served.Remove(c.elem)
	} else {
		t.fresh.Remove(c.elem)
	}
	c.elem = nil
}

// enter marks c as having a request in a handler.
func (t *connTracker) enter(c *trackedConn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	c.busy++
	if c.elem != nil && !c.isServed {
		t.fresh.Remove(c.elem)
		c.elem = t.served.PushBack(c)
		c.isServed = true
	}
}

// leave marks the end of a request in a handler: c is now the most
// recently used.
func (t *connTracker) leave(c *trackedConn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	c.busy--
	c.since = time.Now()
	if c.elem != nil && c.isServed {
		t.served.MoveToBack(c.elem)
	}
}

// Close closes the connection and frees its place.
func (c *trackedConn) Close() error {
	err := net.ErrClosed
	c.once.Do(func() {
		c.t.mu.Lock()
		c.t.remove(c)
		c.t.mu.Unlock()
		err = c.Conn.Close()
	})
	return err
}

type connKey struct{}

// connContext is http.Server.ConnContext: it lets the handler find the
// connection a request came on.
func connContext(ctx context.Context, c net.Conn) context.Context {
	if tc, ok := c.(*trackedConn); ok {
		return context.WithValue(ctx, connKey{}, tc)
	}
	return ctx
}

func trackedFrom(ctx context.Context) *trackedConn {
	c, _ := ctx.Value(connKey{}).(*trackedConn)
	return c
}
