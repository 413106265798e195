package main

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
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
// included; none of them fires a hook. A client that sends JSON to a
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
	if h.code != 200 || h.body["fires"] != 0.0 || load["refused_origin"] != 6.0 || load["refused_media_type"] != 3.0 {
		t.Fatalf("/healthz after the refused requests: %d %s", h.code, h.raw)
	}
	// What a client of serve sends is answered: JSON to a loopback name.
	for _, host := range []string{"", "localhost:" + port, "[::1]:" + port, "127.0.0.1"} {
		r := browserRequest(t, "POST", p.base+"/claude", host, map[string]string{"Content-Type": "application/json; charset=utf-8"}, prePayload)
		if r.code != 200 || !strings.Contains(r.raw, "BROWSER-TEST-DENY") {
			t.Fatalf("POST /claude with Host %q: %d %s", host, r.code, r.raw)
		}
	}

	// Named hosts and origins are let in; others still are not.
	p2 := startReplica(t, cfg, "--allowed-host", "hookctl.internal", "--allowed-origin", "http://localhost:3000")
	for _, c := range []struct {
		host, origin string
		code         int
	}{
		{"hookctl.internal:9999", "", 200},
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
