// Package daemon is what the hookctl client and the hookctl daemon share:
// the socket a client uses, the identity that ties a daemon to the binary
// it runs, and the request and response on the wire. It uses the standard
// library only, so that the client stays small and starts fast.
package daemon

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Protocol is the wire protocol's version.
const Protocol = 1

// MaxMessage bounds a request or a response (hook input is at most 64
// MiB; the rest is small).
const MaxMessage = 80 << 20

// Request is one hook call: the arguments the client was given and its
// standard input. Identity is the client's idea of the daemon's binary;
// a daemon that is another refuses the call.
type Request struct {
	Protocol int      `json:"protocol"`
	Identity string   `json:"identity"`
	Args     []string `json:"args"`
	Stdin    []byte   `json:"stdin"`
}

// Response is what the call printed and its exit status. Refused is set
// (and nothing else) when the daemon would not run the call.
type Response struct {
	Stdout  []byte `json:"stdout,omitempty"`
	Stderr  []byte `json:"stderr,omitempty"`
	Code    int    `json:"code"`
	Refused string `json:"refused,omitempty"`
}

// Identity names a hookctl binary as built: its path, size and
// modification time. A rebuilt or upgraded binary is another identity,
// so its clients reach a daemon that runs it.
func Identity(binary string) (string, error) {
	fi, err := os.Stat(binary)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s|%d|%d", binary, fi.Size(), fi.ModTime().UnixNano()), nil
}

// EnvKey lists the environment variables whose values choose a daemon:
// the daemon runs with the environment of the client that started it, so
// clients that differ in these get different daemons.
func EnvKey(environ []string) []string {
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "HOOKCTL_"), strings.HasPrefix(name, "CLAUDE_"),
			strings.HasPrefix(name, "CRUSH"), strings.HasPrefix(name, "GEMINI_"),
			strings.HasPrefix(name, "CODEX_"), strings.HasPrefix(name, "CURSOR_"),
			strings.HasPrefix(name, "COPILOT_"), name == "AGENT", name == "PATH", name == "HOME",
			name == "XDG_CONFIG_HOME", name == "XDG_STATE_HOME", name == "XDG_RUNTIME_DIR", name == "TMPDIR":
			if name != "HOOKCTL_DEBUG_CLIENT" {
				out = append(out, kv)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Dir is the per-user directory of the daemons' sockets:
// $XDG_RUNTIME_DIR/hookctl, else $TMPDIR/hookctl-UID. It is created
// 0700; one that another user owns or others can enter is refused.
func Dir() (string, error) {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("hookctl-%d", os.Getuid()))
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" {
		dir = filepath.Join(rt, "hookctl")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() || fi.Mode().Perm()&0o077 != 0 || !ownedByMe(fi) {
		return "", fmt.Errorf("%s: not a private directory of this user", dir)
	}
	return dir, nil
}

// Socket is the socket of the daemon for a binary identity, working
// directory and environment.
func Socket(dir, identity, cwd string, env []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%s\x00%s\x00%d\x00", Protocol, identity, cwd, os.Getuid())
	for _, kv := range env {
		h.Write([]byte(kv))
		h.Write([]byte{0})
	}
	return filepath.Join(dir, hex.EncodeToString(h.Sum(nil))[:24]+".sock")
}

// Write sends one message: a 4-byte length, then JSON.
func Write(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if len(b) > MaxMessage {
		return errors.New("daemon: message too large")
	}
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(b)))
	if _, err := w.Write(n[:]); err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Read receives one message.
func Read(r io.Reader, v any) error {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return err
	}
	size := binary.BigEndian.Uint32(n[:])
	if size > MaxMessage {
		return errors.New("daemon: message too large")
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(r, b); err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// Call sends req to the daemon at socket and returns its response. The
// whole exchange ends by deadline.
func Call(socket string, req *Request, deadline time.Time) (*Response, error) {
	conn, err := net.DialTimeout("unix", socket, 500*time.Millisecond)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if !deadline.IsZero() {
		conn.SetDeadline(deadline)
	}
	if err := Write(conn, req); err != nil {
		return nil, err
	}
	var resp Response
	if err := Read(conn, &resp); err != nil {
		return nil, err
	}
	return &resp, nil
}
