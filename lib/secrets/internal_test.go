package secrets

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestEntropy(t *testing.T) {
	tests := []struct {
		in   string
		want float64
	}{
		{"", 0},
		{"aaaaaaaa", 0},
		{"abababab", 1},
		{"abcd", 2},
		{"0123456789abcdef", 4},
	}
	for _, tc := range tests {
		if got := entropy(tc.in); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("entropy(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestValueClassifiers(t *testing.T) {
	tests := []struct {
		name string
		f    func(string) bool
		yes  []string
		no   []string
	}{
		{
			name: "isPlaceholder", f: isPlaceholder,
			yes: []string{"changeme", "CHANGEME", "xxx", "XXXXXXXX", "********", "<token>", "${VAR}", "$VAR",
				"%APPDATA%", "{{ .Values.x }}", "your-api-key", "YOUR_TOKEN_HERE", "[REDACTED:jwt]", "null",
				"password", "example-secret", "00000000", "....", "REPLACE_ME", "secrets.GITHUB_TOKEN"},
			no: []string{"hunter22x", "Zx9kL2mQ7v", "s3cr3t-P@ss!", "GOCSPX-4kQm9ZtR2vW7xY1pL8nB"},
		},
		{
			name: "isCodeRef", f: isCodeRef,
			yes: []string{"self.token", "config.db.password", "process.env.API_KEY", "$scope.secret"},
			no:  []string{"hunter22x", "1.2.3", "a..b", "db.internal:5432", ".hidden"},
		},
		{
			name: "isEnvName", f: isEnvName,
			yes: []string{"GITHUB_TOKEN", "API_KEY_2", "_X"},
			no:  []string{"TOKEN", "github_token", "AKIA1234", "2_X"},
		},
		{
			name: "isUUID", f: isUUID,
			yes: []string{"550e8400-e29b-41d4-a716-446655440000", "550E8400-E29B-41D4-A716-446655440000"},
			no:  []string{"550e8400e29b41d4a716446655440000", "550e8400-e29b-41d4-a716-44665544000g", "550e8400-e29b-41d4-a716-4466554400000"},
		},
		{
			name: "isNumber", f: isNumber,
			yes: []string{"4096", "-0x3f879678", "0xc0506617", "123456"},
			no:  []string{"0x", "12345678901", "0xZZ", "4096a"},
		},
		{
			name: "isHex", f: isHex,
			yes: []string{"0ac2f867", "0AC2F867", "123"},
			no:  []string{"0ac2F867", "0ac2g867", "zz"},
		},
		{
			name: "isPublicKey", f: isPublicKey,
			yes: []string{"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE", "AAAAC3NzaC1lZDI1NTE5AAAAIOjZ"},
			no:  []string{"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0t"},
		},
	}
	for _, tc := range tests {
		for _, v := range tc.yes {
			if !tc.f(v) {
				t.Errorf("%s(%q) = false, want true", tc.name, v)
			}
		}
		for _, v := range tc.no {
			if tc.f(v) {
				t.Errorf("%s(%q) = true, want false", tc.name, v)
			}
		}
	}
}

func TestValidHighEntropy(t *testing.T) {
	tests := []struct {
		label, value string
		want         bool
	}{
		{"dd_app_key", "0ac2f86702824c1c099724caf4941d4072014b3c", true},
		{"auth", "/YNBDRzrZSgqbjG3uhkWKFLf6xuI5aHUQPFeNBTx", true},
		{"license_key", "IRHXO77ZBKA74ZTJ2WYUHVAUVZHMASQX", true},
		{"key", "550e8400-e29b-41d4-a716-446655440000", false},           // UUID
		{"cache_key", "0ac2f86702824c1c099724caf4941d4072014b3c", false}, // denied label
		{"commit_key", "0ac2f86702824c1c099724caf4941d4072014b3c", false},
		{"key", "settings_page_title_for_dashboard_v2", false},  // words
		{"key", "uploads/2024/01/report_final-version2", false}, // path
		{"key", "abcdefghijklmnopqrstuvwxyzabcdefgh", false},    // no digit
		{"key", "00000000000000000000000000000000", false},      // no letter
		{"key", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1", false},   // low entropy
		{"key", "0ac2f867", false},                              // short
	}
	for _, tc := range tests {
		kw := tc.label[strings.LastIndexAny(tc.label, "_")+1:]
		got := validHighEntropy(&match{value: tc.value, label: tc.label, keyword: kw})
		if got != tc.want {
			t.Errorf("validHighEntropy(%q, %q) = %v, want %v", tc.label, tc.value, got, tc.want)
		}
	}
}

func TestResolve(t *testing.T) {
	c := func(kind string, start, end, rank int) candidate {
		return candidate{Finding: Finding{Kind: kind, Start: start, End: end}, rank: rank}
	}
	tests := []struct {
		name  string
		in    []candidate
		kinds []string
	}{
		{"empty", nil, nil},
		{"disjoint kept in order", []candidate{c("b", 10, 20, 1), c("a", 0, 5, 2)}, []string{"a", "b"}},
		{"touching is not overlapping", []candidate{c("a", 0, 5, 1), c("b", 5, 9, 1)}, []string{"a", "b"}},
		{"longest wins", []candidate{c("short", 2, 6, 0), c("long", 0, 10, 5)}, []string{"long"}},
		{"rank breaks ties", []candidate{c("generic", 0, 10, 5), c("specific", 0, 10, 1)}, []string{"specific"}},
		{"partial overlap", []candidate{c("a", 0, 10, 1), c("b", 8, 30, 1), c("c", 29, 31, 1)}, []string{"b"}},
		{"nested and neighbours", []candidate{c("outer", 5, 50, 3), c("inner", 10, 20, 0), c("left", 0, 5, 0), c("right", 50, 60, 0)}, []string{"left", "outer", "right"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var kinds []string
			got := resolve(tc.in)
			for i, f := range got {
				kinds = append(kinds, f.Kind)
				if i > 0 && got[i-1].End > f.Start {
					t.Errorf("overlap: %+v", got)
				}
			}
			if !slices.Equal(kinds, tc.kinds) {
				t.Errorf("got %v, want %v", kinds, tc.kinds)
			}
		})
	}
}

func TestLowerASCII(t *testing.T) {
	for _, s := range []string{"", "abc", "ABC", "Grüße ÄÖÜ \xff KEY", "İstanbul TOKEN"} {
		l := lowerASCII(s)
		if len(l) != len(s) {
			t.Fatalf("lowerASCII(%q) changed the length", s)
		}
		for i := 0; i < len(s); i++ {
			want := s[i]
			if 'A' <= want && want <= 'Z' {
				want += 'a' - 'A'
			}
			if l[i] != want {
				t.Errorf("lowerASCII(%q)[%d] = %q", s, i, l[i])
			}
		}
	}
}

// Every regexp detector's prefilter must be a necessary condition of its
// regexp: a match that lacks all of the literals would be silently skipped.
func TestPrefilterLiteralsAreNecessary(t *testing.T) {
	for _, tc := range []string{
		"-----BEGIN PRIVATE KEY-----", "AKIAEDT2SYWB3WKH5DNS", "ASIAX", "ghp_x", "github_pat_x",
		"glpat-x", "glsoat-x", "xoxb-x", "xoxs-x", "hooks.slack.com/services/x", "sk_live_x",
		"rk_test_x", "sk-ant-x", "sk-proj-x", "sk-admin-x", "sk-x", "AIzax", "npm_x", "eyJx.y.z",
	} {
		matched := false
		for i := range detectors {
			d := &detectors[i]
			if d.re == nil || !d.re().MatchString(tc) {
				continue
			}
			matched = true
			if candidates(tc)&(1<<i) == 0 {
				t.Errorf("%s regexp matches %q but its prefilter rejects it", d.kind, tc)
			}
		}
		if !matched {
			t.Errorf("no regexp matches %q", tc)
		}
	}
}

func TestFindSites(t *testing.T) {
	tests := []struct {
		text   string
		labels []string
	}{
		{"password=x", []string{"password"}},
		{`{"token": "x", "n": 1}`, []string{"token", "n"}},
		{`"{\"password\":\"x\"}"`, []string{"password"}},
		{"api_key := x; a == b; c === d; e => f", []string{"api_key", "a", "c", "e"}},
		{"'secret' => 'x'", []string{"secret"}},
		{"X-Api-Key: x", []string{"X-Api-Key"}},
		{"https://user:pass@host", []string{"https"}},
		{"a != b; c <= d; = e; :", nil},
	}
	for _, tc := range tests {
		var got []string
		for _, s := range findSites(tc.text) {
			got = append(got, tc.text[s.labelStart:s.labelEnd])
		}
		if !slices.Equal(got, tc.labels) {
			t.Errorf("findSites(%q) labels = %q, want %q", tc.text, got, tc.labels)
		}
	}
}

func TestKeywords(t *testing.T) {
	tests := []struct {
		f     func(string) string
		label string
		want  string
	}{
		{assignmentKeyword, "DB_PASSWORD", "password"},
		{assignmentKeyword, "OPENAI_API_KEY", "api_key"},
		{assignmentKeyword, "secretKey", "secretkey"},
		{assignmentKeyword, "client-secret", "secret"},
		{assignmentKeyword, "tokens", ""},
		{assignmentKeyword, "monkey", ""},
		{assignmentKeyword, "key", ""},
		{entropyKeyword, "DD_APP_KEY", "key"},
		{entropyKeyword, "credentials", "credentials"},
		{entropyKeyword, "keyboard", ""},
		{awsSecretKeyword, "aws_secret_access_key", "secret_access_key"},
		{awsSecretKeyword, "SecretAccessKey", "secret_access_key"},
		{awsSecretKeyword, "AWS-SECRET-KEY", "secret_access_key"},
		{awsSecretKeyword, "secret_key", ""},
		{authorizationKeyword, "Proxy-Authorization", "authorization"},
		{authorizationKeyword, "auth", ""},
	}
	for _, tc := range tests {
		if got := tc.f(tc.label); got != tc.want {
			t.Errorf("keyword(%q) = %q, want %q", tc.label, got, tc.want)
		}
	}
}

// TestScanContextStopsAtTheDeadline: a scan looks at its context between
// detector passes, so a huge text cannot hold a hook long past its
// deadline; with a live context it finds what Scan finds.
func TestScanContextStopsAtTheDeadline(t *testing.T) {
	text := strings.Repeat("token = ghp_0123456789abcdefghijklmnopqrstuvwxyzAB password: hunter2hunter2 ", 1000)
	ctx, cancel := context.WithCancel(context.Background())
	got, err := ScanContext(ctx, text)
	if err != nil || len(got) != len(Scan(text)) {
		t.Fatalf("ScanContext = %d findings, %v; Scan %d", len(got), err, len(Scan(text)))
	}
	cancel()
	if _, err := ScanContext(ctx, text); !errors.Is(err, context.Canceled) {
		t.Errorf("ScanContext = %v", err)
	}
	if _, err := ContainsContext(ctx, text); !errors.Is(err, context.Canceled) {
		t.Errorf("ContainsContext = %v", err)
	}
	if _, err := RedactContext(ctx, text); !errors.Is(err, context.Canceled) {
		t.Errorf("RedactContext = %v", err)
	}
}
