package daemonserver

import (
	"context"
	"errors"
	"net"
	"sync/atomic"
	"testing"

	"github.com/hookctl/hookctl/internal/daemon"
)

const (
	aliceSID = "S-1-5-21-3623811015-3361044348-30300820-1013"
	bobSID   = "S-1-5-21-3623811015-3361044348-30300820-1014"
	medium   = 0x2000
	high     = 0x3000
)

// fakeToken is a callerToken that reads id (or fails with err), and
// counts its calls.
func fakeToken(id tokenID, err error, calls *atomic.Int64) callerToken {
	return func(net.Conn) (tokenID, error) {
		if calls != nil {
			calls.Add(1)
		}
		return id, err
	}
}

// TestCallerIs: the Windows daemon's decision on a caller's token, with
// the token faked: its own user at its own integrity level is served;
// another user, the same user at another integrity level (elevated or
// not) or sandboxed (a restricted or AppContainer token), a token that
// cannot be read, and a daemon that does not know its own SID are not.
func TestCallerIs(t *testing.T) {
	me := tokenID{user: aliceSID, integrity: medium}
	a, _ := net.Pipe()
	defer a.Close()
	for _, tc := range []struct {
		name string
		me   tokenID
		read callerToken
		want bool
	}{
		{"same SID", me, fakeToken(me, nil, nil), true},
		{"other SID", me, fakeToken(tokenID{user: bobSID, integrity: medium}, nil, nil), false},
		{"SYSTEM", me, fakeToken(tokenID{user: "S-1-5-18", integrity: 0x4000}, nil, nil), false},
		{"elevated caller", me, fakeToken(tokenID{user: aliceSID, integrity: high}, nil, nil), false},
		{"low integrity caller", me, fakeToken(tokenID{user: aliceSID, integrity: 0x1000}, nil, nil), false},
		{"lookup error", me, fakeToken(me, errors.New("ERROR_CANNOT_IMPERSONATE"), nil), false},
		{"empty caller", me, fakeToken(tokenID{}, nil, nil), false},
		{"sandboxed caller", me, fakeToken(tokenID{user: aliceSID, integrity: medium, sandboxed: true}, nil, nil), false},
		{"own SID unknown", tokenID{}, fakeToken(tokenID{}, nil, nil), false},
	} {
		if ok, _ := callerIs(a, tc.me, tc.read); ok != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, ok, tc.want)
		}
	}
}

// withPeer replaces Serve's check of its callers.
func withPeer(p peerCheck) Option { return func(o *options) { o.peer = p } }

// TestServeChecksCallerToken: Serve as on Windows (the caller's token
// read after the frame's header), over in-memory connections with the
// token lookup faked: a call of the daemon's own SID is read whole and
// answered; one of another SID, or whose lookup fails, is closed without
// a word, and the handler never runs for it.
func TestServeChecksCallerToken(t *testing.T) {
	me := tokenID{user: aliceSID, integrity: medium}
	for _, tc := range []struct {
		name   string
		caller tokenID
		err    error
		served bool
	}{
		{"same SID", me, nil, true},
		{"other SID", tokenID{user: bobSID, integrity: medium}, nil, false},
		{"other integrity level", tokenID{user: aliceSID, integrity: high}, nil, false},
		{"sandboxed", tokenID{user: aliceSID, integrity: medium, sandboxed: true}, nil, false},
		{"lookup error", me, errors.New("OpenThreadToken: access denied"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln := &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
			var handled, looked atomic.Int64
			read := fakeToken(tc.caller, tc.err, &looked)
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() {
				done <- Serve(ctx, ln, HandlerFunc(func(context.Context, *daemon.Request) daemon.Response {
					handled.Add(1)
					return daemon.Response{Code: 2, Stderr: []byte("blocked")}
				}), WithIdentity("id"), withPeer(peerCheck{
					isMe:      func(c net.Conn) (bool, error) { return callerIs(c, me, read) },
					afterHead: true,
				}))
			}()
			client, server := net.Pipe()
			ln.conns <- server
			req := ownRequest(t)
			req.Stdin = []byte(`{"hook_event_name":"PreToolUse"}`)
			go daemon.WriteRequest(client, req)
			resp, err := daemon.ReadResponse(client)
			client.Close()
			cancel()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if looked.Load() != 1 {
				t.Fatalf("the caller's token was read %d times", looked.Load())
			}
			if tc.served {
				if err != nil || resp.Code != 2 || string(resp.Stderr) != "blocked" || handled.Load() != 1 {
					t.Fatalf("own caller: %+v %v (handled %d)", resp, err, handled.Load())
				}
				return
			}
			if err == nil {
				t.Fatalf("an unchecked caller got an answer: %+v", resp)
			}
			if handled.Load() != 0 {
				t.Fatal("the handler ran for a refused caller")
			}
		})
	}
}
