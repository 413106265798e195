package natsurl

import (
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string][]string{
		"nats://127.0.0.1:4222":                        {"nats://127.0.0.1:4222"},
		"nats://a:4222, nats://b:4222 ,tls://c":        {"nats://a:4222", "nats://b:4222", "tls://c"},
		"nats://user:pw@nats.internal:4222":            {"nats://user:pw@nats.internal:4222"},
		"nats://[::1]:4222":                            {"nats://[::1]:4222"},
		"tls://nats-0.nats.default.svc.cluster.local/": {"tls://nats-0.nats.default.svc.cluster.local/"},
	} {
		got, err := Parse(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%q: %q %v, want %q", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"":                          "no NATS server URL",
		"  ":                        "no NATS server URL",
		"127.0.0.1:4222":            "not a URL",
		"localhost":                 "not a URL",
		"http://nats:4222":          `scheme "http": want nats:// or tls://`,
		"nats://":                   "no host",
		"nats://a:4222,":            "an empty URL",
		"nats://a:4222,,nats://b":   "an empty URL",
		"nats://a:4222/bucket":      "no path, query or fragment",
		"nats://a:99999":            "port 99999 out of range",
		"nats://a:0":                "port 0 out of range",
		"nats://a:b":                "not a URL",
		"nats://u:secret@a/x":       `"nats://u:xxxxx@a/x"`,
		"nats://a:4222,redis://b:1": `"redis://b:1": scheme "redis"`,
	} {
		_, err := Parse(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error containing %q", in, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("%q: the error shows the password: %v", in, err)
		}
	}
}

func TestRedact(t *testing.T) {
	got := Redact("nats://u:pw@a:4222, nats://tok@b,nats://c")
	if got != "nats://u:xxxxx@a:4222,nats://xxxxx@b,nats://c" {
		t.Fatal(got)
	}
}
