//go:build windows

package daemonserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"github.com/hookctl/hookctl/internal/daemon"
)

// testPipe is a new pipe name among this user's daemons' pipes.
func testPipe(t *testing.T) string {
	t.Helper()
	sid, err := daemon.MySID()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := daemon.PipeDir(sid)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%s-test%d-%d", dir, os.Getpid(), time.Now().UnixNano())
}

// TestPipeRealCall: a real daemon on a real named pipe answers a real
// call of this process, and of another process of this user (the test
// binary as a raw client), through the caller-token check.
func TestPipeRealCall(t *testing.T) {
	pipe, _ := serve(t, blocks)
	resp, err := daemon.Call(pipe, ownRequest(t))
	if err != nil || resp.Code != 2 || resp.Refused != "" {
		t.Fatalf("own call: %+v %v", resp, err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cwd, _ := os.Getwd()
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), rawCallEnv+"="+pipe, rawCallCwdEnv+"="+cwd)
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != "code 2" {
		t.Fatalf("another process of this user: %q %v", out, err)
	}
}

// TestPipeSecurityReal: the pipe a daemon creates is owned by its user
// and has a protected DACL with one entry, for that user.
func TestPipeSecurityReal(t *testing.T) {
	pipe, _ := serve(t, blocks)
	sd, err := windows.GetNamedSecurityInfo(pipe, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		t.Fatal(err)
	}
	sid, _ := daemon.MySID()
	owner, _, err := sd.Owner()
	if err != nil || owner == nil || owner.String() != sid {
		t.Fatalf("owner %v %v, want %s", owner, err, sid)
	}
	ctl, _, err := sd.Control()
	if err != nil || ctl&windows.SE_DACL_PROTECTED == 0 {
		t.Fatalf("DACL not protected: %v %v", ctl, err)
	}
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil || dacl.AceCount != 1 {
		t.Fatalf("DACL: %v %v", dacl, err)
	}
}

// TestPipeRealTokenIsMe: on a real connection the caller's token read
// by impersonation is this process's user at its integrity level.
func TestPipeRealTokenIsMe(t *testing.T) {
	got := make(chan error, 1)
	ln, err := Listen(t.Context(), testPipe(t))
	if err != nil || ln == nil {
		t.Fatalf("Listen: %v %v", ln, err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- err
			return
		}
		defer c.Close()
		var head [8]byte
		if _, err := c.Read(head[:]); err != nil {
			got <- err
			return
		}
		ok, err := peerIsMe(c)
		if err == nil && !ok {
			err = errors.New("this process's own call is not its user's")
		}
		got <- err
	}()
	go daemon.Call(ln.Addr().String(), ownRequest(t))
	if err := <-got; err != nil {
		t.Fatal(err)
	}
}

// TestPipeCheckRefuses: a daemon whose check says the caller's SID is
// another (the daemon's own SID faked) closes the connection without a
// word, and the handler never runs.
func TestPipeCheckRefuses(t *testing.T) {
	var handled atomic.Int64
	other := tokenID{user: "S-1-5-21-1-2-3-1001", integrity: 0x2000}
	pipe, _ := serve(t, HandlerFunc(func(context.Context, *daemon.Request) daemon.Response {
		handled.Add(1)
		return daemon.Response{}
	}), withPeer(peerCheck{isMe: func(c net.Conn) (bool, error) { return callerIs(c, other, pipeClientToken) }, afterHead: true}))
	if resp, err := daemon.Call(pipe, ownRequest(t)); err == nil {
		t.Fatalf("a caller of another SID got an answer: %+v", resp)
	}
	if handled.Load() != 0 {
		t.Fatal("the handler ran for a refused caller")
	}
}

// TestPipeGiveUp: a client that gives up (CallContext's context ends:
// CloseWrite, a zero-byte message) has its call's context cancelled with
// the hangup cause, and still reads the answer.
func TestPipeGiveUp(t *testing.T) {
	started := make(chan struct{})
	pipe, _ := serve(t, HandlerFunc(func(ctx context.Context, _ *daemon.Request) daemon.Response {
		close(started)
		<-ctx.Done()
		if !errors.Is(context.Cause(ctx), ErrClientGone) {
			return daemon.Response{Code: 1, Stderr: []byte(fmt.Sprint(context.Cause(ctx)))}
		}
		return daemon.Response{Code: 2, Stderr: []byte("given up")}
	}))
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-started
		cancel()
	}()
	resp, err := daemon.CallContext(ctx, pipe, ownRequest(t))
	if err != nil || resp.Code != 2 || string(resp.Stderr) != "given up" {
		t.Fatalf("given up: %+v %v", resp, err)
	}
}

// TestPipeListenOnce: a second Listen on a pipe a daemon of this user
// serves leaves it alone (nil, nil); a name outside this user's prefix is
// refused.
func TestPipeListenOnce(t *testing.T) {
	pipe := testPipe(t)
	ln, err := Listen(t.Context(), pipe)
	if err != nil || ln == nil {
		t.Fatalf("%v %v", ln, err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	if again, err := Listen(t.Context(), pipe); again != nil || err != nil {
		t.Fatalf("a second daemon listened: %v %v", again, err)
	}
	if ln2, err := Listen(t.Context(), `\\.\pipe\hookctl-not-mine`); err == nil {
		ln2.Close()
		t.Fatal("a pipe outside this user's prefix was listened on")
	}
}

// TestPipeIdleExit: Serve returns once no call came for the idle time.
func TestPipeIdleExit(t *testing.T) {
	pipe, done := serve(t, blocks, WithIdle(300*time.Millisecond))
	if resp, err := daemon.Call(pipe, ownRequest(t)); err != nil || resp.Code != 2 {
		t.Fatalf("%+v %v", resp, err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the daemon did not exit when idle")
	}
}

// TestPipeLive: a daemon's pipe is counted among this user's live
// daemons while it serves.
func TestPipeLive(t *testing.T) {
	dir, err := daemon.Dir()
	if err != nil {
		t.Fatal(err)
	}
	pipe, _ := serve(t, blocks)
	if n := daemon.Live(dir); n < 1 {
		t.Fatalf("live daemons: %d while %s serves", n, pipe)
	}
}
