package http_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookctl/hookctl/engine"
	httphook "github.com/hookctl/hookctl/handler/http"
)

func TestHTTPHook(t *testing.T) {
	var mu sync.Mutex
	var gotAuth, gotEvent string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var p map[string]any
		_ = json.NewDecoder(r.Body).Decode(&p)
		mu.Lock()
		gotAuth = r.Header.Get("Authorization")
		gotEvent, _ = p["hook_event_name"].(string)
		mu.Unlock()
		switch r.URL.Path {
		case "/deny":
			io.WriteString(w, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"remote says no"}}`)
		case "/empty":
		case "/text":
			io.WriteString(w, "not json")
		case "/500":
			w.WriteHeader(500)
			io.WriteString(w, "boom")
		case "/redirect":
			http.Redirect(w, r, "/deny", http.StatusFound)
		case "/slow":
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}
	}))
	defer srv.Close()
	env := func(k string) (string, bool) {
		if k == "HOOK_TOKEN" {
			return "s3cret", true
		}
		return "", false
	}
	cases := []struct {
		path     string
		decision string
		status   engine.Status
		errHas   string
		timeout  time.Duration
	}{
		{"/deny", "deny", engine.StatusDecided, "", 0},
		{"/empty", "", engine.StatusRan, "", 0},
		{"/text", "", engine.StatusError, "plain text", 0},
		{"/500", "", engine.StatusError, "500", 0},
		{"/redirect", "", engine.StatusError, "302", 0},
		{"/slow", "", engine.StatusTimeout, "", 100 * time.Millisecond},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			h, err := httphook.New(httphook.Spec{URL: srv.URL + tc.path, Headers: map[string]string{"Authorization": "Bearer $HOOK_TOKEN"},
				AllowedEnv: []string{"HOOK_TOKEN"}, Getenv: env})
			if err != nil {
				t.Fatal(err)
			}
			e := newEngine(t)
			hook := engine.Hook{ID: "h", Event: "PreToolUse", Handler: h, Timeout: tc.timeout}
			if err := e.Register(hook); err != nil {
				t.Fatal(err)
			}
			out, err := e.Fire(context.Background(), engine.Event{Name: "PreToolUse", Payload: bashPayload("ls")})
			if err != nil {
				t.Fatal(err)
			}
			tr, _ := out.Hook("h")
			if string(out.Decision) != tc.decision || tr.Status != tc.status || !strings.Contains(tr.Error, tc.errHas) {
				t.Fatalf("decision=%q status=%s err=%q", out.Decision, tr.Status, tr.Error)
			}
			mu.Lock()
			auth, ev := gotAuth, gotEvent
			mu.Unlock()
			if auth != "Bearer s3cret" || ev != "PreToolUse" {
				t.Fatalf("auth %q event %q", auth, ev)
			}
		})
	}
}

func TestHTTPSpecValidation(t *testing.T) {
	for _, s := range []httphook.Spec{
		{URL: "ftp://x"},
		{URL: "not a url"},
		{URL: "http://127.0.0.1/x", Allow: []string{"http://localhost/"}},
		{URL: "http://127.0.0.1/x", Headers: map[string]string{"X": "$SECRET"}},
		{URL: "http://127.0.0.1/x", Headers: map[string]string{"X": "$MISSING"}, AllowedEnv: []string{"MISSING"}, Getenv: func(string) (string, bool) { return "", false }},
	} {
		if _, err := httphook.New(s); err == nil {
			t.Errorf("accepted %+v", s)
		}
	}
}

// TestHTTPReplyReadAsStdout: an HTTP hook's reply is read as a command
// hook's stdout is, by its event's channels: on PermissionRequest, which
// reads decision.behavior, a permissionDecision beside it is dropped and
// the behavior's deny stands (read for every channel, permissionDecision
// came last and allowed).
func TestHTTPReplyReadAsStdout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","permissionDecision":"allow","decision":{"behavior":"deny","message":"not this"}}}`)
	}))
	defer srv.Close()
	h, err := httphook.New(httphook.Spec{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t)
	if err := e.Register(engine.Hook{ID: "h", Event: "PermissionRequest", Handler: h}); err != nil {
		t.Fatal(err)
	}
	out, err := e.Fire(context.Background(), engine.Event{Name: "PermissionRequest", Payload: bashPayload("rm -rf /")})
	if err != nil {
		t.Fatal(err)
	}
	if out.Decision != engine.DecisionDeny || out.Reason != "not this" {
		t.Fatalf("decision %q reason %q, want deny: not this", out.Decision, out.Reason)
	}
}
