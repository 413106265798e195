package daemonserver

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/daemon"
)

func TestMain(m *testing.M) {
	if sock := os.Getenv(rawCallEnv); sock != "" {
		os.Exit(rawCall(sock))
	}
	os.Exit(m.Run())
}

// rawCallEnv, set to a daemon's socket, makes the test binary a raw
// daemon client: it sends one "claude" request with empty input, from the
// working directory in rawCallCwdEnv and with its environment less these
// variables (the test's own), and prints "code N", "refused: why", or
// nothing when the daemon closed the connection unanswered.
const (
	rawCallEnv    = "HOOKCTL_TEST_RAW_CALL"
	rawCallCwdEnv = "HOOKCTL_TEST_RAW_CWD"
	// rawCallSetupEnv names a change of the raw client's own process
	// attributes (rawCallSetup) before it calls.
	rawCallSetupEnv = "HOOKCTL_TEST_RAW_SETUP"
)

func rawCall(sock string) int {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, rawCallEnv+"=") && !strings.HasPrefix(kv, rawCallCwdEnv+"=") && !strings.HasPrefix(kv, rawCallSetupEnv+"=") {
			env = append(env, kv)
		}
	}
	rawCallSetup(os.Getenv(rawCallSetupEnv))
	resp, err := daemon.Call(sock, &daemon.Request{
		Protocol: daemon.Protocol, Identity: "id", Hook: daemon.Hook{Command: "claude"},
		Cwd: os.Getenv(rawCallCwdEnv), Env: env, Attrs: daemon.ProcessAttrs(),
	})
	switch {
	case err != nil:
		// Closed on us: not a word.
	case resp.Refused != "":
		fmt.Printf("refused: %s", resp.Refused)
	default:
		fmt.Printf("code %d", resp.Code)
	}
	return 0
}

// blocks answers every call as hookctl claude answers empty input: exit
// status 2.
var blocks = HandlerFunc(func(context.Context, *daemon.Request) daemon.Response {
	return daemon.Response{Code: 2}
})

// shortSocket is a socket path short enough for sun_path; on Windows a
// named pipe of this user's daemons (testPipe).
func shortSocket(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		return testPipe(t)
	}
	dir, err := os.MkdirTemp("", "hkd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "d.sock")
}

// serve runs Serve on a new socket until the test ends; the channel
// gets Serve's result.
func serve(t *testing.T, h Handler, opts ...Option) (string, <-chan error) {
	t.Helper()
	sock := shortSocket(t)
	ln, err := Listen(t.Context(), sock)
	if err != nil || ln == nil {
		t.Fatalf("Listen: %v %v", ln, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done, fin := make(chan error, 1), make(chan struct{})
	go func() {
		done <- Serve(ctx, ln, h, append([]Option{WithIdentity("id")}, opts...)...)
		close(fin)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-fin:
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return after its context ended")
		}
	})
	return sock, done
}

// ownRequest is a call the daemon (this process) serves.
func ownRequest(t *testing.T) *daemon.Request {
	t.Helper()
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return &daemon.Request{Protocol: daemon.Protocol, Identity: "id", Hook: daemon.Hook{Command: "claude"},
		Cwd: cwd, Env: os.Environ(), Attrs: daemon.ProcessAttrs()}
}

// TestRefusals: a call from another build, for another command, or with
// another working directory, environment or process attributes is
// refused with its reason, and never reaches the handler.
func TestRefusals(t *testing.T) {
	var calls atomic.Int64
	sock, _ := serve(t, HandlerFunc(func(context.Context, *daemon.Request) daemon.Response {
		calls.Add(1)
		return daemon.Response{Code: 0, Stdout: []byte("ran")}
	}))
	for _, c := range []struct {
		name   string
		change func(*daemon.Request)
		want   string
	}{
		{"protocol", func(r *daemon.Request) { r.Protocol-- }, "the client and the daemon are different hookctl builds"},
		{"identity", func(r *daemon.Request) { r.Identity = "other" }, "the client and the daemon are different hookctl builds"},
		{"command", func(r *daemon.Request) { r.Command = "fire" }, "the daemon runs hook calls only (claude, hook)"},
		{"cwd", func(r *daemon.Request) { r.Cwd = "/" }, "the call comes from another working directory than the daemon's"},
		{"env", func(r *daemon.Request) { r.Env = append(r.Env, "DEPLOY_ENV=prod") }, "the call has another environment than the daemon's"},
		{"env value", func(r *daemon.Request) { r.Env[len(r.Env)/2] += "x" }, "the call has another environment than the daemon's"},
		{"env swapped", func(r *daemon.Request) { r.Env[0] = "DEPLOY_ENV=prod" }, "the call has another environment than the daemon's"},
		{"attrs", func(r *daemon.Request) { r.Attrs += " more" }, "the call has another umask or other resource limits than the daemon's"},
	} {
		req := ownRequest(t)
		c.change(req)
		resp, err := daemon.Call(sock, req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if resp.Refused != c.want || resp.Code != 0 || len(resp.Stdout) != 0 {
			t.Errorf("%s: %+v, want refused %q", c.name, resp, c.want)
		}
	}
	if n := calls.Load(); n != 0 {
		t.Fatalf("the handler ran %d refused calls", n)
	}
	// The same environment in another order is the same environment.
	req := ownRequest(t)
	for i, j := 0, len(req.Env)-1; i < j; i, j = i+1, j-1 {
		req.Env[i], req.Env[j] = req.Env[j], req.Env[i]
	}
	req.Command = "hook"
	resp, err := daemon.Call(sock, req)
	if err != nil || resp.Refused != "" || string(resp.Stdout) != "ran" {
		t.Fatalf("own call: %+v %v", resp, err)
	}
}

// TestPanicBlocks: a handler that panics blocks its call (exit status 2,
// the reason on stderr) and the daemon answers the next.
func TestPanicBlocks(t *testing.T) {
	var n atomic.Int64
	sock, _ := serve(t, HandlerFunc(func(context.Context, *daemon.Request) daemon.Response {
		if n.Add(1) == 1 {
			panic("boom")
		}
		return daemon.Response{Stdout: []byte("ok")}
	}))
	resp, err := daemon.Call(sock, ownRequest(t))
	if err != nil {
		t.Fatal(err)
	}
	want := "hookctl daemon: the call failed (boom); no hook could decide, so the action is blocked\n"
	if resp.Code != 2 || string(resp.Stderr) != want || len(resp.Stdout) != 0 {
		t.Fatalf("after a panic: %+v", resp)
	}
	resp, err = daemon.Call(sock, ownRequest(t))
	if err != nil || resp.Code != 0 || string(resp.Stdout) != "ok" {
		t.Fatalf("the call after the panic: %+v %v", resp, err)
	}
}

// TestIdleExit: Serve returns once no call came for the idle time, and
// connections that send no request (a client counting live daemons) do
// not keep it: probed without pause, it still exits.
func TestIdleExit(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("probes a unix socket; TestPipeIdleExit is Windows'")
	}
	sock, done := serve(t, blocks, WithIdle(300*time.Millisecond))
	// A call first: it is answered.
	if resp, err := daemon.Call(sock, ownRequest(t)); err != nil || resp.Code != 2 {
		t.Fatalf("%+v %v", resp, err)
	}
	deadline := time.After(15 * time.Second)
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(sock); err == nil {
				// The listener closed: nobody answers there any more.
				if c, err := net.Dial("unix", sock); err == nil {
					c.Close()
					t.Fatal("the socket still answers after Serve returned")
				}
			}
			return
		case <-deadline:
			t.Fatal("probes that send nothing kept the daemon alive")
		default:
		}
		if c, err := net.Dial("unix", sock); err == nil {
			c.Close()
		}
		time.Sleep(time.Millisecond)
	}
}

// TestListenOnce: a second Listen on a socket a daemon serves leaves it
// alone (nil, nil); a socket left by a dead daemon is replaced; the
// socket is private to its user.
func TestListenOnce(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a unix socket's file; TestPipeListenOnce is Windows'")
	}
	sock := shortSocket(t)
	ln, err := Listen(t.Context(), sock)
	if err != nil || ln == nil {
		t.Fatalf("%v %v", ln, err)
	}
	if fi, err := os.Stat(sock); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode: %v %v", fi, err)
	}
	if again, err := Listen(t.Context(), sock); again != nil || err != nil {
		t.Fatalf("a second daemon listened: %v %v", again, err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close() // a dead daemon's socket file stays
	ln, err = Listen(t.Context(), sock)
	if err != nil || ln == nil {
		t.Fatalf("over a stale socket: %v %v", ln, err)
	}
	ln.Close()
}

// TestServeNeedsIdentity: without an identity there is nothing to check
// clients against.
func TestServeNeedsIdentity(t *testing.T) {
	ln, err := Listen(t.Context(), shortSocket(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := Serve(t.Context(), ln, blocks); err != ErrNoIdentity {
		t.Fatalf("Serve = %v", err)
	}
}

// TestConnectionsReuseAGoroutine: one client's calls, one after the
// other, are served on one goroutine (whose stack has grown already),
// not on a fresh one each.
func TestConnectionsReuseAGoroutine(t *testing.T) {
	parked := make(chan struct{}, 1)
	var mu sync.Mutex
	var ids []string
	h := HandlerFunc(func(context.Context, *daemon.Request) daemon.Response {
		buf := make([]byte, 64)
		buf = buf[:runtime.Stack(buf, false)]
		id, _, _ := strings.Cut(strings.TrimPrefix(string(buf), "goroutine "), " ")
		mu.Lock()
		ids = append(ids, id)
		mu.Unlock()
		return daemon.Response{Code: 2}
	})
	sock, _ := serve(t, h, func(o *options) { o.parked = func() { parked <- struct{}{} } })
	for i := range 3 {
		resp, err := daemon.Call(sock, ownRequest(t))
		if err != nil || resp.Code != 2 {
			t.Fatalf("call %d: %v %+v", i, err, resp)
		}
		select { // the connection's goroutine waits for the next one
		case <-parked:
		case <-time.After(10 * time.Second):
			t.Fatalf("call %d: its goroutine did not wait for the next connection", i)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(ids) != 3 || ids[0] != ids[1] || ids[1] != ids[2] {
		t.Fatalf("the calls ran on goroutines %v, want one", ids)
	}
}

// countingConn counts the reads of a connection that deliver bytes.
type countingConn struct {
	net.Conn
	reads *atomic.Int64
}

func (c countingConn) Read(b []byte) (int, error) {
	// Counted when it delivers bytes: the server's watch for the client
	// going away (watchClient) blocks in a read of its own while the
	// call runs, which delivers nothing.
	n, err := c.Conn.Read(b)
	if n > 0 {
		c.reads.Add(1)
	}
	return n, err
}

// TestRequestInOneRead: a request the client writes at once (a host's
// payload and the client's environment) is read from the connection in
// one read, its header and body together, not one read each.
func TestRequestInOneRead(t *testing.T) {
	var reads atomic.Int64
	readsAtCall := make(chan int64, 1)
	ln := &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, ln, HandlerFunc(func(context.Context, *daemon.Request) daemon.Response {
			readsAtCall <- reads.Load()
			return daemon.Response{Code: 2}
		}), WithIdentity("id"), withPeer(peerCheck{isMe: func(net.Conn) (bool, error) { return true, nil }}))
	}()
	client, server := net.Pipe()
	ln.conns <- countingConn{server, &reads}
	req := ownRequest(t)
	req.Stdin = []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`)
	go daemon.WriteRequest(client, req)
	resp, err := daemon.ReadResponse(client)
	client.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err != nil || resp.Code != 2 {
		t.Fatalf("%+v %v", resp, err)
	}
	if n := <-readsAtCall; n != 1 {
		t.Fatalf("the request took %d reads of the connection, want 1", n)
	}
}

// TestRequestBuffersShareNothing: the buffers requests are read through
// are shared between connections; a connection that sends a request
// followed by bytes of another, or a frame cut short, leaves nothing in
// them that the next connection's request is read with: each is answered
// from its own input, as over the connection alone.
func TestRequestBuffersShareNothing(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("raw frames over a unix socket; the pipe path reads through the same buffers")
	}
	h := HandlerFunc(func(_ context.Context, req *daemon.Request) daemon.Response {
		return daemon.Response{Code: 2, Stdout: req.Stdin}
	})
	sock, _ := serve(t, h, func(o *options) { o.peer = peerCheck{isMe: func(net.Conn) (bool, error) { return true, nil }} })
	send := func(frame []byte) []byte {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := c.Write(frame); err != nil {
			t.Fatal(err)
		}
		c.(*net.UnixConn).CloseWrite()
		resp, err := daemon.ReadResponse(c)
		if err != nil {
			return nil
		}
		return resp.Stdout
	}
	frame := func(input string) []byte {
		var b bytes.Buffer
		req := ownRequest(t)
		req.Stdin = []byte(input)
		daemon.WriteRequest(&b, req)
		return b.Bytes()
	}
	hostile := frame(`{"first":1}`)
	hostile = append(hostile, frame(`{"smuggled":1}`)...)
	cut := frame(`{"cut":1}`)
	for i, tc := range []struct {
		frame []byte
		want  string
	}{
		{hostile, `{"first":1}`},
		{frame(`{"second":2}`), `{"second":2}`},
		{cut[:len(cut)-5], ""},
		{frame(`{"third":3}`), `{"third":3}`},
	} {
		if got := string(send(tc.frame)); got != tc.want {
			t.Fatalf("connection %d answered from %q, want %q", i, got, tc.want)
		}
	}
}
