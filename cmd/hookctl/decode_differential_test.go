//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookctl/hookctl/internal/syncbuf"
)

// differentialHooks compares payload values in conditions and in
// JavaScript, and echoes them back in updated_input.
const differentialHooks = `
hook "n-string" {
  event    = "PreToolUse"
  when     = "string(tool_input.v) == '1000000'"
  decision = "deny"
  reason   = "v is the string 1000000"
}
hook "id-exact" {
  event    = "PreToolUse"
  when     = "tool_input.v == 9007199254740993"
  decision = "deny"
  reason   = "v is exactly 9007199254740993"
}
hook "unicode-when" {
  event    = "PreToolUse"
  when     = "tool_input.u == 'שָׁלוֹם \u202e 🙂 𝕏 é'"
  decision = "deny"
  reason   = "u is the RTL and astral string"
}
hook "echo" {
  event = "PreToolUse"
  js    = <<-JS
    const t = event.tool_input;
    if (String(t.v) === "1000000") return { decision: "deny", reason: "js: String(v) is 1000000" };
    if (t.mode === "whole") return { decision: "allow", reason: "whole", updated_input: t };
    return {
      decision: "allow",
      reason: "echo " + typeof t.v + " " + String(t.v),
      updated_input: { v: t.v, w: t.w, s: t.s, deep: t.deep, n: t.v === -0 ? "zero" : "not zero" },
      additional_context: "w=" + String(t.w) + " s=" + (t.s === undefined ? "" : t.s.length),
    };
  JS
}
`

// differentialCase is one payload; want, when set, is the outcome every
// transport must give (a JSON object of decision, reason, updated_input
// and context, or "refused").
type differentialCase struct {
	name, toolInput, want string
}

func nested(depth int, leaf string) string {
	return strings.Repeat(`{"a":`, depth) + leaf + strings.Repeat("}", depth)
}

func differentialCases() []differentialCase {
	return []differentialCase{
		// The condition on string(v) and the script's String(v) see 1000000, not 1e+06.
		{name: "million", toolInput: `{"v":1000000}`, want: `{"decision":"deny","reason":"v is the string 1000000"}`},
		{name: "million-float", toolInput: `{"v":1000000.5}`},
		{name: "exact-id", toolInput: `{"v":9007199254740993}`, want: `{"decision":"deny","reason":"v is exactly 9007199254740993"}`},
		// One less is another number.
		{name: "exact-id-minus-one", toolInput: `{"v":9007199254740992,"mode":"whole"}`, want: `{"decision":"allow","reason":"whole","updated_input":{"mode":"whole","v":9007199254740992}}`},
		// A value the script passes on reaches the reply exactly.
		{name: "exact-round-trip", toolInput: `{"v":1,"w":9007199254740993,"o":{"x":-9223372036854775808},"mode":"whole"}`, want: `{"decision":"allow","reason":"whole","updated_input":{"mode":"whole","o":{"x":-9223372036854775808},"v":1,"w":9007199254740993}}`},
		{name: "int64-max", toolInput: `{"v":9223372036854775807,"w":9223372036854775807}`},
		{name: "beyond-int64", toolInput: `{"v":12345678901234567890,"w":12345678901234567890}`},
		{name: "minus-zero", toolInput: `{"v":-0,"w":-0}`},
		{name: "minus-zero-float", toolInput: `{"v":-0.0,"w":-0.0}`},
		{name: "floats", toolInput: `{"v":0.1,"w":1e-7}`},
		// A whole number below 2^53 is an int64 however it is written.
		{name: "exponent-int", toolInput: `{"v":1e6,"w":1E2}`, want: `{"decision":"deny","reason":"v is the string 1000000"}`},
		{name: "whole-float", toolInput: `{"v":1.0,"w":100.000,"mode":"whole"}`, want: `{"decision":"allow","reason":"whole","updated_input":{"mode":"whole","v":1,"w":100}}`},
		{name: "past-2^53-as-float", toolInput: `{"v":9007199254740993.0,"w":1e17}`},
		{name: "huge-float", toolInput: `{"v":1e308,"w":-1.7976931348623157e308}`},
		{name: "past-float64", toolInput: `{"v":1e400}`, want: `"refused"`},
		{name: "unicode", toolInput: `{"v":1,"s":"é日本🙂 \u00e9\ud83d\ude42 \u2028 \"q\" \\ \t"}`},
		{name: "bad-surrogate", toolInput: `{"v":1,"s":"\ud800x"}`},
		{name: "deep", toolInput: `{"v":1,"deep":` + nested(200, "9007199254740993") + `}`},
		{name: "too-deep", toolInput: `{"v":1,"deep":` + nested(300, "1") + `}`, want: `"refused"`},
		{name: "duplicate-last-wins", toolInput: `{"v":2,"v":1000000}`, want: `{"decision":"deny","reason":"v is the string 1000000"}`},
		{name: "duplicate-first-loses", toolInput: `{"v":1000000,"v":2,"w":2}`},
		{name: "one-megabyte", toolInput: `{"v":1,"s":"` + strings.Repeat("x", 1<<20) + `"}`},
		{name: "one-megabyte-echoed", toolInput: `{"v":1,"mode":"whole","s":"` + strings.Repeat("é", 1<<19) + `"}`},
		// Right-to-left text, a bidi override and astral characters, as
		// written and escaped, compared in the condition and echoed by the
		// script.
		{name: "rtl-astral-when", toolInput: `{"v":1,"u":"שָׁלוֹם \u202e 🙂 \ud835\udd4f \u00e9"}`, want: `{"decision":"deny","reason":"u is the RTL and astral string"}`},
		{name: "rtl-astral-echo", toolInput: `{"v":1,"mode":"whole","u":"מִי 🀄 \u200f𝕏"}`, want: `{"decision":"allow","reason":"whole","updated_input":{"mode":"whole","u":"מִי 🀄 \u200f𝕏","v":1}}`},
		{name: "duplicate-nested", toolInput: `{"v":1,"mode":"whole","o":{"k":1,"k":9007199254740993}}`, want: `{"decision":"allow","reason":"whole","updated_input":{"mode":"whole","o":{"k":9007199254740993},"v":1}}`},
	}
}

// outcome is what a transport decided, in one comparable form.
type diffOutcome struct {
	Decision     string `json:"decision,omitempty"`
	Reason       string `json:"reason,omitempty"`
	UpdatedInput any    `json:"updated_input,omitempty"`
	Context      string `json:"context,omitempty"`
}

func (o diffOutcome) String() string {
	b, _ := json.Marshal(o)
	return string(b)
}

// decodeExact decodes a reply keeping its numbers as written.
func decodeExact(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(v)
}

// claudeOutcome reads Claude Code's reply; exit status 2 is a refusal.
func claudeOutcome(code int, stdout []byte) string {
	if code == 2 {
		return `"refused"`
	}
	if code != 0 {
		return fmt.Sprintf("exit %d", code)
	}
	var r struct {
		Specific struct {
			Decision     string `json:"permissionDecision"`
			Reason       string `json:"permissionDecisionReason"`
			UpdatedInput any    `json:"updatedInput"`
			Context      string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if len(bytes.TrimSpace(stdout)) > 0 {
		if err := decodeExact(stdout, &r); err != nil {
			return "bad reply: " + err.Error()
		}
	}
	s := r.Specific
	return diffOutcome{s.Decision, s.Reason, s.UpdatedInput, s.Context}.String()
}

// fireOutcome reads fire's outcome; a payload it cannot read is a
// refusal (exit 1, as a blocked outcome is exit 2 with the outcome).
func fireOutcome(code int, stdout []byte) string {
	if code == 1 && len(bytes.TrimSpace(stdout)) == 0 {
		return `"refused"`
	}
	var r struct {
		Decision     string `json:"decision"`
		Reason       string `json:"reason"`
		UpdatedInput any    `json:"updated_input"`
		Context      string `json:"additional_context"`
	}
	if err := decodeExact(stdout, &r); err != nil {
		return fmt.Sprintf("exit %d, bad outcome: %v", code, err)
	}
	return diffOutcome{r.Decision, r.Reason, r.UpdatedInput, r.Context}.String()
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// TestPayloadNumbersAgreeAcrossTransports: the same payloads through the
// real `hookctl fire`, `hookctl claude`, `hookctl hook --host claude`,
// `hookctl serve` (POST /claude, /hook/claude, /hook/claude/PreToolUse)
// and `hookctl-client claude` (a real daemon) give the same decision, reason, updated input and context:
// every transport decodes payloads with one decoder (integers exact as
// int64, other numbers float64, the same input limits).
func TestPayloadNumbersAgreeAcrossTransports(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binaries")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	build := exec.Command("go", "build", "-o", bin+"/", "github.com/hookctl/hookctl/cmd/hookctl", "github.com/hookctl/hookctl/cmd/hookctl-client")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	hookctl, client := filepath.Join(bin, "hookctl"), filepath.Join(bin, "hookctl-client")
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(filepath.Join(dir, "rt"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(work, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(work, "hooks.hcl")
	writeFile(t, cfg, differentialHooks)
	env := append(os.Environ(),
		"HOOKCTL_CONFIG=", "CLAUDE_PROJECT_DIR=", "HOOKCTL_ALLOW_UNTRUSTED=",
		"HOOKCTL_TRUST_FILE="+filepath.Join(dir, "trusted.json"),
		"HOOKCTL_STATE_DIR="+filepath.Join(dir, "state"),
		"XDG_RUNTIME_DIR="+filepath.Join(dir, "rt"), "TMPDIR="+filepath.Join(dir, "rt"),
		"HOOKCTL_DAEMON_IDLE=60s", "HOOKCTL_CLIENT_DEBUG=1")
	runIn := func(stdin []byte, name string, args ...string) (int, []byte, string) {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env, cmd.Stdin = work, env, bytes.NewReader(stdin)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		return exitCode(err), stdout.Bytes(), stderr.String()
	}
	if code, out, errs := runIn(nil, hookctl, "trust", "--config", cfg); code != 0 {
		t.Fatalf("hookctl trust: exit %d\n%s%s", code, out, errs)
	}

	// serve, a process of this test.
	var serveErr syncbuf.Buffer
	serve := exec.Command(hookctl, "serve", "--config", cfg, "--listen", "127.0.0.1:0")
	serve.Dir, serve.Env, serve.Stderr = work, env, &serveErr
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	serveDone := make(chan struct{})
	go func() { _ = serve.Wait(); close(serveDone) }()
	t.Cleanup(func() {
		_ = serve.Process.Signal(syscall.SIGTERM)
		select {
		case <-serveDone:
		case <-time.After(30 * time.Second):
			_ = serve.Process.Kill()
		}
	})
	listening := regexp.MustCompile(`on http://(127\.0\.0\.1:\d+)`)
	var base string
	for deadline := time.Now().Add(30 * time.Second); base == ""; time.Sleep(20 * time.Millisecond) {
		if m := listening.FindStringSubmatch(serveErr.String()); m != nil {
			base = "http://" + m[1]
			break
		}
		select {
		case <-serveDone:
			t.Fatalf("serve exited:\n%s", serveErr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not listen:\n%s", serveErr.String())
		}
	}
	// A connection per request: after a refused body (too-deep) a reused
	// connection's next request fails with 500 "context canceled", a
	// separate serve bug that is not about decoding.
	httpClient := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}

	// post sends a payload to one of serve's host hook routes.
	post := func(t *testing.T, route string, payload []byte) string {
		req, err := http.NewRequest("POST", base+route, bytes.NewReader(payload))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := httpClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			return fmt.Sprintf("status %d: %s", resp.StatusCode, body)
		}
		// Input no hook could run for is hookctl claude's exit 2: over
		// HTTP the event's block (a deny) or a top-level block, saying so.
		var top struct {
			Decision string `json:"decision"`
			Specific struct {
				Decision string `json:"permissionDecision"`
				Reason   string `json:"permissionDecisionReason"`
			} `json:"hookSpecificOutput"`
		}
		if json.Unmarshal(body, &top) == nil && (top.Decision == "block" ||
			top.Specific.Decision == "deny" && (strings.Contains(top.Specific.Reason, "no hook ran") || strings.Contains(top.Specific.Reason, "no hook could run"))) {
			return `"refused"`
		}
		return claudeOutcome(0, body)
	}

	// The daemon the first hookctl-client call starts: ended by its pid.
	daemonPid := regexp.MustCompile(`started daemon pid (\d+)`)

	transports := []struct {
		name string
		run  func(t *testing.T, payload []byte) string
	}{
		{"fire", func(t *testing.T, payload []byte) string {
			p := filepath.Join(dir, "payload.json")
			if err := os.WriteFile(p, payload, 0o600); err != nil {
				t.Fatal(err)
			}
			code, out, _ := runIn(nil, hookctl, "fire", "--config", cfg, "--payload", p, "PreToolUse")
			return fireOutcome(code, out)
		}},
		{"claude", func(t *testing.T, payload []byte) string {
			code, out, _ := runIn(payload, hookctl, "claude", "--config", cfg)
			return claudeOutcome(code, out)
		}},
		{"hook --host claude", func(t *testing.T, payload []byte) string {
			code, out, _ := runIn(payload, hookctl, "hook", "--host", "claude", "--config", cfg)
			return claudeOutcome(code, out)
		}},
		{"serve /claude", func(t *testing.T, payload []byte) string { return post(t, "/claude", payload) }},
		{"serve /hook/claude", func(t *testing.T, payload []byte) string { return post(t, "/hook/claude", payload) }},
		{"serve /hook/claude/PreToolUse", func(t *testing.T, payload []byte) string { return post(t, "/hook/claude/PreToolUse", payload) }},
		{"hookctl-client claude", func(t *testing.T, payload []byte) string {
			code, out, errs := runIn(payload, client, "claude", "--config", cfg)
			if m := daemonPid.FindStringSubmatch(errs); m != nil {
				pid, _ := strconv.Atoi(m[1])
				t.Cleanup(func() {
					if p, err := os.FindProcess(pid); err == nil {
						_ = p.Signal(syscall.SIGTERM)
					}
				})
			}
			if !strings.Contains(errs, "answered by the daemon") {
				t.Errorf("hookctl-client was not answered by the daemon:\n%s", errs)
			}
			return claudeOutcome(code, out)
		}},
	}
	for _, c := range differentialCases() {
		payload := []byte(`{"hook_event_name":"PreToolUse","session_id":"diff","cwd":` + strconv.Quote(work) + `,"tool_name":"Bash","tool_input":` + c.toolInput + `}`)
		got := make([]string, len(transports))
		for i, tr := range transports {
			got[i] = tr.run(t, payload)
		}
		short := func(s string) string {
			if len(s) > 300 {
				return s[:300] + "..."
			}
			return s
		}
		for i := 1; i < len(got); i++ {
			if got[i] != got[0] {
				t.Errorf("%s: %s gives %s\n%s gives %s", c.name, transports[0].name, short(got[0]), transports[i].name, short(got[i]))
			}
		}
		if c.want != "" {
			want := c.want
			if want != `"refused"` {
				var o diffOutcome
				if err := decodeExact([]byte(want), &o); err != nil {
					t.Fatal(err)
				}
				want = o.String()
			}
			for i, g := range got {
				if g != want {
					t.Errorf("%s: %s gives %s, want %s", c.name, transports[i].name, short(g), want)
				}
			}
		}
		t.Logf("%s: %s", c.name, short(got[0]))
	}
}
