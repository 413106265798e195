//go:build unix

package daemonserver

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRefusesOtherUsers: even when another user can reach the
// socket (here made world-writable on purpose), the daemon answers only
// processes of its own user.
func TestRefusesOtherUsers(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("running a client as another user needs root")
	}
	// The test binary itself is the raw client (TestMain, rawCallEnv),
	// copied where another user can run it.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// Reachable by another user: every parent must be enterable.
	dir, err := os.MkdirTemp("", "hookctl-daemon-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	sock := filepath.Join(dir, "d.sock")
	ln, err := Listen(t.Context(), sock)
	if err != nil || ln == nil {
		t.Fatalf("Listen: %v %v", ln, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, blocks, WithIdentity("id"), WithIdle(time.Minute)) }()
	defer func() {
		cancel()
		<-done
	}()
	client := filepath.Join(dir, "rawcall")
	copyFile(t, self, client, 0o755)
	if err := os.Chmod(sock, 0o666); err != nil {
		t.Fatal(err)
	}
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	call := func(uid uint32, extra ...string) string {
		cmd := exec.Command(client)
		cmd.Dir = dir
		cmd.Env = append(append(os.Environ(), extra...), rawCallEnv+"="+sock)
		if !slices.ContainsFunc(extra, func(kv string) bool { return strings.HasPrefix(kv, rawCallCwdEnv+"=") }) {
			cmd.Env = append(cmd.Env, rawCallCwdEnv+"="+cwd)
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("uid %d: %v\n%s", uid, err, out)
		}
		return string(out)
	}
	// Its own user gets the answer (the handler's: exit 2).
	if out := call(0); out != "code 2" {
		t.Fatalf("own user: %q", out)
	}
	if out := call(65534); out != "" {
		t.Fatalf("another user got an answer: %q", out)
	}
	// Its own user with another environment or working directory is
	// refused: the call's hooks would see the daemon's.
	if out := call(0, "DEPLOY_ENV=prod"); out != "refused: the call has another environment than the daemon's" {
		t.Fatalf("another environment: %q", out)
	}
	if out := call(0, rawCallCwdEnv+"=/"); !strings.HasPrefix(out, "refused: the call comes from another working directory") {
		t.Fatalf("another working directory: %q", out)
	}
	// Another umask or resource limit likewise.
	for _, setup := range []string{"umask", "core"} {
		if out := call(0, rawCallSetupEnv+"="+setup); out != "refused: the call has another umask or other resource limits than the daemon's" {
			t.Fatalf("another %s: %q", setup, out)
		}
	}
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, mode); err != nil {
		t.Fatal(err)
	}
}

// rawCallSetup changes the raw client's umask ("umask") or its core size
// limit ("core") before it calls.
func rawCallSetup(what string) {
	switch what {
	case "umask":
		syscall.Umask(0o77)
	case "core":
		var r syscall.Rlimit
		if syscall.Getrlimit(syscall.RLIMIT_CORE, &r) == nil {
			r.Cur = min(r.Max, 1-min(r.Cur, 1)) // 0, or 1 where it was 0
			syscall.Setrlimit(syscall.RLIMIT_CORE, &r)
		}
	}
}
