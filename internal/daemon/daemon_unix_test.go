//go:build unix

package daemon

import (
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestOwnedByMe: a directory of this user is its own; one chowned to
// another user is not, and Dir refuses it.
func TestOwnedByMe(t *testing.T) {
	rt := t.TempDir()
	// Where Dir looks on this system (Linux: XDG_RUNTIME_DIR; macOS:
	// TMPDIR).
	t.Setenv("XDG_RUNTIME_DIR", rt)
	t.Setenv("TMPDIR", rt)
	dir, err := socketDir(runtime.GOOS, os.TempDir(), os.Getenv, os.Getuid())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(dir)
	if err != nil || !ownedByMe(fi) {
		t.Fatalf("own directory: %v", err)
	}
	if got, err := Dir(); err != nil || got != dir {
		t.Fatalf("Dir = %q, %v; want %q", got, err, dir)
	}
	if os.Getuid() != 0 {
		t.Skip("giving a directory to another user needs root")
	}
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(dir); ownedByMe(fi) {
		t.Fatal("another user's directory is mine")
	}
	if _, err := Dir(); err == nil {
		t.Fatal("Dir accepted another user's directory")
	}
}

// TestLiveAndCall: Live counts the sockets a daemon listens on, not the
// files a dead one left; Call reaches a listener and fails on a stale
// socket.
func TestLiveAndCall(t *testing.T) {
	// A directory whose name would be a pattern ($TMPDIR may hold [):
	// Live counts its own sockets, not those of a directory it matches.
	base := t.TempDir()
	dir := filepath.Join(base, "rt[1]")
	for _, d := range []string{dir, filepath.Join(base, "rt1")} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"c.sock", "d.sock"} {
		other, err := net.Listen("unix", filepath.Join(base, "rt1", name))
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
	}
	ln, err := net.Listen("unix", filepath.Join(dir, "a.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	stale, err := net.Listen("unix", filepath.Join(dir, "b.sock"))
	if err != nil {
		t.Fatal(err)
	}
	stale.(*net.UnixListener).SetUnlinkOnClose(false)
	stale.Close()
	if n := Live(dir); n != 1 {
		t.Fatalf("Live = %d, want 1", n)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			// Live's probe sends nothing; the call sends a request.
			if req, err := ReadRequest(c); err == nil {
				WriteResponse(c, &Response{Code: 7, Stdout: []byte(req.Cwd)})
			}
			c.Close()
		}
	}()
	resp, err := Call(filepath.Join(dir, "a.sock"), &Request{Protocol: Protocol, Cwd: "/here"})
	if err != nil || resp.Code != 7 || string(resp.Stdout) != "/here" {
		t.Fatalf("%+v %v", resp, err)
	}
	if _, err := Call(filepath.Join(dir, "b.sock"), &Request{}); err == nil {
		t.Fatal("a stale socket answered")
	}
}

// TestClientProcessAttrs: the client's attributes, read with the umask
// system call, are what the daemon reads from /proc for the same process
// (a call whose attributes differ is refused), under each umask, and the
// umask is left as it was.
func TestClientProcessAttrs(t *testing.T) {
	old := unix.Umask(0o022)
	defer unix.Umask(old)
	for _, m := range []int{0o022, 0o077, 0o002, 0o027, 0} {
		unix.Umask(m)
		if got, want := ClientProcessAttrs(), ProcessAttrs(); got != want {
			t.Errorf("umask %03o: client %q, daemon %q", m, got, want)
		}
		if now := unix.Umask(m); now != m {
			t.Errorf("umask %03o left as %03o", m, now)
		}
	}
}

// BenchmarkProcessAttrs: reading the umask from /proc/self/status (the
// daemon, once) against the umask system call (the client, per call).
func BenchmarkProcessAttrs(b *testing.B) {
	b.Run("proc", func(b *testing.B) {
		for b.Loop() {
			ProcessAttrs()
		}
	})
	b.Run("client", func(b *testing.B) {
		for b.Loop() {
			ClientProcessAttrs()
		}
	})
}

// TestSocketPathLimit: on this system a unix socket listens at a path of
// maxSocketPath bytes and not at one byte more: the limit socketDir
// counts with is the system's.
func TestSocketPathLimit(t *testing.T) {
	limit := maxSocketPath(runtime.GOOS)
	base := t.TempDir()
	// A directory that leaves room for a name of 10 bytes or more.
	dir := base
	for len(dir)+1+10 < limit-60 {
		dir = filepath.Join(dir, strings.Repeat("d", min(50, limit-60-len(dir)-1)))
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	name := func(n int) string { return filepath.Join(dir, strings.Repeat("s", n-len(dir)-1)) }
	if len(name(limit)) != limit {
		t.Fatalf("path of %d bytes, want %d", len(name(limit)), limit)
	}
	ln, err := net.Listen("unix", name(limit))
	if err != nil {
		t.Fatalf("a socket of %d bytes: %v", limit, err)
	}
	ln.Close()
	if ln, err := net.Listen("unix", name(limit+1)); err == nil {
		ln.Close()
		t.Fatalf("a socket of %d bytes listened: the limit is not %d", limit+1, limit)
	}
}
