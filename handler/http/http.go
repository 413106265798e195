package http

import (
	"bytes"
	"context"
	"fmt"
	"io"
	nethttp "net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hookctl/hookctl/engine"
	"github.com/hookctl/hookctl/internal/urlallow"
	"github.com/hookctl/hookctl/protocol"
	claudeproto "github.com/hookctl/hookctl/protocol/claude"
)

// MaxReply bounds an http hook's reply body.
const MaxReply = 1 << 20

// Spec describes an http hook.
type Spec struct {
	URL    string
	Method string // POST unless set
	// Headers are sent with every request. $VAR and ${VAR} in values are
	// replaced from the environment, for the variables in AllowedEnv only
	// (as Claude Code does).
	Headers    map[string]string
	AllowedEnv []string
	// Allow lists the URLs the hook may reach (settings http_allow, in
	// the syntax of package urlallow: scheme, host, port and a path prefix
	// on segment boundaries); empty allows any http(s) URL without user
	// info.
	Allow []string
	// Client sends the requests (one that follows no redirects when nil).
	// Any redirect it follows must pass Allow too.
	Client *nethttp.Client
	// Getenv reads the environment (os.LookupEnv when nil).
	Getenv func(string) (string, bool)
}

var envRefRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)`)
})

// New returns a handler that POSTs the payload as JSON and reads the
// reply like a command hook's stdout: 2xx with an empty body is no opinion,
// 2xx with JSON is parsed in every Claude Code dialect, anything else (plain
// text, another status, no connection, a timeout) is a failure that blocks
// nothing unless the hook's on_error says so. Redirects are not followed.
func New(spec Spec) (engine.Handler, error) {
	u, err := url.Parse(spec.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("url %q: want an absolute http or https URL", spec.URL)
	}
	allow, err := urlallow.Parse(spec.Allow)
	if err != nil {
		return nil, err
	}
	if err := allow.CheckURL(u); err != nil {
		return nil, fmt.Errorf("url %w", err)
	}
	if spec.Method == "" {
		spec.Method = nethttp.MethodPost
	}
	if spec.Getenv == nil {
		spec.Getenv = os.LookupEnv
	}
	h := &httpHook{spec: spec, headers: map[string]string{}}
	for k, v := range spec.Headers {
		var missing []string
		h.headers[k] = envRefRE().ReplaceAllStringFunc(v, func(ref string) string {
			m := envRefRE().FindStringSubmatch(ref)
			name := m[1] + m[2]
			if !slices.Contains(spec.AllowedEnv, name) {
				missing = append(missing, name+" (not in allowed_env)")
				return ""
			}
			val, ok := spec.Getenv(name)
			if !ok {
				missing = append(missing, name+" (not set)")
			}
			return val
		})
		if len(missing) > 0 {
			return nil, fmt.Errorf("header %s: %s", k, strings.Join(missing, ", "))
		}
	}
	h.client = allow.Client(spec.Client)
	return h, nil
}

type httpHook struct {
	spec    Spec
	headers map[string]string
	client  *nethttp.Client
}

func (h *httpHook) Kind() string { return "http" }

// StatusError is an http hook whose reply was not a usable answer.
type StatusError struct {
	Status int
	Body   string
}

func (e *StatusError) Error() string {
	if e.Status/100 == 2 {
		return fmt.Sprintf("http hook replied %d with plain text: %q", e.Status, e.Body)
	}
	return fmt.Sprintf("http hook replied %d: %q", e.Status, e.Body)
}

// Handle sends one request.
func (h *httpHook) Handle(ctx context.Context, call *engine.Call) (engine.Result, error) {
	body, err := claudeproto.PayloadJSON(call.Event, call.Payload)
	if err != nil {
		return nil, err
	}
	req, err := nethttp.NewRequestWithContext(ctx, h.spec.Method, h.spec.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "hookctl")
	for k, v := range h.headers {
		req.Header.Set(k, v)
	}
	start := time.Now()
	resp, err := h.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("http hook: %w", err)
	}
	defer resp.Body.Close()
	reply, err := io.ReadAll(io.LimitReader(resp.Body, MaxReply))
	if err != nil {
		return nil, fmt.Errorf("http hook: reading the reply after %s: %w", time.Since(start).Round(time.Millisecond), err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, &StatusError{Status: resp.StatusCode, Body: firstLine(reply)}
	}
	if len(bytes.TrimSpace(reply)) == 0 {
		return nil, nil
	}
	if !protocol.IsJSONOutput(reply) {
		return nil, &StatusError{Status: resp.StatusCode, Body: firstLine(reply)}
	}
	// Read as a command hook's stdout is: the event's channels only.
	res, err := claudeproto.ParseOutputFor(call.Event, reply)
	if err != nil {
		return nil, err
	}
	if len(res) == 0 {
		return nil, nil
	}
	return res, nil
}

// firstLine is the first line of b, trimmed, at most 500 bytes.
func firstLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 500 {
		s = s[:500]
	}
	return s
}
