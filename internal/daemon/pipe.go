package daemon

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// pipeRoot is where Windows keeps its named pipes.
const pipeRoot = `\\.\pipe\`

// PipeDir is, on Windows, what Dir is on Unix: the prefix of the named
// pipes of the daemons of the user whose SID is sid,
// \\.\pipe\hookctl-HASH, HASH being 16 hexadecimal digits of the SHA-256
// of the SID. A daemon's pipe is PipeDir, a dash and its key (Socket).
// Windows' pipe namespace is shared by every user: the name only keeps
// one user's daemons apart from another's, the pipe's security
// descriptor (PipeSecurity) and the checks at both ends (the server reads
// the caller's token, the client the pipe's owner) are what keep other
// users out.
func PipeDir(sid string) (string, error) {
	if !validSID(sid) {
		return "", fmt.Errorf("daemon: %q is not a SID", sid)
	}
	h := sha256.Sum256([]byte("hookctl-pipe\x00" + sid))
	return pipeRoot + "hookctl-" + hex.EncodeToString(h[:8]), nil
}

// IsPipe reports whether socket names a Windows named pipe (Socket's
// answer on Windows), which is no file to remove.
func IsPipe(socket string) bool {
	return len(socket) >= len(pipeRoot) && strings.EqualFold(socket[:len(pipeRoot)], pipeRoot)
}

// pipeName is the pipe of the daemon whose key is key among the pipes
// whose prefix is dir (PipeDir).
func pipeName(dir, key string) string { return dir + "-" + key }

// PipeSecurity is the security descriptor, in SDDL, a daemon's pipe is
// created with for the user whose SID is sid: owned by that user, with a
// protected DACL (nothing inherited) whose one entry gives that user all
// access. Nobody else may open it, and nobody else may create another
// instance of it (FILE_CREATE_PIPE_INSTANCE is an access right checked
// against this DACL).
func PipeSecurity(sid string) (string, error) {
	if !validSID(sid) {
		return "", fmt.Errorf("daemon: %q is not a SID", sid)
	}
	return "O:" + sid + "D:P(A;;GA;;;" + sid + ")", nil
}

// validSID reports whether s is a SID in its string form (S-1-5-21-...):
// nothing else may reach an SDDL string.
func validSID(s string) bool {
	rest, ok := strings.CutPrefix(s, "S-1-")
	if !ok || rest == "" {
		return false
	}
	for _, part := range strings.Split(rest, "-") {
		if part == "" || len(part) > 10 {
			return false
		}
		for _, c := range part {
			if c < '0' || c > '9' {
				return false
			}
		}
	}
	return true
}

// ErrNotMyPipe is the error of a call whose pipe belongs to another user:
// another user created the daemon's pipe name before the daemon did. The
// request (the hook input and the caller's environment) is never written
// to it; the client runs hookctl itself.
var ErrNotMyPipe = errors.New("daemon: the daemon's pipe is owned by another user")

// checkPipeOwner is the client's check of the pipe it connected to,
// before it writes its request: the pipe's owner, as owner reads it,
// must be the caller's own SID me. An owner that cannot be read is
// refused too.
func checkPipeOwner(owner func() (string, error), me string) error {
	got, err := owner()
	if err != nil {
		return fmt.Errorf("daemon: reading the pipe's owner: %w", err)
	}
	if me == "" || got != me {
		return fmt.Errorf("%w (%s)", ErrNotMyPipe, got)
	}
	return nil
}

// ErrNotMyDaemon is the error of a call whose pipe is served by a process
// of this user that does not run as the client does: at another
// integrity level or in a sandbox (a low-integrity or AppContainer
// process of the same user that took the daemon's name while none held
// it). The request is never written to it; the client runs hookctl
// itself.
var ErrNotMyDaemon = errors.New("daemon: the daemon's pipe is served by a process that does not run as this one")

// serverIdentity is who a pipe's server process runs as (on Windows, its
// token's user SID, integrity level and sandbox state).
type serverIdentity struct {
	SID       string
	Integrity uint32
	Sandboxed bool
}

// checkPipeServer is the client's check of the process serving the pipe
// it connected to, before it writes its request: it must run as the
// client does (server, as read, equal to me), as the daemon serves only
// clients that run as it does. One that cannot be read is refused.
func checkPipeServer(server func() (serverIdentity, error), me serverIdentity) error {
	got, err := server()
	if err != nil {
		return fmt.Errorf("%w: reading the server process's token: %v", ErrNotMyDaemon, err)
	}
	if me.SID == "" || got != me {
		return fmt.Errorf("%w (%s at integrity %#x, sandboxed %v)", ErrNotMyDaemon, got.SID, got.Integrity, got.Sandboxed)
	}
	return nil
}

// countPipes counts the names, as listed in \\.\pipe\ (without that
// prefix), that are pipes of the daemons under dir (PipeDir).
func countPipes(names []string, dir string) int {
	prefix := strings.TrimPrefix(dir, pipeRoot) + "-"
	n := 0
	for _, name := range names {
		if len(name) > len(prefix) && strings.EqualFold(name[:len(prefix)], prefix) {
			n++
		}
	}
	return n
}
