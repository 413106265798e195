package natsstate_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/hookctl/hookctl/state/natsstate"
)

// TestPing: a round trip to a server that answers passes; to a server
// that keeps the connection open but answers nothing (here a proxy that
// stops forwarding, as a SIGSTOPped server does) it fails within the
// context, matching ErrUnavailable, while Ready, which looks only at the
// connection, still passes.
func TestPing(t *testing.T) {
	ts := sharedServer(t)
	p := newStallProxy(t, ts.URL()[len("nats://"):])
	st := open(t, "nats://"+p.addr, natsstate.WithBucket(bucketName(t)), natsstate.WithAuditStream("A"+bucketName(t), "audit."+bucketName(t)))
	if err := st.Ping(context.Background()); err != nil {
		t.Fatalf("Ping of a live server: %v", err)
	}
	p.stall()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	err := st.Ping(ctx)
	if !errors.Is(err, natsstate.ErrUnavailable) {
		t.Fatalf("Ping of a stalled server: %v", err)
	}
	if err := st.Ready(); err != nil {
		t.Fatalf("Ready, which does no I/O, with the connection open: %v", err)
	}
	st.Close()
	if err := st.Ping(context.Background()); !errors.Is(err, natsstate.ErrClosed) {
		t.Fatalf("Ping after Close: %v", err)
	}
}

// stallProxy forwards TCP to a server until stall, after which it keeps
// the connections open and forwards nothing more.
type stallProxy struct {
	addr    string
	stalled chan struct{}
}

func newStallProxy(t *testing.T, target string) *stallProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &stallProxy{addr: ln.Addr().String(), stalled: make(chan struct{})}
	done := make(chan struct{})
	var conns []net.Conn
	t.Cleanup(func() {
		ln.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				return
			}
			conns = append(conns, c, s)
			go p.pipe(c, s)
			go p.pipe(s, c)
		}
	}()
	return p
}

func (p *stallProxy) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if err != nil {
			return
		}
		select {
		case <-p.stalled:
			continue // read and dropped: the peer hears nothing
		default:
		}
		if _, err := dst.Write(buf[:n]); err != nil {
			return
		}
	}
}

func (p *stallProxy) stall() { close(p.stalled) }
