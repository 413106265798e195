package daemonserver

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookctl/hookctl/internal/daemon"
	"github.com/hookctl/hookctl/internal/filelock"
	"github.com/hookctl/hookctl/internal/gopool"
)

// Handler answers one call the daemon accepted.
type Handler interface {
	Answer(ctx context.Context, req *daemon.Request) daemon.Response
}

// HandlerFunc is a function as a Handler.
type HandlerFunc func(ctx context.Context, req *daemon.Request) daemon.Response

// Answer calls f.
func (f HandlerFunc) Answer(ctx context.Context, req *daemon.Request) daemon.Response {
	return f(ctx, req)
}

// Option configures Serve.
type Option func(*options)

type options struct {
	identity    string
	idle        time.Duration
	readTimeout time.Duration
	hangup      error
	peer        peerCheck
	// parked, when set (by tests), is called when a connection's
	// goroutine waits for the next one.
	parked func()
}

// peerCheck decides whether the process at the other end of a connection
// may be served. afterHead: it can only be asked once the connection's
// first bytes were read (a Windows named pipe's client can be
// impersonated only then); the rest of the request is read after it.
type peerCheck struct {
	isMe      func(net.Conn) (bool, error)
	afterHead bool
}

// WithIdentity is the binary identity (daemon.Identity) clients must
// present; Serve needs one.
func WithIdentity(id string) Option { return func(o *options) { o.identity = id } }

// WithIdle makes Serve return once no call came for d (default 10
// minutes). A connection that sends no request (a client counting live
// daemons) is no call.
func WithIdle(d time.Duration) Option { return func(o *options) { o.idle = d } }

// WithReadTimeout bounds how long a connection may take to send its
// request (default 30 seconds).
func WithReadTimeout(d time.Duration) Option { return func(o *options) { o.readTimeout = d } }

// WithHangup is the cause a call's context is cancelled with when its
// client closes or half-closes the connection while the call runs (the
// host stopped hookctl-client, which shuts down its writing side): the
// handler can tell it from other ends and still answer, and the answer
// is written for the client to read. Default: ErrClientGone.
func WithHangup(cause error) Option { return func(o *options) { o.hangup = cause } }

// ErrClientGone is the default cause of a call whose client hung up.
var ErrClientGone = errors.New("its client hung up: the host gave up on the hook")

// ErrNoIdentity is Serve's error without WithIdentity.
var ErrNoIdentity = errors.New("daemonserver: no identity to serve")

// Listen listens on socket unless another daemon already does (then it
// returns nil, nil). Starters racing for one socket take a lock
// (socket+".lock") around the check, the removal of a stale socket and
// the listen, and only there. The socket is made 0600. On Windows socket
// is a named pipe (listenPipe). Where the daemon is not supported
// (daemon.Supported) it refuses, with a *daemon.UnsupportedError.
func Listen(ctx context.Context, socket string) (net.Listener, error) {
	if err := daemon.Supported(); err != nil {
		return nil, err
	}
	if ln, ok, err := listenPipe(ctx, socket); ok {
		return ln, err
	}
	lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	unlock, err := filelock.Lock(lctx, socket+".lock", true)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if c, err := net.DialTimeout("unix", socket, 200*time.Millisecond); err == nil {
		c.Close()
		return nil, nil // another daemon serves this socket
	}
	os.Remove(socket)
	ln, err := net.Listen("unix", socket)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(socket, 0o600); err != nil {
		ln.Close()
		os.Remove(socket)
		return nil, err
	}
	return ln, nil
}

// Serve answers the calls that come on ln with h until ctx ends or no
// call came for the idle time; it closes ln. It serves the clients of one
// binary identity in its own process's working directory, environment,
// umask and resource limits (those of the client that started it):
// another call is refused (daemon.Response.Refused), and a connection
// from another user's process is closed without a word. A panic in h
// ends its call, not the daemon: the call blocks (exit status 2) with the
// reason on stderr. Serve returns when the calls in progress have ended.
func Serve(ctx context.Context, ln net.Listener, h Handler, opts ...Option) error {
	o := options{idle: 10 * time.Minute, readTimeout: 30 * time.Second, hangup: ErrClientGone,
		peer: peerCheck{isMe: mePeer(), afterHead: runtime.GOOS == "windows"}}
	for _, opt := range opts {
		opt(&o)
	}
	if o.identity == "" {
		ln.Close()
		return ErrNoIdentity
	}
	me, err := selfOf(o.identity)
	if err != nil {
		ln.Close()
		return err
	}
	var active atomic.Int64
	var last atomic.Int64
	last.Store(time.Now().UnixNano())
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	go func() {
		tick := time.NewTicker(max(o.idle/4, 10*time.Millisecond))
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if active.Load() == 0 && time.Since(time.Unix(0, last.Load())) > o.idle {
					stop()
					return
				}
			}
		}
	}()
	var wg sync.WaitGroup
	defer wg.Wait()
	conns := gopool.Pool{Parked: o.parked}
	// A request is read through a buffer: its header and its body come in
	// one read from the socket, not one each.
	readers := sync.Pool{New: func() any { return bufio.NewReaderSize(nil, requestBuffer) }}
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			continue
		}
		active.Add(1)
		wg.Add(1)
		// On a goroutine that served calls before: reading the request,
		// decoding the payload and parsing the call's flags grow a fresh
		// goroutine's stack copy by copy on every call.
		conns.Go(func() {
			defer wg.Done()
			defer active.Add(-1)
			// Only a call keeps the daemon: a connection that sends no
			// request (a client counting live daemons) does not.
			if serveConn(ctx, conn, me, h, o.peer, o.readTimeout, o.hangup, &readers) {
				last.Store(time.Now().UnixNano())
			}
		})
	}
}

// self is what a daemon serves: the clients of one binary identity, in
// one working directory, with one environment (its own).
type self struct {
	identity string
	cwd      string
	env      []string // daemon.EnvKey of the daemon's environment
	environ  []string // the daemon's environment as it came (os.Environ)
	attrs    string   // daemon.ProcessAttrs of the daemon
}

// selfOf is the daemon's own identity, working directory and
// environment: those of the client that started it.
func selfOf(identity string) (self, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return self{}, err
	}
	environ := os.Environ()
	return self{identity: identity, cwd: cwd, env: daemon.EnvKey(environ), environ: environ, attrs: daemon.ProcessAttrs()}, nil
}

// refusal says why the daemon will not run req ("" when it will). A call
// whose working directory or environment is not the daemon's own would
// run its hooks with another caller's: the client runs hookctl itself.
func (s self) refusal(req *daemon.Request) string {
	switch {
	case req.Protocol != daemon.Protocol || req.Identity != s.identity:
		return "the client and the daemon are different hookctl builds"
	case !daemon.IsHookCommand(req.Command):
		return "the daemon runs hook calls only (claude, hook)"
	case req.Cwd != s.cwd:
		return "the call comes from another working directory than the daemon's"
	case !slices.Equal(req.Env, s.environ) && !slices.Equal(daemon.EnvKey(req.Env), s.env):
		// (The same variables in the same order are the same
		// environment, without a sort: a client sends its environ as
		// the one that started the daemon did.)
		return "the call has another environment than the daemon's"
	case req.Attrs != s.attrs:
		return "the call has another umask or other resource limits than the daemon's"
	}
	return ""
}

// requestBuffer is the size of the buffer a request is read through: a
// request of a host's payload and the client's environment fits.
const requestBuffer = 16 << 10

// serveConn answers one client connection; it reports whether the client
// sent a request.
func serveConn(ctx context.Context, conn net.Conn, me self, h Handler, peer peerCheck, readTimeout time.Duration, hangup error, readers *sync.Pool) bool {
	defer conn.Close()
	if !peer.afterHead {
		if mine, err := peer.isMe(conn); err != nil || !mine {
			return false // another user's process: not a word
		}
	}
	conn.SetReadDeadline(time.Now().Add(readTimeout))
	var rd io.Reader = conn
	if peer.afterHead {
		// The frame's header (8 bytes) only: nothing of the request is
		// decoded before the caller is known.
		var head [8]byte
		if _, err := io.ReadFull(conn, head[:]); err != nil {
			return false
		}
		if mine, err := peer.isMe(conn); err != nil || !mine {
			return false // another user's (or integrity level's) process: not a word
		}
		rd = io.MultiReader(bytes.NewReader(head[:]), conn)
	}
	br := readers.Get().(*bufio.Reader)
	br.Reset(rd)
	req, err := daemon.ReadRequest(br)
	br.Reset(nil)
	readers.Put(br)
	if err != nil {
		return false
	}
	conn.SetReadDeadline(time.Time{})
	var resp daemon.Response
	if resp.Refused = me.refusal(req); resp.Refused == "" {
		callCtx, done := watchClient(ctx, conn, hangup)
		resp = answer(callCtx, h, req)
		done()
	}
	daemon.WriteResponse(conn, &resp)
	return true
}

// answer is h's response to req; a panic blocks the call (exit 2) with
// the reason on stderr.
func answer(ctx context.Context, h Handler, req *daemon.Request) (resp daemon.Response) {
	defer func() {
		if r := recover(); r != nil {
			resp = daemon.Response{Code: 2, Stderr: fmt.Appendf(nil, "hookctl daemon: the call failed (%v); no hook could decide, so the action is blocked\n", r)}
		}
	}()
	return h.Answer(ctx, req)
}

// watchClient returns ctx ended with cause when the client closes or
// half-closes the connection while its call runs: the call's hooks are
// stopped, and its answer is still written for the client to read. done
// ends the watch; call it before writing the response. The watching read
// returns when the connection is closed, which the caller does once the
// response is written: it is not woken and waited for first (a deadline
// set, a goroutine switched to and back, on every call).
func watchClient(ctx context.Context, conn net.Conn, cause error) (_ context.Context, done func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	finished := make(chan struct{})
	go func() {
		var b [1]byte
		// The client sends nothing after its request: any return is
		// the client going away (or the connection closed after the
		// response).
		_, _ = conn.Read(b[:])
		select {
		case <-finished:
		default:
			cancel(cause)
		}
	}()
	return ctx, func() {
		close(finished)
		cancel(nil)
	}
}
