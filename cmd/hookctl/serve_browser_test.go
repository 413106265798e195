package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// browserRequest sends a request with the headers a web page's request
// (or a DNS-rebound one) carries.
func browserRequest(t *testing.T, method, url, host string, header map[string]string, body string) httpReply {
	t.Helper()
	c := &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := httpReply{code: resp.StatusCode, header: resp.Header, raw: string(raw)}
	_ = json.Unmarshal(raw, &r.body)
	return r
}

const browserHCL = `
hook "no-rm" {
  event    = "PreToolUse"
  matcher  = "Bash"
  decision = "deny"
  reason   = "BROWSER-TEST-DENY"
}
`

const prePayload = `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`

// TestServeProcessRefusesBrowsers: a real `hookctl serve` answers no web
// page: a text/plain or form "simple" request (no preflight) is 415, a
// request carrying an Origin is 403, and a Host that is not a loopback
// name (a DNS-rebound page's) is 403 on every endpoint, /healthz
// included, as are a Host whose port is not a number or not the port
// serve listens on, an empty Host on HTTP/1.1 and an absolute-form
// request target; none of them fires a hook. A client that sends JSON to a
// loopback name is answered, and --allowed-host / --allowed-origin let
// the names given in.
func TestServeProcessRefusesBrowsers(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "hooks.hcl")
	writeFile(t, cfg, browserHCL)
	p := startReplica(t, cfg)
	port := strings.TrimPrefix(p.base, "http://127.0.0.1:")
	jsonCT := map[string]string{"Content-Type": "application/json"}
	for _, c := range []struct {
		name, method, path, host string
		header                   map[string]string
		code                     int
		says                     string
	}{
		{"text/plain simple request", "POST", "/claude", "", map[string]string{"Content-Type": "text/plain;charset=UTF-8"}, 415, `unsupported media type \"text/plain;charset=UTF-8\": send the body as application/json`},
		{"form simple request", "POST", "/v1/fire/PreToolUse", "", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415, "application/json"},
		{"no content type", "POST", "/claude", "", nil, 415, "no Content-Type"},
		{"cross-origin page", "POST", "/claude", "", map[string]string{"Content-Type": "application/json", "Origin": "http://evil.example"}, 403, `Origin \"http://evil.example\" is not allowed`},
		{"a page's text/plain with an Origin", "POST", "/v1/fire/PreToolUse", "", map[string]string{"Content-Type": "text/plain", "Origin": "null"}, 403, `Origin \"null\"`},
		{"DNS rebinding, fire", "POST", "/v1/fire/PreToolUse", "rebind.evil.example:" + port, jsonCT, 403, `Host \"rebind.evil.example:` + port + `\" is not allowed`},
		{"DNS rebinding, claude", "POST", "/claude", "rebind.evil.example:" + port, jsonCT, 403, "--allowed-host"},
		{"DNS rebinding, healthz", "GET", "/healthz", "rebind.evil.example:" + port, nil, 403, "Host"},
		{"DNS rebinding, metrics", "GET", "/metrics", "rebind.evil.example", nil, 403, "Host"},
		{"loopback name with a port that goes on", "POST", "/claude", "localhost:" + port + ".evil.com", jsonCT, 403, `Host \"localhost:` + port + `.evil.com\"`},
		{"loopback name on another port", "POST", "/claude", "127.0.0.1:1" + port, jsonCT, 403, "port it listens on"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := browserRequest(t, c.method, p.base+c.path, c.host, c.header, prePayload)
			msg, _ := r.body["error"].(string)
			if r.code != c.code || r.header.Get("Content-Type") != "application/json" || !strings.Contains(r.raw, c.says) || msg == "" {
				t.Fatalf("%s %s: %d %q %s; want %d saying %s", c.method, c.path, r.code, r.header.Get("Content-Type"), r.raw, c.code, c.says)
			}
		})
	}
	// Nothing above fired.
	h := request("GET", p.base+"/healthz", "")
	load, _ := h.body["load"].(map[string]any)
	if h.code != 200 || h.body["fires"] != 0.0 || load["refused_origin"] != 8.0 || load["refused_media_type"] != 3.0 {
		t.Fatalf("/healthz after the refused requests: %d %s", h.code, h.raw)
	}
	// What a client of serve sends is answered: JSON to a loopback name.
	for _, host := range []string{"", "localhost:" + port, "[::1]:" + port, "127.0.0.1"} {
		r := browserRequest(t, "POST", p.base+"/claude", host, map[string]string{"Content-Type": "application/json; charset=utf-8"}, prePayload)
		if r.code != 200 || !strings.Contains(r.raw, "BROWSER-TEST-DENY") {
			t.Fatalf("POST /claude with Host %q: %d %s", host, r.code, r.raw)
		}
	}

	// What net/http would pass on without a Host to check: an empty Host
	// on HTTP/1.1, a request target in absolute form naming a loopback
	// address with a Host header that does not.
	addr := strings.TrimPrefix(p.base, "http://")
	for _, c := range []struct{ name, req, says string }{
		{"empty Host", "POST /claude HTTP/1.1\r\nHost: \r\n", "must name the host"},
		{"absolute form", "POST http://" + addr + "/claude HTTP/1.1\r\nHost: evil.com\r\n", "absolute form"},
		{"absolute form, loopback Host", "POST http://evil.com:" + port + "/claude HTTP/1.1\r\nHost: " + addr + "\r\n", "absolute form"},
	} {
		code, raw := rawRequest(t, addr, c.req+"Content-Type: application/json\r\nContent-Length: "+strconv.Itoa(len(prePayload))+"\r\nConnection: close\r\n\r\n"+prePayload)
		if code != 403 || !strings.Contains(raw, c.says) || strings.Contains(raw, "BROWSER-TEST-DENY") {
			t.Errorf("%s: %d %s, want 403 saying %s", c.name, code, raw, c.says)
		}
	}
	// HTTP/1.0 without a Host, as curl -0 or a health probe sends it.
	if code, raw := rawRequest(t, addr, "GET /healthz HTTP/1.0\r\n\r\n"); code != 200 {
		t.Errorf("HTTP/1.0 GET /healthz without a Host: %d %s", code, raw)
	}

	// Named hosts and origins are let in; others still are not.
	p2 := startReplica(t, cfg, "--allowed-host", "hookctl.internal,good.test:18769", "--allowed-origin", "http://localhost:3000")
	port2 := strings.TrimPrefix(p2.base, "http://127.0.0.1:")
	for _, c := range []struct {
		host, origin string
		code         int
	}{
		{"hookctl.internal:" + port2, "", 200},
		{"hookctl.internal", "", 200},
		{"hookctl.internal:1" + port2, "", 403},
		{"good.test:18769", "", 200},
		{"good.test:18769.evil", "", 403},
		{"good.test:" + port2, "", 403},
		{"good.test", "", 403},
		{"HOOKCTL.internal", "http://localhost:3000", 200},
		{"other.internal", "", 403},
		{"127.0.0.1", "http://localhost:3001", 403},
	} {
		hdr := map[string]string{"Content-Type": "application/json"}
		if c.origin != "" {
			hdr["Origin"] = c.origin
		}
		if r := browserRequest(t, "POST", p2.base+"/claude", c.host, hdr, prePayload); r.code != c.code {
			t.Errorf("Host %q Origin %q: %d %s, want %d", c.host, c.origin, r.code, r.raw, c.code)
		}
	}
}

// rawRequest writes req as it is on a new connection to addr and returns
// the reply's status code and whole text.
func rawRequest(t *testing.T, addr, req string) (int, string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}
