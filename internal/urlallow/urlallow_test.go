package urlallow_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/urlallow"
)

func TestCheck(t *testing.T) {
	l := urlallow.MustParse("http://127.0.0.1:1899", "https://api.example.com/api", "http://Example.org/hooks/")
	cases := []struct {
		url string
		ok  bool
	}{
		{"http://127.0.0.1:1899/", true},
		{"http://127.0.0.1:1899", true},
		{"http://127.0.0.1:1899/x/y?q=1", true},
		{"http://127.0.0.1:01899/x", true},
		// The inputs that got through the string-prefix match.
		{"http://127.0.0.1:8088@evil:18999/", false},
		{"http://127.0.0.1:1899@evil:18999/", false},
		{"http://127.0.0.1:18999/", false},
		{"http://127.0.0.1:1899.evil.com/", false},
		{"http://127.0.0.1:1899\\@evil/", false},
		{"https://127.0.0.1:1899/", false},
		{"http://127.0.0.1/", false},
		{"http://user@127.0.0.1:1899/", false},
		// Paths on segment boundaries; default ports made explicit.
		{"https://api.example.com/api", true},
		{"https://api.example.com/api/v1", true},
		{"https://api.example.com:443/api/v1", true},
		{"https://API.example.com./api/v1", true},
		{"https://api.example.com/apix", false},
		{"https://api.example.com/", false},
		{"https://api.example.com/api/../admin", false},
		{"https://api.example.com/api/%2e%2e/admin", false},
		{"https://api.example.com:8443/api", false},
		{"http://api.example.com/api", false},
		{"https://api.example.com.evil.com/api", false},
		{"http://example.org/hooks", true},
		{"http://example.org:80/hooks/a", true},
		{"http://example.org/hooksx", false},
		{"ftp://example.org/hooks", false},
		{"/hooks", false},
		{"http:/example.org/hooks", false},
	}
	for _, tc := range cases {
		err := l.Check(tc.url)
		if (err == nil) != tc.ok {
			t.Errorf("Check(%q) = %v, want allowed %v", tc.url, err, tc.ok)
		}
		if err != nil && !errors.Is(err, urlallow.ErrNotAllowed) {
			t.Errorf("Check(%q) = %v, not ErrNotAllowed", tc.url, err)
		}
	}
	var empty *urlallow.List
	if err := empty.Check("http://anything:1/x"); err != nil {
		t.Errorf("empty list: %v", err)
	}
	if err := empty.Check("http://u:p@anything/"); err == nil {
		t.Error("empty list allowed user info")
	}
}

func TestParseRejects(t *testing.T) {
	for _, bad := range []string{"127.0.0.1:1899", "ftp://x", "http://u:p@x/", "http://x/?q", "http://x/a/../b", "http://", "*"} {
		if _, err := urlallow.Parse([]string{bad}); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

// TestRedirectHopsAreChecked follows a redirect from an allowed URL to one
// that is not: the hop is refused.
func TestRedirectHopsAreChecked(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "leaked") }))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok/out":
			http.Redirect(w, r, other.URL+"/x", http.StatusFound)
		case "/ok/in":
			http.Redirect(w, r, "/ok/final", http.StatusFound)
		default:
			io.WriteString(w, "final")
		}
	}))
	defer srv.Close()
	l := urlallow.MustParse(srv.URL + "/ok")
	following := l.Client(&http.Client{})
	resp, err := following.Get(srv.URL + "/ok/out")
	if err == nil {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		t.Fatalf("redirect out of the list followed: %s", b)
	}
	if !errors.Is(err, urlallow.ErrNotAllowed) {
		t.Fatalf("redirect error %v", err)
	}
	resp, err = following.Get(srv.URL + "/ok/in")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "final" {
		t.Fatalf("redirect inside the list: %q", b)
	}
	// The default client follows nothing.
	resp, err = l.Client(nil).Get(srv.URL + "/ok/out")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || !strings.HasPrefix(resp.Header.Get("Location"), other.URL) {
		t.Fatalf("status %d", resp.StatusCode)
	}
}
