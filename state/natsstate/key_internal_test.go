package natsstate

import (
	"strings"
	"testing"
)

func TestEncodeKey(t *testing.T) {
	tests := []struct{ key, subject string }{
		{"plain", "plain"},
		{"session/abc/seen.files", "session.abc.seen=2Efiles"},
		{"a/b/c", "a.b.c"},
		{"/", "=.="},
		{"a//b", "a.=.b"},
		{"trail/", "trail.="},
		{"=", "=3D"},
		{"*>", "=2A=3E"},
		{"sp ace", "sp=20ace"},
		{"é", "=C3=A9"},
		{"-_", "-_"},
	}
	for _, tt := range tests {
		if got := encodeKey(tt.key); got != tt.subject {
			t.Errorf("encodeKey(%q) = %q, want %q", tt.key, got, tt.subject)
		}
		if got, ok := decodeKey(tt.subject); !ok || got != tt.key {
			t.Errorf("decodeKey(%q) = %q, %v; want %q", tt.subject, got, ok, tt.key)
		}
	}
}

// TestDecodeKeyRejects holds the bijection: a subject encodeKey cannot
// produce is not a key, so no two subjects decode to the same key.
func TestDecodeKeyRejects(t *testing.T) {
	for _, s := range []string{"", ".", "a.", ".a", "a..b", "=4", "=41", "=2f", "=2F", "=ZZ", "a=", "==", "a b", "a*"} {
		if k, ok := decodeKey(s); ok {
			t.Errorf("decodeKey(%q) = %q, want rejected", s, k)
		}
	}
}

func TestPrefixFilter(t *testing.T) {
	tests := []struct{ prefix, filter string }{
		{"", ">"},
		{"abc", ">"},
		{"session/", "session.>"},
		{"session/abc/", "session.abc.>"},
		{"session/abc/x", "session.abc.>"},
		{"/", "=.>"},
		{"a.b/", "a=2Eb.>"},
	}
	for _, tt := range tests {
		if got := prefixFilter(tt.prefix); got != tt.filter {
			t.Errorf("prefixFilter(%q) = %q, want %q", tt.prefix, got, tt.filter)
		}
	}
}

// subjectMatches is NATS's token match of a subject against a filter
// whose only wildcard is a final ">".
func subjectMatches(subject, filter string) bool {
	if filter == ">" {
		return subject != ""
	}
	base, ok := strings.CutSuffix(filter, ".>")
	if !ok {
		return subject == filter
	}
	return strings.HasPrefix(subject, base+".") && len(subject) > len(base)+1
}

func validSubject(s string) bool {
	if s == "" {
		return false
	}
	for _, tok := range strings.Split(s, ".") {
		if tok == "" || tok == "*" || tok == ">" {
			return false
		}
		for i := 0; i < len(tok); i++ {
			if !plain(tok[i]) && tok[i] != '=' {
				return false
			}
		}
	}
	return true
}

func FuzzKey(f *testing.F) {
	for _, s := range []string{"a", "a/b", "/", "a.b", "=", "session/x/", "ü/*", "a//b/"} {
		f.Add(s, s[:len(s)/2])
	}
	f.Fuzz(func(t *testing.T, key, prefix string) {
		if key == "" {
			return
		}
		subj := encodeKey(key)
		if !validSubject(subj) {
			t.Fatalf("encodeKey(%q) = %q: not a valid subject of plain tokens", key, subj)
		}
		got, ok := decodeKey(subj)
		if !ok || got != key {
			t.Fatalf("decodeKey(encodeKey(%q)) = %q, %v", key, got, ok)
		}
		if strings.HasPrefix(key, prefix) && !subjectMatches(subj, prefixFilter(prefix)) {
			t.Fatalf("key %q starts with %q but its subject %q misses filter %q", key, prefix, subj, prefixFilter(prefix))
		}
	})
}
