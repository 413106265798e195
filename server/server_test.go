package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/server"
)

const rmPayload = `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`

// gateEngine has a PreToolUse hook denying rm, and a Stop hook that
// waits until release is closed (or its context ends).
func gateEngine(t *testing.T, release <-chan struct{}) *engine.Engine {
	t.Helper()
	e := newEngine(t)
	if err := e.Register(engine.Hook{ID: "gate", Event: "PreToolUse", When: "tool_input.command contains 'rm'", Handler: engine.Static(engine.Deny("no rm"))}); err != nil {
		t.Fatal(err)
	}
	if err := e.Register(engine.Hook{ID: "wait", Event: "Stop", Timeout: time.Minute, Handler: engine.HandlerFunc(func(ctx context.Context, _ *engine.Call) (engine.Result, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return nil, nil
	})}); err != nil {
		t.Fatal(err)
	}
	return e
}

// serveReal serves srv as hookctl serve does: its HTTPServer on its
// LimitListener, on 127.0.0.1.
func serveReal(t *testing.T, srv *server.Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := srv.HTTPServer()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = hs.Serve(srv.LimitListener(ln))
	}()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := hs.Shutdown(ctx); err != nil {
			_ = hs.Close()
		}
		<-done
	})
	return "http://" + ln.Addr().String()
}

type reply struct {
	code   int
	header http.Header
	body   map[string]any
	raw    string
}

func do(t *testing.T, c *http.Client, method, url, body string) reply {
	t.Helper()
	r, err := tryDo(c, method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// tryDo is do for goroutines other than the test's: a failure is code 0.
func tryDo(c *http.Client, method, url, body string) (reply, error) {
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return reply{}, fmt.Errorf("%s %s: %w", method, url, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := reply{code: resp.StatusCode, header: resp.Header, raw: string(raw)}
	_ = json.Unmarshal(raw, &r.body)
	return r, nil
}

func freshClient() *http.Client {
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
}

// TestServeRefusesHugeInputEarly: a 20 MB body of empty objects (about
// 900 MB decoded; three 60 MB ones took the server to 8.9 GB) is refused
// naming the limit, before it is decoded and without reading it all, on
// both endpoints: /v1/fire with 413, Claude Code's route with its block
// (any status but 2xx is no objection to Claude Code); a body announced
// larger than --max-body is refused before more than its first 64 KiB
// is read; nesting past --max-depth is a 400 (the block) naming it. The
// server goes on serving.
func TestServeRefusesHugeInputEarly(t *testing.T) {
	e := gateEngine(t, nil)
	srv := server.NewServer(e, nil, server.WithLimits(server.ServerLimits{Input: server.InputLimits{MaxValues: 100_000}}))
	url := serveReal(t, srv)
	c := freshClient()

	var body bytes.Buffer
	body.WriteString(`{"hook_event_name":"PreToolUse","a":[`)
	for i := range 20 << 20 / 3 {
		if i > 0 {
			body.WriteByte(',')
		}
		body.WriteString("{}")
	}
	body.WriteString("]}")
	for _, path := range []string{"/claude", "/v1/fire/PreToolUse"} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		// A raw connection: the server answers before the body is sent.
		code, text := rawPost(t, url, path, body.Bytes())
		runtime.ReadMemStats(&after)
		if !refused(path, code, http.StatusRequestEntityTooLarge, text, "more than 100000 JSON values (the max-values limit)") {
			t.Fatalf("%s: %d %s", path, code, text)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("%s: took %s", path, d)
		}
		// Server and client together: far below the ~900 MB decoding
		// would take.
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
			t.Fatalf("%s: %d bytes allocated", path, alloc)
		}
	}

	// Announced too large: refused before a byte of the body is sent.
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(conn, "POST /claude HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", 65<<20)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !refused("/claude", resp.StatusCode, http.StatusRequestEntityTooLarge, string(raw), "larger than 67108864 bytes (the max-body limit)") {
		t.Fatalf("%d %s", resp.StatusCode, raw)
	}

	deep := `{"hook_event_name":"PreToolUse","a":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + "}"
	for _, path := range []string{"/claude", "/v1/fire/PreToolUse"} {
		if r := do(t, c, "POST", url+path, deep); !refused(path, r.code, http.StatusBadRequest, r.raw, "nested deeper than 256 levels (the max-depth limit)") {
			t.Fatalf("%s: %d %s", path, r.code, r.raw)
		}
	}
	if r := do(t, c, "POST", url+"/claude", rmPayload); r.code != 200 || !strings.Contains(r.raw, `"permissionDecision":"deny"`) {
		t.Fatalf("%d %s", r.code, r.raw)
	}
	h := do(t, c, "GET", url+"/healthz", "")
	if h.code != 200 || h.body["status"] != "ok" || h.body["load"].(map[string]any)["refused_input"].(float64) != 5 {
		t.Fatalf("%d %s", h.code, h.raw)
	}
}

// refused reports whether a refused request got what its route gives:
// on /v1/fire the status code with the error, on a host's hook route a
// 200 with the host's block (a PreToolUse deny, a block, or a stop)
// saying why.
func refused(path string, code, fireCode int, text, why string) bool {
	if !strings.Contains(text, why) {
		return false
	}
	if strings.HasPrefix(path, "/v1/fire/") {
		return code == fireCode
	}
	return code == http.StatusOK && (strings.Contains(text, `"permissionDecision":"deny"`) || strings.Contains(text, `"decision":"block"`))
}

// rawPost sends a POST on a raw connection, writing the body while it
// reads the reply, and returns the status and the reply's body.
func rawPost(t *testing.T, base, path string, body []byte) (int, string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	go func() {
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", path, len(body))
		_, _ = conn.Write(body) // fails once the server closes: expected
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServeBoundsRequestsInFlight: past --max-inflight requests firing and
// --max-queue waiting, a request is refused at once (Claude Code's route
// with its block, /v1/fire with 503 and Retry-After); a queued one after
// --queue-timeout; /healthz answers throughout with the figures, and once
// the hooks end the server serves again.
func TestServeBoundsRequestsInFlight(t *testing.T) {
	release := make(chan struct{})
	e := gateEngine(t, release)
	srv := server.NewServer(e, nil, server.WithLimits(server.ServerLimits{MaxInFlight: 2, MaxQueue: 1, QueueTimeout: 300 * time.Millisecond}))
	url := serveReal(t, srv)
	c := freshClient()
	stop := `{"hook_event_name":"Stop"}`

	var wg sync.WaitGroup
	codes := make(chan int, 2)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, _ := tryDo(c, "POST", url+"/claude", stop)
			codes <- r.code
		}()
	}
	waitFor(t, func() bool { return load(t, c, url)["in_flight"] == 2.0 })

	// The queue takes one, for 300ms.
	queued := make(chan reply, 1)
	go func() { r, _ := tryDo(c, "POST", url+"/v1/fire/Stop", `{}`); queued <- r }()
	waitFor(t, func() bool { return load(t, c, url)["queued"] == 1.0 })
	// Full: 503 at once.
	start := time.Now()
	r := do(t, c, "POST", url+"/claude", rmPayload)
	if !refused("/claude", r.code, 0, r.raw, "the max-queue limit") {
		t.Fatalf("%d %v %s", r.code, r.header, r.raw)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("a full queue answered after %s", d)
	}
	q := <-queued
	if q.code != http.StatusServiceUnavailable || q.header.Get("Retry-After") == "" || !strings.Contains(q.raw, "the queue-timeout limit") {
		t.Fatalf("%d %v %s", q.code, q.header, q.raw)
	}
	h := do(t, c, "GET", url+"/healthz", "")
	if h.code != 200 || h.body["status"] != "ok" {
		t.Fatalf("healthz while saturated: %d %s", h.code, h.raw)
	}
	l := h.body["load"].(map[string]any)
	if l["active_fires"] != 2.0 || l["rejected_busy"] != 2.0 || l["in_flight"] != 2.0 {
		t.Fatalf("load %v", l)
	}
	close(release)
	wg.Wait()
	for range 2 {
		if code := <-codes; code != 200 {
			t.Fatalf("a request in flight: %d", code)
		}
	}
	if r := do(t, c, "POST", url+"/claude", rmPayload); r.code != 200 || !strings.Contains(r.raw, "deny") {
		t.Fatalf("%d %s", r.code, r.raw)
	}
}

// TestServeSlowBodyTimesOut: a client that announces a body and sends
// it too slowly is refused after --read-timeout (Claude Code's route with
// its block), and its request slot is free again.
func TestServeSlowBodyTimesOut(t *testing.T) {
	e := gateEngine(t, nil)
	srv := server.NewServer(e, nil, server.WithLimits(server.ServerLimits{MaxInFlight: 1, ReadTimeout: 500 * time.Millisecond}))
	url := serveReal(t, srv)
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	start := time.Now()
	fmt.Fprintf(conn, "POST /claude HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"hook_")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !refused("/claude", resp.StatusCode, 0, string(raw), "the read-timeout limit") {
		t.Fatalf("%d %s", resp.StatusCode, raw)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %s", d)
	}
	if r := do(t, freshClient(), "POST", url+"/claude", rmPayload); r.code != 200 || !strings.Contains(r.raw, "deny") {
		t.Fatalf("%d %s", r.code, r.raw)
	}
}

// TestServeBoundsInputMemory: the estimated memory of the inputs held at
// once is bounded: past it a request is refused (Claude Code's route with
// its block), and gets served once the memory is free.
func TestServeBoundsInputMemory(t *testing.T) {
	release := make(chan struct{})
	e := gateEngine(t, release)
	lim := server.ServerLimits{Input: server.InputLimits{MaxBytes: 1 << 20, MaxValues: 1000}, MaxMemory: 1}
	srv := server.NewServer(e, nil, server.WithLimits(lim))
	if got, want := srv.Limits().MaxMemory, int64(2<<20+128*1000); got != want {
		t.Fatalf("max memory raised to %d, want %d (one input at the limits)", got, want)
	}
	url := serveReal(t, srv)
	c := freshClient()
	big := `{"hook_event_name":"Stop","pad":"` + strings.Repeat("x", 900<<10) + `"}`
	first := make(chan int, 1)
	go func() { r, _ := tryDo(c, "POST", url+"/claude", big); first <- r.code }()
	waitFor(t, func() bool { return load(t, c, url)["active_fires"] == 1.0 })
	r := do(t, c, "POST", url+"/claude", big)
	if !refused("/claude", r.code, 0, r.raw, "the max-memory limit") {
		t.Fatalf("%d %s", r.code, r.raw)
	}
	close(release)
	if code := <-first; code != 200 {
		t.Fatalf("first: %d", code)
	}
	if r := do(t, c, "POST", url+"/claude", big); r.code != 200 {
		t.Fatalf("after release: %d %s", r.code, r.raw)
	}
	if m := load(t, c, url)["input_memory"]; m != 0.0 {
		t.Fatalf("input memory %v after every request ended", m)
	}
}

// TestServeSurvivesSlowConnections: 300 connections that send nothing or
// dribble an incomplete request, against --max-conns 50, neither pile up
// (20,000 of them used to exhaust the server's descriptors) nor keep
// /healthz and a normal request out: each new connection past the limit
// closes the one that waited longest without a request, at once, and the
// header and idle timeouts close the rest.
func TestServeSurvivesSlowConnections(t *testing.T) {
	const timeout = 3 * time.Second
	e := gateEngine(t, nil)
	lim := server.ServerLimits{MaxConns: 50, ReadHeaderTimeout: timeout, IdleTimeout: timeout}
	srv := server.NewServer(e, nil, server.WithLimits(lim))
	url := serveReal(t, srv)
	addr := strings.TrimPrefix(url, "http://")

	var slow []net.Conn
	defer func() {
		for _, c := range slow {
			c.Close()
		}
	}()
	t0 := time.Now()
	for i := range 300 {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		if i%2 == 1 {
			// Slowloris: a request line and a header, never finished.
			fmt.Fprintf(conn, "POST /claude HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n")
		}
		slow = append(slow, conn)
	}
	stopDribble := make(chan struct{})
	dribbled := make(chan struct{})
	go func() {
		defer close(dribbled)
		for {
			for i, conn := range slow {
				if i%2 == 1 {
					_, _ = conn.Write([]byte("X-A: b\r\n"))
				}
			}
			select {
			case <-stopDribble:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	defer func() { close(stopDribble); <-dribbled }()

	c := freshClient()
	start := time.Now()
	h := do(t, c, "GET", url+"/healthz", "")
	if h.code != 200 || h.body["status"] != "ok" {
		t.Fatalf("healthz: %d %s", h.code, h.raw)
	}
	if r := do(t, c, "POST", url+"/claude", rmPayload); r.code != 200 || !strings.Contains(r.raw, `"permissionDecision":"deny"`) {
		t.Fatalf("%d %s", r.code, r.raw)
	}
	if d := time.Since(start); d > timeout/2 {
		t.Fatalf("answered after %s", d)
	}
	if open := h.body["load"].(map[string]any)["connections"].(float64); open > 50 {
		t.Fatalf("%v connections open, limit 50", open)
	}

	// A kept-alive connection idle after its request.
	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	fmt.Fprintf(idle, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	br := bufio.NewReader(idle)
	if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != 200 {
		t.Fatalf("keep-alive request: %v", err)
	} else {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}

	// All but the 50 newest were closed at once, well before the
	// timeouts; the timeouts close the rest, dribbling or not.
	closedEarly := 0
	early := t0.Add(timeout / 2)
	for _, conn := range slow {
		_ = conn.SetReadDeadline(early)
		if _, err := io.Copy(io.Discard, conn); !isTimeout(err) {
			closedEarly++
		}
	}
	if closedEarly < 250 {
		t.Fatalf("%d of 300 slow connections closed before the timeouts, want at least 250", closedEarly)
	}
	late := time.Now().Add(timeout + 3*time.Second)
	for i, conn := range slow {
		_ = conn.SetReadDeadline(late)
		if _, err := io.Copy(io.Discard, conn); isTimeout(err) {
			t.Fatalf("slow connection %d still open after %s", i, time.Since(t0))
		}
	}
	_ = idle.SetReadDeadline(late)
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("an idle kept-alive connection was not closed by the idle timeout: %v", err)
	}
	// Only the connection asking is left.
	waitFor(t, func() bool { return load(t, c, url)["connections"] == 1.0 })
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// TestServeKeepsBusyConnections: connections whose requests are in a
// handler are never closed to make room; when all are, a new connection
// is closed at once and the ones in flight finish.
func TestServeKeepsBusyConnections(t *testing.T) {
	release := make(chan struct{})
	e := gateEngine(t, release)
	srv := server.NewServer(e, nil, server.WithLimits(server.ServerLimits{MaxConns: 3}))
	url := serveReal(t, srv)
	c := freshClient()
	codes := make(chan int, 3)
	for range 3 {
		go func() { r, _ := tryDo(c, "POST", url+"/claude", `{"hook_event_name":"Stop"}`); codes <- r.code }()
	}
	waitFor(t, func() bool { return e.Stats().ActiveFires == 3 })
	waitFor(t, func() bool {
		conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
		if err != nil {
			return false
		}
		defer conn.Close()
		_ = conn.SetReadDeadline(time.Now().Add(2 * time.Second))
		_, err = conn.Read(make([]byte, 1))
		return err == io.EOF // closed at once: every connection is busy
	})
	close(release)
	for range 3 {
		if code := <-codes; code != 200 {
			t.Fatalf("a busy connection lost its request: %d", code)
		}
	}
}

func load(t *testing.T, c *http.Client, url string) map[string]any {
	t.Helper()
	h := do(t, c, "GET", url+"/healthz", "")
	if h.code != 200 {
		t.Fatalf("healthz: %d %s", h.code, h.raw)
	}
	return h.body["load"].(map[string]any)
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestHealthzReportsWedgedScripts: /healthz is 503 "wedged", with the
// figures, when every script runtime has been busy with a call for longer
// than WedgedAfter (hooks stuck in a native call), and ok otherwise.
func TestHealthzReportsWedgedScripts(t *testing.T) {
	var mu sync.Mutex
	stats := server.PoolStats{Size: 4, InUse: 4, OldestCall: 2 * time.Minute}
	e := gateEngine(t, nil)
	srv := httptest.NewServer(server.NewServer(e, nil, server.WithLimits(server.ServerLimits{WedgedAfter: time.Minute}),
		server.WithPoolStats(func() server.PoolStats {
			mu.Lock()
			defer mu.Unlock()
			return stats
		})))
	defer srv.Close()
	c := freshClient()
	for _, tc := range []struct {
		stats  server.PoolStats
		code   int
		status string
	}{
		{server.PoolStats{Size: 4, InUse: 4, OldestCall: 2 * time.Minute}, 503, "wedged"},
		{server.PoolStats{Size: 4, InUse: 3, Idle: 1, OldestCall: 2 * time.Minute}, 200, "ok"},
		{server.PoolStats{Size: 4, InUse: 4, OldestCall: 30 * time.Second}, 200, "ok"},
		{server.PoolStats{}, 200, "ok"}, // no pool
	} {
		mu.Lock()
		stats = tc.stats
		mu.Unlock()
		h := do(t, c, "GET", srv.URL+"/healthz", "")
		if h.code != tc.code || h.body["status"] != tc.status {
			t.Fatalf("%+v: %d %s", tc.stats, h.code, h.raw)
		}
		sc, _ := h.body["scripts"].(map[string]any)
		if tc.stats.Size > 0 && (sc["runtimes"] != float64(tc.stats.Size) || sc["in_use"] != float64(tc.stats.InUse) ||
			sc["oldest_call_ms"] != float64(tc.stats.OldestCall.Milliseconds())) {
			t.Fatalf("figures: %s", h.raw)
		}
		if tc.status == "wedged" && !strings.Contains(h.body["reason"].(string), "all 4 script runtimes are busy") {
			t.Fatalf("reason: %s", h.raw)
		}
	}
}

// TestFireRepliesAreTheirOwn: the fire endpoint reuses outcomes from
// request to request (FireInto); each reply still holds only its own
// fire's hooks, with many requests at once and one after another.
func TestFireRepliesAreTheirOwn(t *testing.T) {
	e := newEngine(t)
	for _, h := range []engine.Hook{
		{ID: "a", Event: "PreToolUse", Handler: engine.Static(engine.Context("a"))},
		{ID: "b", Event: "PreToolUse", Handler: engine.Static(engine.Deny("b"))},
		{ID: "c", Event: "PostToolUse", Handler: engine.Static(engine.Context("c"))},
	} {
		if err := e.Register(h); err != nil {
			t.Fatal(err)
		}
	}
	url := serveReal(t, server.NewServer(e, nil))
	c := &http.Client{Timeout: 10 * time.Second}
	check := func(r reply, event string) error {
		hooks, _ := r.body["hooks"].([]any)
		var got []string
		for _, h := range hooks {
			id, _ := h.(map[string]any)["id"].(string)
			got = append(got, id)
		}
		want := map[string]string{"PreToolUse": "a b", "PostToolUse": "c"}[event]
		if r.code != 200 || strings.Join(got, " ") != want || r.body["event"] != event {
			return fmt.Errorf("%s: %d %v, want hooks %s", event, r.code, got, want)
		}
		return nil
	}
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for i := range 200 {
		event := []string{"PreToolUse", "PostToolUse"}[i%2]
		wg.Go(func() {
			r, err := tryDo(c, "POST", url+"/v1/fire/"+event, `{"tool_name":"Bash"}`)
			if err == nil {
				err = check(r, event)
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, event := range []string{"PreToolUse", "PostToolUse", "PreToolUse"} {
		if err := check(do(t, c, "POST", url+"/v1/fire/"+event, `{"tool_name":"Bash"}`), event); err != nil {
			t.Error(err)
		}
	}
}

// TestRefusalClosesTheConnection: a body refused while it was read (too
// deep) left the keep-alive connection with a read deadline in the past,
// and the client's next request on it was answered 500 "context
// canceled" — a non-blocking error to Claude Code, so a deny became an
// allow. A refusal now closes the connection; the next request, on a new
// one, gets its deny.
func TestRefusalClosesTheConnection(t *testing.T) {
	e := gateEngine(t, nil)
	srv := server.NewServer(e, nil, server.WithLimits(server.ServerLimits{Input: server.InputLimits{MaxDepth: 64}}))
	url := serveReal(t, srv)
	c := &http.Client{Timeout: 10 * time.Second} // keep-alive
	post := func(body string) (*http.Response, string) {
		t.Helper()
		resp, err := c.Post(url+"/claude", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	deep := `{"hook_event_name":"PreToolUse","a":` + strings.Repeat(`[`, 100) + strings.Repeat(`]`, 100) + `}`
	deny := `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"rm -rf x"}}`
	for i := range 3 {
		resp, text := post(deep)
		if !refused("/claude", resp.StatusCode, 0, text, "the max-depth limit") || !resp.Close {
			t.Fatalf("round %d: deep body: %d close=%v %s", i, resp.StatusCode, resp.Close, text)
		}
		resp, text = post(deny)
		if resp.StatusCode != http.StatusOK || !strings.Contains(text, `"deny"`) {
			t.Fatalf("round %d: the next request: %d %s", i, resp.StatusCode, text)
		}
	}
}

// TestServeBlocksWhatOnlyAnExitStatusCarries: Claude Code reads a block of
// TaskCompleted and TeammateIdle only from a command hook's exit status
// (`hookctl claude` exits 2); over HTTP the block was
// {"decision":"block"}, which those events do not read, so the task
// completed. The reply now stops the agent (continue:false, the only
// stop an http hook gives) and says why; a block of an event with a
// top-level decision stays one, and a refusal whose event cannot be told
// both blocks and stops.
func TestServeBlocksWhatOnlyAnExitStatusCarries(t *testing.T) {
	e := newEngine(t)
	for _, ev := range []string{"TaskCompleted", "TeammateIdle", "TaskCreated"} {
		if err := e.Register(engine.Hook{ID: "no-" + ev, Event: ev, Handler: engine.Static(engine.Block("run the tests first"))}); err != nil {
			t.Fatal(err)
		}
	}
	srv := server.NewServer(e, nil, server.WithLimits(server.ServerLimits{Input: server.InputLimits{MaxDepth: 8}}))
	url := serveReal(t, srv)
	c := freshClient()
	for _, ev := range []string{"TaskCompleted", "TeammateIdle"} {
		r := do(t, c, "POST", url+"/claude", `{"session_id":"s","hook_event_name":"`+ev+`","task_id":"1"}`)
		if r.code != 200 || r.body["continue"] != false || !strings.Contains(fmt.Sprint(r.body["stopReason"]), "run the tests first") ||
			!strings.Contains(fmt.Sprint(r.body["systemMessage"]), "exit status") {
			t.Fatalf("%s: %d %s", ev, r.code, r.raw)
		}
	}
	r := do(t, c, "POST", url+"/claude", `{"session_id":"s","hook_event_name":"TaskCreated","task_id":"1"}`)
	if r.code != 200 || r.body["decision"] != "block" || r.body["continue"] != nil {
		t.Fatalf("TaskCreated: %d %s", r.code, r.raw)
	}
	// Input too deep whose event is read from its top level: that
	// event's block; one whose event cannot be read: block and stop.
	deep := strings.Repeat("[", 20) + strings.Repeat("]", 20)
	r = do(t, c, "POST", url+"/claude", `{"hook_event_name":"TaskCompleted","x":`+deep+`}`)
	if r.code != 200 || r.body["continue"] != false || !strings.Contains(r.raw, "the max-depth limit") {
		t.Fatalf("deep TaskCompleted: %d %s", r.code, r.raw)
	}
	// Elicitation reads no top-level block: exit status 2 declines it,
	// and so does the reply.
	r = do(t, c, "POST", url+"/claude", `{"hook_event_name":"Elicitation","requested_schema":`+deep+`}`)
	if hso, _ := r.body["hookSpecificOutput"].(map[string]any); r.code != 200 || hso["action"] != "decline" {
		t.Fatalf("deep Elicitation: %d %s", r.code, r.raw)
	}
	far := strings.Repeat("[", 40000) + strings.Repeat("]", 40000) // past the 64 KiB read for the name
	r = do(t, c, "POST", url+"/claude", `{"x":`+far+`,"hook_event_name":"PreToolUse"}`)
	if r.code != 200 || r.body["continue"] != false || r.body["decision"] != "block" {
		t.Fatalf("deep, event after: %d %s", r.code, r.raw)
	}
}

// TestServeBusyWithinTheHostTimeout: a request queued behind busy slots
// waited the whole --queue-timeout whatever its host_timeout, and its
// block came after the host had stopped waiting (and run the action): it
// is now refused by the host's deadline.
func TestServeBusyWithinTheHostTimeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	e := gateEngine(t, release)
	srv := server.NewServer(e, nil, server.WithLimits(server.ServerLimits{MaxInFlight: 1, MaxQueue: 4, QueueTimeout: time.Minute}))
	url := serveReal(t, srv)
	c := freshClient()
	go func() { _, _ = tryDo(c, "POST", url+"/claude", `{"hook_event_name":"Stop"}`) }()
	waitFor(t, func() bool { return load(t, c, url)["in_flight"] == 1.0 })
	r := do(t, c, "POST", url+"/claude?host_timeout=2s", rmPayload)
	if !refused("/claude", r.code, 0, r.raw, "before the caller stops waiting (host_timeout)") {
		t.Fatalf("%d %s", r.code, r.raw)
	}
}

// TestSlowBodiesTakeNoSlot: a request slot was taken before the body was
// read, so clients sending headers and no body held every slot for
// --read-timeout, and each guarded call got "server busy". The body is
// now read first: the slots are left to calls that have one.
func TestSlowBodiesTakeNoSlot(t *testing.T) {
	e := gateEngine(t, nil)
	srv := server.NewServer(e, nil, server.WithLimits(server.ServerLimits{MaxInFlight: 2, MaxQueue: 1, QueueTimeout: 200 * time.Millisecond, ReadTimeout: time.Minute}))
	url := serveReal(t, srv)
	for range 3 {
		conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "POST /claude HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	}
	c := freshClient()
	waitFor(t, func() bool { return load(t, c, url)["connections"].(float64) >= 4 })
	r := do(t, c, "POST", url+"/claude", rmPayload)
	if r.code != 200 || !strings.Contains(r.raw, "no rm") {
		t.Fatalf("%d %s", r.code, r.raw)
	}
}
