//go:build linux || darwin

package daemonserver

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/hookctl/hookctl/internal/daemon"
)

// TestUnknownPeerGetsNoWord: a connection whose peer's user cannot be
// read (SO_PEERCRED, LOCAL_PEERCRED) is closed unanswered, before its request is read.
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

// unixPair is the two ends of a real unix socket connection.
func unixPair(t *testing.T) (client, server net.Conn) {
	t.Helper()
	ln, err := net.Listen("unix", filepath.Join(t.TempDir(), "s"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		got <- c
	}()
	client, err = net.Dial("unix", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server = <-got
	if server == nil {
		t.Fatal("no connection accepted")
	}
	t.Cleanup(func() { client.Close(); server.Close() })
	return client, server
}

// TestPeerIs: the check around the system's credential call, with the
// call faked: the same user passes; another user, a negative id, an
// error and a connection that is no unix socket do not.
func TestPeerIs(t *testing.T) {
	_, server := unixPair(t)
	fake := func(uid int, err error) peerUID {
		return func(fd int) (int, error) {
			if fd < 0 {
				t.Errorf("descriptor %d", fd)
			}
			return uid, err
		}
	}
	for _, tc := range []struct {
		name  string
		creds peerUID
		want  bool
	}{
		{"same user", fake(501, nil), true},
		{"another user", fake(502, nil), false},
		{"root", fake(0, nil), false},
		{"no id", fake(-1, nil), false},
		{"unreadable", fake(501, errors.New("EINVAL")), false},
	} {
		if ok, _ := peerIs(server, 501, tc.creds); ok != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, ok, tc.want)
		}
	}
	a, _ := net.Pipe()
	defer a.Close()
	if ok, err := peerIs(a, 501, fake(501, nil)); ok || !errors.Is(err, errNotUnix) {
		t.Errorf("a pipe's peer: %v %v", ok, err)
	}
}

// TestPeerIsMeOnARealSocket: this system's credential call names this
// process's own user at the other end of a real connection.
func TestPeerIsMeOnARealSocket(t *testing.T) {
	_, server := unixPair(t)
	if ok, err := peerIsMe(server); !ok || err != nil {
		t.Fatalf("own process: %v %v", ok, err)
	}
	if ok, err := mePeer()(server); !ok || err != nil {
		t.Fatalf("own process, the user read once: %v %v", ok, err)
	}
	if ok, _ := peerIs(server, os.Getuid()+1, peerCredOf(t)); ok {
		t.Fatal("another uid matched this process")
	}
}

// TestXucredUID: LOCAL_PEERCRED's structure gives its user id only in
// the version this code reads.
func TestXucredUID(t *testing.T) {
	if uid, err := xucredUID(0, 501); err != nil || uid != 501 {
		t.Fatalf("version 0: %d %v", uid, err)
	}
	if uid, err := xucredUID(0, 0); err != nil || uid != 0 {
		t.Fatalf("root: %d %v", uid, err)
	}
	if _, err := xucredUID(1, 501); err == nil {
		t.Fatal("a structure of another version was read")
	}
}
