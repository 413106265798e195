package daemonserver

import (
	"net"
	"sync/atomic"
	"testing"

	"context"

	"github.com/hookctl/hookctl/internal/daemon"
)

// pipeListener hands out the server ends of in-memory connections, whose
// peer no kernel can name.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	select {
	case <-l.done:
	default:
		close(l.done)
	}
	return nil
}

func (l *pipeListener) Addr() net.Addr { return &net.UnixAddr{Name: "pipe", Net: "unix"} }

// TestUnknownPeerGetsNoWord: a connection whose peer's user cannot be
// read (SO_PEERCRED) is closed unanswered, before its request is read.
func TestUnknownPeerGetsNoWord(t *testing.T) {
	ln := &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
	var calls atomic.Int64
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, ln, HandlerFunc(func(context.Context, *daemon.Request) daemon.Response {
			calls.Add(1)
			return daemon.Response{}
		}), WithIdentity("id"))
	}()
	client, server := net.Pipe()
	ln.conns <- server
	go daemon.WriteRequest(client, ownRequest(t))
	if resp, err := daemon.ReadResponse(client); err == nil {
		t.Fatalf("an unknown peer got an answer: %+v", resp)
	}
	client.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 0 {
		t.Fatal("the handler ran for an unknown peer")
	}
}
