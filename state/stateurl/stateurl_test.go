package stateurl_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/state/stateurl"
)

// TestParse: every state URL names its backend, and writes back (URL) as
// one that parses to the same backend.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want stateurl.Backend
		kind stateurl.Kind
	}{
		{"memory:", stateurl.Backend{Memory: true}, stateurl.KindMemory},
		{"Memory://", stateurl.Backend{Memory: true}, stateurl.KindMemory},
		{"file:///var/lib/hookctl/kv.json", stateurl.Backend{File: "/var/lib/hookctl/kv.json"}, stateurl.KindFile},
		{"file:/a/b/../kv%20x.json", stateurl.Backend{File: "/a/kv x.json"}, stateurl.KindFile},
		{"nats://a:4222", stateurl.Backend{NATS: "nats://a:4222"}, stateurl.KindNATS},
		{" tls://u:p@a:4222 , nats://b ", stateurl.Backend{NATS: "tls://u:p@a:4222,nats://b"}, stateurl.KindNATS},
	} {
		if runtime.GOOS == "windows" && tc.kind == stateurl.KindFile {
			continue
		}
		b, err := stateurl.Parse("settings.state", tc.in)
		if err != nil || b != tc.want || b.Kind() != tc.kind || b.IsDefault() {
			t.Errorf("Parse(%q) = %#v, %v; want %#v", tc.in, b, err, tc.want)
			continue
		}
		again, err := stateurl.Parse("settings.state", b.URL())
		if err != nil || !again.Same(b) {
			t.Errorf("Parse(%q.URL() = %q) = %#v, %v", tc.in, b.URL(), again, err)
		}
	}
	if b := (stateurl.Backend{}); !b.IsDefault() || b.Kind() != stateurl.KindFile || b.URL() != "" || b.String() != "the default state file" {
		t.Errorf("zero backend: %v %v %q %q", b.IsDefault(), b.Kind(), b.URL(), b)
	}
}

// TestParseErrors: a state URL that does not parse, or names a scheme no
// backend has, is an *Error naming the setting and the URL, passwords
// redacted, and saying what a state URL may be.
func TestParseErrors(t *testing.T) {
	for in, want := range map[string]string{
		"":                      `settings.state: empty (want memory:, file:///PATH, or nats:// or tls:// URLs)`,
		"   ":                   `settings.state: empty`,
		"redis://u:pw@cache:1":  `settings.state: "redis://u:xxxxx@cache:1": unknown state URL scheme "redis" (want memory:, file:///PATH, or nats:// or tls:// URLs)`,
		"http://x":              `unknown state URL scheme "http"`,
		"memory":                `settings.state: "memory": not a URL (want memory:`,
		"memory:x":              `"memory:x": memory: takes nothing after the colon`,
		"kv.json":               `"kv.json": not a URL`,
		"/var/kv.json":          `"/var/kv.json": not a URL`,
		"nats-0:4222":           `"nats-0:4222": not a URL`,
		"file:kv.json":          `"file:kv.json": a file: URL takes an absolute path`,
		"file://host/kv.json":   `host "host": a file: URL names a file on this machine`,
		"file:///kv.json?x=1":   `a file: URL has no user, query or fragment`,
		"file:///kv.json#f":     `a file: URL has no user, query or fragment`,
		"file:///":              `a file: URL names a file, not a directory`,
		"file:///var/lib/":      `a file: URL names a file, not a directory`,
		"file:///a%00b":         `no NUL byte`,
		"file://%zz/x":          `"file://%zz/x": not a URL`,
		"nats://a,redis://b":    `settings.state: "redis://b": scheme "redis": want nats:// or tls://`,
		"nats://a,,nats://b":    `settings.state: an empty URL in the list`,
		"nats://a/path":         `"nats://a/path": a NATS URL has no path`,
		"nats://a:99999":        `port 99999 out of range`,
		"nats://a:4222,memory:": `"memory:": not a URL`,
	} {
		_, err := stateurl.Parse("settings.state", in)
		var se *stateurl.Error
		if err == nil || !errors.As(err, &se) || se.Setting != "settings.state" || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v; want %s", in, err, want)
		}
		if strings.Contains(in, "pw") && strings.Contains(err.Error(), "pw") {
			t.Errorf("Parse(%q): the password is in %v", in, err)
		}
	}
	if _, err := stateurl.Parse("settings.state", "gopher://x"); !errors.Is(err, stateurl.ErrUnknownScheme) {
		t.Errorf("unknown scheme: %v", err)
	}
}

// TestBackendString: messages name the backend, passwords redacted.
func TestBackendString(t *testing.T) {
	for b, want := range map[stateurl.Backend]string{
		{NATS: "nats://u:pw@a:4222", Source: "--nats"}: "NATS nats://u:xxxxx@a:4222 (--nats)",
		{Memory: true, Source: "settings.state"}:       "memory (settings.state)",
		{Memory: true}:                                 "memory",
		{File: "/x/kv.json"}:                           "file /x/kv.json",
	} {
		if got := b.String(); got != want {
			t.Errorf("%#v: %q, want %q", b, got, want)
		}
	}
}
