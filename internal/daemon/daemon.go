// Package daemon is what the hookctl client and the hookctl daemon share:
// the socket a client uses, the identity that ties a daemon to the binary
// it runs, and the request and response on the wire. It imports neither
// net nor encoding/json (their package initialisation alone costs the
// client a millisecond or more per process): the wire format is a few
// length-prefixed fields, and the client dials with raw system calls. On
// Windows the client dials a named pipe with go-winio (call_windows.go),
// which links package net: a cost there, not on Unix.
package daemon

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
)

// Protocol is the wire protocol's version. Version 2 added the client's
// working directory and environment to the request, version 3 its umask
// and resource limits (Attrs), version 4 made the request typed (the
// command, host, event, configuration and modes instead of argv), version
// 5 added --verbose; 6 --host-timeout.
const Protocol = 6

// MaxMessage bounds a request or a response (hook input is at most 64
// MiB; the rest is small).
const MaxMessage = 80 << 20

// Request is one hook call: what the client's arguments say (ParseArgs)
// and its standard input. Identity is the client's idea of the daemon's
// binary; a daemon that is another refuses the call. Cwd and Env are the
// client's working directory and whole environment ("KEY=value", as
// os.Environ gives it): a daemon runs a call only when they are its own,
// so that the call's hooks see exactly what hookctl claude run by the
// client would. Attrs, the client's ProcessAttrs (umask and resource
// limits), likewise.
type Request struct {
	Protocol int
	Identity string
	Hook
	// Stdin is the call's standard input. A client may give it in parts
	// instead (StdinParts, when set, is what is sent: written one after
	// the other, never joined into one buffer); a request read has it
	// whole in Stdin.
	Stdin      []byte
	StdinParts [][]byte
	Cwd        string
	Env        []string
	Attrs      string
}

// StdinLen is the length of the request's standard input.
func (r *Request) StdinLen() int {
	if r.StdinParts == nil {
		return len(r.Stdin)
	}
	n := 0
	for _, p := range r.StdinParts {
		n += len(p)
	}
	return n
}

// bigInput is the input past which a request is written in three parts
// (its fields, the input, the rest) rather than copied into one buffer.
const bigInput = 256 << 10

// Hook is what a hook command's arguments say: the command (claude or
// hook) and its flags. A mode left empty was not given: the daemon takes
// it from the call's environment, else its default, as hookctl does.
type Hook struct {
	Command  string // claude or hook
	Host     string // --host (hook only)
	Event    string // --event (hook only)
	Config   string // --config, -c
	LogLevel string // --log-level
	// AllowUntrusted is --allow-untrusted.
	AllowUntrusted bool
	OnUntrusted    string // --on-untrusted
	OnConfigError  string // --on-config-error
	OnAsk          string // --on-ask
	// Verbose is --verbose.
	Verbose     bool
	HostTimeout string // --host-timeout
}

// Response is what the call printed and its exit status. Refused is set
// (and nothing else) when the daemon would not run the call.
type Response struct {
	Stdout  []byte
	Stderr  []byte
	Code    int
	Refused string
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

// EnvKey is the environment that chooses a daemon: the whole of environ,
// sorted. A daemon runs with the environment of the client that started
// it and serves only clients whose environment is the same (SameEnv), so
// a call never runs its hooks (command hooks, hookctl/proc, env() in the
// configuration, trust and state paths) with another caller's variables.
func EnvKey(environ []string) []string {
	out := slices.Clone(environ)
	slices.Sort(out)
	return out
}

// SameEnv reports whether two environments hold the same variables with
// the same values, in any order.
func SameEnv(a, b []string) bool {
	return slices.Equal(EnvKey(a), EnvKey(b))
}

// MaxEnv bounds the environment variables of a request.
const MaxEnv = 1 << 16

// Dir is the per-user directory of the daemons' sockets (socketDir):
// $XDG_RUNTIME_DIR/hookctl, else $TMPDIR/hookctl-UID; on macOS
// $TMPDIR/hookctl-UID ($TMPDIR is per user there); /tmp/hookctl-UID
// where those would make a socket's path too long for the system. It is
// created 0700; one that another user owns or others can enter is
// refused. On Windows it is the prefix of the user's daemons' named
// pipes (PipeDir of the user's SID), not a directory.
func Dir() (string, error) {
	if dir, ok, err := osDir(); ok {
		return dir, err
	}
	dir, err := socketDir(goruntime.GOOS, os.TempDir(), os.Getenv, os.Getuid())
	if err != nil {
		return "", err
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

// socketName is the length of a socket's name in its directory (Socket):
// 24 hexadecimal digits and ".sock".
const socketName = 24 + len(".sock")

// maxSocketPath is the longest path a unix socket can have on the
// platform goos, in bytes, without the NUL that ends it: sun_path holds
// 108 bytes on Linux and 104 on macOS and the BSDs.
func maxSocketPath(goos string) int {
	switch goos {
	case "linux", "android", "windows":
		return 107
	}
	return 103
}

// socketDir chooses the sockets' directory on the platform goos for the
// user uid, with the temporary directory tmp (os.TempDir) and the
// environment getenv reads: the first candidate under which a socket's
// path (the directory, a slash, socketName) fits in sun_path. The
// candidates are $XDG_RUNTIME_DIR/hookctl (when set), else
// tmp/hookctl-UID; on macOS tmp/hookctl-UID always (macOS has no
// XDG_RUNTIME_DIR, and its $TMPDIR, /var/folders/.../T, is the user's
// own); then, on unix systems, /tmp/hookctl-UID. A directory whose
// sockets would not fit is an error: the client then runs hookctl
// itself.
func socketDir(goos, tmp string, getenv func(string) string, uid int) (string, error) {
	own := fmt.Sprintf("hookctl-%d", uid)
	candidates := []string{filepath.Join(tmp, own)}
	if rt := getenv("XDG_RUNTIME_DIR"); rt != "" && goos != "darwin" && goos != "ios" {
		candidates[0] = filepath.Join(rt, "hookctl")
	}
	if goos != "windows" && goos != "plan9" {
		candidates = append(candidates, "/tmp/"+own)
	}
	limit := maxSocketPath(goos)
	for _, dir := range candidates {
		if len(dir)+1+socketName <= limit {
			return dir, nil
		}
	}
	return "", fmt.Errorf("%s: too long a directory for unix sockets (at most %d bytes with the socket's name)", candidates[0], limit)
}

// Socket is the socket of the daemon for a binary identity, working
// directory, process attributes (ProcessAttrs) and environment, in the
// directory dir (Dir); on Windows the named pipe (dir, a dash, the key).
func Socket(dir, identity, cwd, attrs string, env []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%s\x00%s\x00%d\x00%s\x00", Protocol, identity, cwd, os.Getuid(), attrs)
	for _, kv := range env {
		h.Write([]byte(kv))
		h.Write([]byte{0})
	}
	return socketPath(dir, hex.EncodeToString(h.Sum(nil))[:24])
}

// magic starts every message.
var magic = [4]byte{'H', 'K', 'C', '1'}

// WriteRequest sends a request. A large input is written as it is (or
// in its parts), never copied into the message.
func WriteRequest(w io.Writer, r *Request) error {
	fields := r.Hook.fields()
	stdinLen := r.StdinLen()
	head := 8 + 4 + 4 + len(r.Identity) + 4 // header, protocol, identity, input's length
	for _, f := range fields {
		head += 4 + len(f)
	}
	tail := 4 + len(r.Cwd) + 4 + 4 + len(r.Attrs)
	for _, kv := range r.Env {
		tail += 4 + len(kv)
	}
	body := head + stdinLen + tail - 8
	if body > MaxMessage {
		return errors.New("daemon: message too large")
	}
	inline := stdinLen <= bigInput
	size := head + tail
	if inline {
		size += stdinLen
	}
	b := make([]byte, 8, size)
	copy(b, magic[:])
	binary.BigEndian.PutUint32(b[4:8], uint32(body))
	b = binary.BigEndian.AppendUint32(b, uint32(r.Protocol))
	b = appendString(b, r.Identity)
	for _, f := range fields {
		b = appendString(b, f)
	}
	b = binary.BigEndian.AppendUint32(b, uint32(stdinLen))
	parts := r.StdinParts
	if parts == nil {
		parts = [][]byte{r.Stdin}
	}
	if inline {
		for _, p := range parts {
			b = append(b, p...)
		}
	} else {
		if _, err := w.Write(b); err != nil {
			return err
		}
		for _, p := range parts {
			if _, err := w.Write(p); err != nil {
				return err
			}
		}
		b = b[:0]
	}
	b = appendString(b, r.Cwd)
	b = binary.BigEndian.AppendUint32(b, uint32(len(r.Env)))
	for _, kv := range r.Env {
		b = appendString(b, kv)
	}
	b = appendString(b, r.Attrs)
	_, err := w.Write(b)
	return err
}

// ReadRequest receives a request. The strings before the input
// (identity, arguments) and those after it (working directory,
// environment, attributes) are each copied out of the frame once, as one
// string the request's strings are parts of: a call costs two string
// allocations, not one per field and variable. The input is left where
// it lies.
func ReadRequest(rd io.Reader) (*Request, error) {
	b, err := readFrame(rd)
	if err != nil {
		return nil, err
	}
	d := decoder{b: b}
	r := &Request{Protocol: int(d.u32())}
	head := strDecoder{s: string(d.fields(1 + callFields))}
	r.Identity = head.str()
	var fields [callFields]string
	for i := range fields {
		fields[i] = head.str()
	}
	r.Hook = callOf(fields)
	r.Stdin = d.bytes()
	if d.err != nil {
		return r, d.err
	}
	tail := strDecoder{s: string(d.b)}
	r.Cwd = tail.str()
	n := tail.u32()
	if n > MaxEnv {
		return nil, errors.New("daemon: too many environment variables")
	}
	if n > 0 && n <= uint32(len(tail.s)/4) { // each variable takes 4 bytes at least
		r.Env = make([]string, 0, n)
	}
	for range n {
		if tail.short {
			break
		}
		r.Env = append(r.Env, tail.str())
	}
	r.Attrs = tail.str()
	switch {
	case tail.short:
		d.fail()
	case len(tail.s) != 0:
		d.err = errors.New("daemon: trailing bytes after the request")
	}
	return r, d.err
}

// WriteResponse sends a response.
func WriteResponse(w io.Writer, r *Response) error {
	b := make([]byte, 8, 8+4+4+len(r.Stdout)+4+len(r.Stderr)+4+len(r.Refused))
	b = binary.BigEndian.AppendUint32(b, uint32(int32(r.Code)))
	b = appendBytes(b, r.Stdout)
	b = appendBytes(b, r.Stderr)
	b = appendString(b, r.Refused)
	return writeFrame(w, b)
}

// ReadResponse receives a response.
// responseBuffer is the size of the buffer a client reads its response
// through (readReply).
const responseBuffer = 4 << 10

// readReply is ReadResponse for a client, through a buffer: a response
// the daemon writes at once is read in one read, its header and body
// together, not one each.
func readReply(r io.Reader) (*Response, error) {
	return ReadResponse(bufio.NewReaderSize(r, responseBuffer))
}

func ReadResponse(rd io.Reader) (*Response, error) {
	b, err := readFrame(rd)
	if err != nil {
		return nil, err
	}
	d := decoder{b: b}
	r := &Response{Code: int(int32(d.u32()))}
	r.Stdout, r.Stderr, r.Refused = d.bytes(), d.bytes(), string(d.bytes())
	if d.err == nil && len(d.b) != 0 {
		d.err = errors.New("daemon: trailing bytes after the response")
	}
	return r, d.err
}

func appendBytes(b, v []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(v)))
	return append(b, v...)
}

func appendString(b []byte, v string) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(v)))
	return append(b, v...)
}

// writeFrame writes msg, whose first 8 bytes are room for the header.
func writeFrame(w io.Writer, msg []byte) error {
	body := len(msg) - 8
	if body > MaxMessage {
		return errors.New("daemon: message too large")
	}
	copy(msg, magic[:])
	binary.BigEndian.PutUint32(msg[4:8], uint32(body))
	_, err := w.Write(msg)
	return err
}

func readFrame(r io.Reader) ([]byte, error) {
	var head [8]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, err
	}
	if [4]byte(head[:4]) != magic {
		return nil, errors.New("daemon: not a hookctl message")
	}
	size := binary.BigEndian.Uint32(head[4:])
	if size > MaxMessage {
		return nil, errors.New("daemon: message too large")
	}
	if size <= 1<<20 {
		b := make([]byte, size)
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, err
		}
		return b, nil
	}
	// Past a MiB, the buffer grows as the bytes come (four times over,
	// to the size the header claims) rather than allocate what the
	// header claims: a header that promises 80 MiB and sends nothing
	// costs little, and a message that does come is copied a third of
	// its size at most.
	b := make([]byte, 256<<10)
	n := 0
	for {
		m, err := io.ReadFull(r, b[n:])
		n += m
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if n == int(size) {
			return b, nil
		}
		nb := make([]byte, min(int(size), 4*len(b)))
		copy(nb, b)
		b = nb
	}
}

// decoder reads fields, remembering the first error.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) u32() uint32 {
	if d.err != nil || len(d.b) < 4 {
		d.fail()
		return 0
	}
	v := binary.BigEndian.Uint32(d.b)
	d.b = d.b[4:]
	return v
}

func (d *decoder) bytes() []byte {
	n := d.u32()
	if d.err != nil || uint32(len(d.b)) < n {
		d.fail()
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

// fields returns the bytes of the next n length-prefixed fields, whole.
func (d *decoder) fields(n int) []byte {
	all := d.b
	for range n {
		d.bytes()
	}
	if d.err != nil {
		return nil
	}
	return all[:len(all)-len(d.b)]
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errors.New("daemon: truncated message")
	}
}

// strDecoder reads fields out of a string: each is a part of it, not a
// copy. short is set at the first field cut short.
type strDecoder struct {
	s     string
	short bool
}

func (d *strDecoder) u32() uint32 {
	if len(d.s) < 4 {
		d.s, d.short = "", true
		return 0
	}
	v := uint32(d.s[0])<<24 | uint32(d.s[1])<<16 | uint32(d.s[2])<<8 | uint32(d.s[3])
	d.s = d.s[4:]
	return v
}

func (d *strDecoder) str() string {
	n := d.u32()
	if uint32(len(d.s)) < n {
		d.s, d.short = "", true
		return ""
	}
	v := d.s[:n]
	d.s = d.s[n:]
	return v
}

// MaxDaemons bounds the daemons a client starts for one user: a host
// whose environment changes with every call would otherwise get a daemon
// per call. Past it the client runs hookctl itself.
const MaxDaemons = 16

// Live counts the daemons that answer on the sockets in dir (sockets a
// daemon left behind when it was killed are not counted); on Windows the
// named pipes under dir (PipeDir), which exist only while a daemon holds
// them.
func Live(dir string) int { return live(dir) }
