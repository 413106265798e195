package daemon

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func sampleRequest() *Request {
	return &Request{
		Protocol: Protocol, Identity: "/bin/hookctl|1|2",
		Hook:  Hook{Command: "hook", Host: "crush", Event: "PreToolUse", Config: "hooks.hcl", LogLevel: "debug", AllowUntrusted: true, OnUntrusted: "warn", OnConfigError: "block", OnAsk: "allow", Verbose: true},
		Stdin: []byte(`{"tool_name":"Bash"}`),
		Cwd:   "/home/dev/shop",
		Env:   []string{"PATH=/usr/bin", "DEPLOY_ENV=prod", "EMPTY="},
		Attrs: "umask=22 nofile=1024:4096",
	}
}

func TestRequestRoundTrip(t *testing.T) {
	for _, req := range []*Request{sampleRequest(), {Protocol: Protocol}} {
		var buf bytes.Buffer
		if err := WriteRequest(&buf, req); err != nil {
			t.Fatal(err)
		}
		got, err := ReadRequest(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if got.Protocol != req.Protocol || got.Identity != req.Identity || got.Cwd != req.Cwd ||
			got.Hook != req.Hook || !bytes.Equal(got.Stdin, req.Stdin) || !slices.Equal(got.Env, req.Env) || got.Attrs != req.Attrs {
			t.Fatalf("got %+v, want %+v", got, req)
		}
		if buf.Len() != 0 {
			t.Fatalf("%d bytes left unread", buf.Len())
		}
	}
}

func TestResponseRoundTrip(t *testing.T) {
	for _, resp := range []*Response{
		{Code: 2, Stdout: []byte("{}\n"), Stderr: []byte("blocked\n")},
		{Code: -1},
		{Refused: "another environment"},
	} {
		var buf bytes.Buffer
		if err := WriteResponse(&buf, resp); err != nil {
			t.Fatal(err)
		}
		got, err := ReadResponse(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if got.Code != resp.Code || !bytes.Equal(got.Stdout, resp.Stdout) || !bytes.Equal(got.Stderr, resp.Stderr) || got.Refused != resp.Refused {
			t.Fatalf("got %+v, want %+v", got, resp)
		}
	}
}

// TestWireFormat pins the bytes on the wire: clients and daemons of one
// build must agree, and a change must be a new Protocol.
func TestWireFormat(t *testing.T) {
	var buf bytes.Buffer
	req := &Request{Protocol: 6, Identity: "i", Hook: Hook{Command: "hook", Host: "crush", AllowUntrusted: true, Verbose: true, HostTimeout: "9s"}, Stdin: []byte("x"), Cwd: "/", Env: []string{"A=1"}, Attrs: "u"}
	if err := WriteRequest(&buf, req); err != nil {
		t.Fatal(err)
	}
	want := "HKC1\x00\x00\x00\x5c" + // magic, body length 92
		"\x00\x00\x00\x06" + "\x00\x00\x00\x01i" + // protocol, identity
		"\x00\x00\x00\x04hook" + "\x00\x00\x00\x05crush" + // command, --host
		"\x00\x00\x00\x00" + "\x00\x00\x00\x00" + "\x00\x00\x00\x00" + // --event, --config, --log-level
		"\x00\x00\x00\x011" + // --allow-untrusted
		"\x00\x00\x00\x00" + "\x00\x00\x00\x00" + "\x00\x00\x00\x00" + // --on-untrusted, --on-config-error, --on-ask
		"\x00\x00\x00\x011" + // --verbose
		"\x00\x00\x00\x029s" + // --host-timeout
		"\x00\x00\x00\x01x" + "\x00\x00\x00\x01/" + // stdin, cwd
		"\x00\x00\x00\x01" + "\x00\x00\x00\x03A=1" + // one variable
		"\x00\x00\x00\x01u" // umask and limits
	if buf.String() != want {
		t.Fatalf("wire:\n%q\nwant\n%q", buf.String(), want)
	}
}

// frame wraps body in a message header.
func frame(body []byte) []byte {
	return append(binary.BigEndian.AppendUint32([]byte("HKC1"), uint32(len(body))), body...)
}

func TestMalformedFrames(t *testing.T) {
	var good bytes.Buffer
	if err := WriteRequest(&good, sampleRequest()); err != nil {
		t.Fatal(err)
	}
	body := good.Bytes()[8:]
	u32 := func(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }
	cases := map[string][]byte{
		"empty":               nil,
		"short header":        []byte("HKC1\x00\x00"),
		"bad magic":           append([]byte("HKC0"), good.Bytes()[4:]...),
		"http":                []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
		"truncated body":      good.Bytes()[:good.Len()-1],
		"oversized header":    append([]byte("HKC1"), u32(MaxMessage+1)...),
		"max header, no body": append([]byte("HKC1"), u32(MaxMessage)...),
		"empty body":          frame(nil),
		"field past the end":  frame(append(u32(Protocol), u32(1000)...)),
		"fields past the end": frame(slices.Concat(u32(Protocol), u32(0), u32(5), []byte("claude"))),
		"too many variables":  frame(slices.Concat(u32(Protocol), u32(0), make([]byte, 4*callFields), u32(0), u32(0), u32(MaxEnv+1))),
		"trailing bytes":      frame(append(slices.Clone(body), 0)),
		"no env (protocol 1)": frame(slices.Concat(u32(1), u32(2), []byte("id"), u32(1), u32(6), []byte("claude"), u32(0))),
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			if req, err := ReadRequest(bytes.NewReader(in)); err == nil {
				t.Fatalf("accepted: %+v", req)
			}
		})
	}
	if _, err := ReadRequest(bytes.NewReader(cases["oversized header"])); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Fatalf("oversized: %v", err)
	}
	if _, err := ReadRequest(bytes.NewReader(cases["bad magic"])); err == nil || !strings.Contains(err.Error(), "not a hookctl message") {
		t.Fatalf("bad magic: %v", err)
	}
	if _, err := ReadRequest(bytes.NewReader(cases["truncated body"])); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncated: %v", err)
	}
}

// TestOversizedHeaderAllocatesNothing: a header that promises the most a
// message may hold and sends nothing does not make the reader allocate it.
func TestOversizedHeaderAllocatesNothing(t *testing.T) {
	in := append([]byte("HKC1"), binary.BigEndian.AppendUint32(nil, MaxMessage)...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := ReadRequest(bytes.NewReader(in)); err == nil {
		t.Fatal("accepted")
	}
	runtime.ReadMemStats(&after)
	if d := after.TotalAlloc - before.TotalAlloc; d > 1<<20 {
		t.Fatalf("reading an empty 80 MiB frame allocated %d bytes", d)
	}
}

func TestWriteTooLarge(t *testing.T) {
	err := WriteRequest(io.Discard, &Request{Stdin: make([]byte, MaxMessage)})
	if err == nil || !strings.Contains(err.Error(), "too large") {
		t.Fatalf("got %v", err)
	}
}

func TestEnvKey(t *testing.T) {
	a := []string{"B=2", "A=1"}
	if got := EnvKey(a); !slices.Equal(got, []string{"A=1", "B=2"}) || a[0] != "B=2" {
		t.Fatalf("EnvKey %v (input %v)", got, a)
	}
	if !SameEnv([]string{"A=1", "B=2"}, []string{"B=2", "A=1"}) {
		t.Fatal("order matters")
	}
	for _, other := range [][]string{{"A=1"}, {"A=1", "B=3"}, {"A=1", "B=2", "C="}, {"A=1", "B=2", "DEPLOY_ENV=dev"}} {
		if SameEnv(a, other) {
			t.Fatalf("%v = %v", a, other)
		}
	}
}

// TestSocketPerEnvironment: any variable, not only a few known ones,
// chooses another daemon; so do the working directory and the binary.
func TestSocketPerEnvironment(t *testing.T) {
	base := Socket("/d", "id", "/w", "umask=22", EnvKey([]string{"PATH=/bin"}))
	for name, s := range map[string]string{
		"variable":  Socket("/d", "id", "/w", "umask=22", EnvKey([]string{"PATH=/bin", "DEPLOY_ENV=prod"})),
		"value":     Socket("/d", "id", "/w", "umask=22", EnvKey([]string{"PATH=/usr/bin"})),
		"cwd":       Socket("/d", "id", "/x", "umask=22", EnvKey([]string{"PATH=/bin"})),
		"attrs":     Socket("/d", "id", "/w", "umask=77", EnvKey([]string{"PATH=/bin"})),
		"identity":  Socket("/d", "id2", "/w", "umask=22", EnvKey([]string{"PATH=/bin"})),
		"separator": Socket("/d", "id", "/w", "umask=22", EnvKey([]string{"PATH=/bi", "n"})),
	} {
		if s == base {
			t.Errorf("another %s, the same socket", name)
		}
	}
	if Socket("/d", "id", "/w", "umask=22", EnvKey([]string{"PATH=/bin"})) != base || !strings.HasPrefix(base, "/d") {
		t.Fatal("not stable")
	}
}

func TestDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a unix socket directory; on Windows Dir is a pipe prefix (TestPipeDirIsMine)")
	}
	rt := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", rt)
	t.Setenv("TMPDIR", rt) // macOS's
	want := filepath.Join(rt, "hookctl")
	if runtime.GOOS == "darwin" {
		want = filepath.Join(rt, fmt.Sprintf("hookctl-%d", os.Getuid()))
	}
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(dir)
	if err != nil || dir != want || fi.Mode().Perm() != 0o700 {
		t.Fatalf("%s %v %v", dir, fi.Mode(), err)
	}
	// Others can enter: refused.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Dir(); err == nil {
		t.Fatal("a directory others can enter was accepted")
	}
	// A symlink to a private directory: refused (Lstat).
	os.Remove(dir)
	private := filepath.Join(rt, "private")
	if err := os.Mkdir(private, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(private, dir); err != nil {
		t.Fatal(err)
	}
	if _, err := Dir(); err == nil {
		t.Fatal("a symlink was accepted")
	}
}

// FuzzReadRequest: whatever a peer sends, the reader returns a request or
// an error, never panics, and a request it returns encodes back to what
// it read.
func FuzzReadRequest(f *testing.F) {
	var buf bytes.Buffer
	WriteRequest(&buf, sampleRequest())
	f.Add(buf.Bytes())
	buf.Reset()
	WriteRequest(&buf, &Request{Protocol: Protocol})
	f.Add(buf.Bytes())
	f.Add([]byte("HKC1\x00\x00\x00\x04\x00\x00\x00\x02"))
	f.Add(append([]byte("HKC1"), binary.BigEndian.AppendUint32(nil, MaxMessage+1)...))
	f.Fuzz(func(t *testing.T, in []byte) {
		req, err := ReadRequest(bytes.NewReader(in))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteRequest(&out, req); err != nil {
			t.Fatal(err)
		}
		again, err := ReadRequest(&out)
		if err != nil {
			t.Fatalf("re-read: %v", err)
		}
		if again.Protocol != req.Protocol || again.Identity != req.Identity || again.Cwd != req.Cwd ||
			again.Hook != req.Hook || !bytes.Equal(again.Stdin, req.Stdin) || !slices.Equal(again.Env, req.Env) || again.Attrs != req.Attrs {
			t.Fatalf("round trip: %+v != %+v", again, req)
		}
		if len(req.Env) > MaxEnv {
			t.Fatalf("bounds: %d variables", len(req.Env))
		}
	})
}

// FuzzReadResponse: the client's reader, likewise.
func FuzzReadResponse(f *testing.F) {
	var buf bytes.Buffer
	WriteResponse(&buf, &Response{Code: 2, Stdout: []byte("{}"), Stderr: []byte("no"), Refused: "r"})
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, in []byte) {
		resp, err := ReadResponse(bytes.NewReader(in))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteResponse(&out, resp); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), in[:out.Len()]) {
			t.Fatalf("round trip differs")
		}
	})
}

// BenchmarkRequestWithEnv is what a call's environment costs on the
// wire and in the daemon's check: encode, decode, compare.
func BenchmarkRequestWithEnv(b *testing.B) {
	env := make([]string, 60) // a typical desktop session
	for i := range env {
		env[i] = fmt.Sprintf("VARIABLE_%02d=%s", i, strings.Repeat("v", 40))
	}
	own := EnvKey(env)
	req := &Request{Protocol: Protocol, Identity: "id", Hook: Hook{Command: "claude"}, Stdin: make([]byte, 2048), Cwd: "/w", Env: env}
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		WriteRequest(&buf, req)
		got, err := ReadRequest(&buf)
		if err != nil || !slices.Equal(EnvKey(got.Env), own) {
			b.Fatal(err)
		}
	}
}

// TestBigInputInParts: a large input given whole or in parts is the same
// message (written without copying it into one buffer), read back whole
// through the growing read of a large frame; the frame cut short is an
// error.
func TestBigInputInParts(t *testing.T) {
	in := bytes.Repeat([]byte("0123456789abcdef"), 3<<20/16+7) // past bigInput and the 1 MiB read
	whole := sampleRequest()
	whole.Stdin = in
	parts := sampleRequest()
	parts.Stdin = nil
	parts.StdinParts = [][]byte{in[:100], in[100 : 1<<20], {}, in[1<<20:]}
	var a, b bytes.Buffer
	if err := WriteRequest(&a, whole); err != nil {
		t.Fatal(err)
	}
	if err := WriteRequest(&b, parts); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("the input in parts is another message")
	}
	msg := bytes.Clone(a.Bytes())
	got, err := ReadRequest(&a)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Stdin, in) || got.Cwd != whole.Cwd || !slices.Equal(got.Env, whole.Env) || got.Attrs != whole.Attrs {
		t.Fatal("the big input did not round-trip")
	}
	for _, cut := range []int{1, 5 << 10, 2<<20 + 3} {
		if _, err := ReadRequest(bytes.NewReader(msg[:len(msg)-cut])); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("cut %d bytes short: %v", cut, err)
		}
	}
}

// TestReadRequestAllocations: a request's strings are parts of two
// copies of the frame (the fields before the input, those after it), not
// one allocation per field and environment variable: with 60 variables a
// read took 75 allocations.
func TestReadRequestAllocations(t *testing.T) {
	env := make([]string, 60)
	for i := range env {
		env[i] = fmt.Sprintf("VARIABLE_%02d=%s", i, strings.Repeat("v", 40))
	}
	req := &Request{Protocol: Protocol, Identity: "id", Hook: Hook{Command: "claude", Config: "/c"}, Stdin: []byte(`{"a":1}`), Cwd: "/w", Env: env, Attrs: "umask=22"}
	var msg bytes.Buffer
	if err := WriteRequest(&msg, req); err != nil {
		t.Fatal(err)
	}
	rd := bytes.NewReader(msg.Bytes())
	allocs := testing.AllocsPerRun(100, func() {
		rd.Reset(msg.Bytes())
		got, err := ReadRequest(rd)
		if err != nil || !slices.Equal(got.Env, env) || got.Cwd != "/w" || got.Config != "/c" || got.Attrs != "umask=22" {
			t.Fatalf("%v %+v", err, got)
		}
	})
	// The frame, the request, two strings, the environment's slice.
	if allocs > 6 {
		t.Errorf("ReadRequest: %.0f allocations, want 6 at most", allocs)
	}
}

// readCounter counts the reads made of r.
type readCounter struct {
	r     io.Reader
	reads int
}

func (c *readCounter) Read(b []byte) (int, error) {
	c.reads++
	return c.r.Read(b)
}

// TestReplyInOneRead: a client reads a response the daemon wrote at once
// in one read, its header and body together.
func TestReplyInOneRead(t *testing.T) {
	var buf bytes.Buffer
	want := Response{Code: 2, Stdout: []byte(`{"decision":"block"}`), Stderr: []byte("hookctl: denied\n")}
	if err := WriteResponse(&buf, &want); err != nil {
		t.Fatal(err)
	}
	rc := &readCounter{r: &buf}
	got, err := readReply(rc)
	if err != nil || got.Code != 2 || string(got.Stdout) != string(want.Stdout) || string(got.Stderr) != string(want.Stderr) {
		t.Fatalf("%+v %v", got, err)
	}
	if rc.reads != 1 {
		t.Fatalf("the response took %d reads, want 1", rc.reads)
	}
}
