//go:build unix

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// pyCall is a raw client: it sends one framed request and prints what
// came back (nothing when the daemon closed the connection unanswered).
const pyCall = `
import socket, struct, sys
def field(b): return struct.pack(">I", len(b)) + b
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
body = struct.pack(">I", 1) + field(b"id") + struct.pack(">I", 1) + field(b"claude") + field(b"")
data = b""
try:
    s.sendall(b"HKC1" + struct.pack(">I", len(body)) + body)
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
except OSError:
    pass  # closed on us
sys.stdout.write("code %d" % struct.unpack(">i", data[8:12])[0] if data else "")
`

// TestDaemonRefusesOtherUsers: even when another user can reach the
// socket (here made world-writable on purpose), the daemon answers only
// processes of its own user.
func TestDaemonRefusesOtherUsers(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("running a client as another user needs root")
	}
	// A python3 another user can run (not one under root's home).
	python := ""
	for _, p := range []string{"/usr/bin/python3", "/usr/local/bin/python3"} {
		if _, err := os.Stat(p); err == nil {
			python = p
			break
		}
	}
	if python == "" {
		t.Skip("needs /usr/bin/python3")
	}
	// Reachable by another user: every parent must be enterable.
	dir, err := os.MkdirTemp("", "hookctl-daemon-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	sock := filepath.Join(dir, "d.sock")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runDaemon(ctx, sock, "id", time.Minute) }()
	defer func() {
		cancel()
		<-done
	}()
	for i := 0; ; i++ {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		if i > 200 {
			t.Fatal("the daemon did not listen")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // past its chmod
	if err := os.Chmod(sock, 0o666); err != nil {
		t.Fatal(err)
	}
	call := func(uid uint32) string {
		cmd := exec.Command(python, "-c", pyCall, sock)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("uid %d: %v\n%s", uid, err, out)
		}
		return string(out)
	}
	// Its own user gets the answer (empty input: exit 2, the block).
	if out := call(0); out != "code 2" {
		t.Fatalf("own user: %q", out)
	}
	if out := call(65534); out != "" {
		t.Fatalf("another user got an answer: %q", out)
	}
}
