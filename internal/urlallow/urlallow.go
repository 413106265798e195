package urlallow

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strings"
)

// List is a parsed allowlist. The zero List, like an empty one, allows
// every http and https URL that has no user info. A List is immutable and
// safe for concurrent use.
type List struct {
	entries []entry
	raw     []string
}

type entry struct {
	scheme, host, port, path string // path without a trailing slash; "" for any
}

// Parse parses the entries of an allowlist. An entry that is not an
// absolute http or https URL, or that has user info, a query or a
// fragment, is an error naming it.
func Parse(entries []string) (*List, error) {
	l := &List{raw: append([]string(nil), entries...)}
	for _, raw := range entries {
		u, err := url.Parse(strings.TrimSpace(raw))
		if err != nil {
			return nil, fmt.Errorf("http_allow entry %q: %w", raw, err)
		}
		if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.Opaque != "" {
			return nil, fmt.Errorf("http_allow entry %q: want an absolute http or https URL such as https://api.example.com/v1", raw)
		}
		if u.User != nil {
			return nil, fmt.Errorf("http_allow entry %q: user info (user@host) is not allowed", raw)
		}
		if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
			return nil, fmt.Errorf("http_allow entry %q: a query or fragment is not allowed", raw)
		}
		if !cleanPath(u.Path) {
			return nil, fmt.Errorf("http_allow entry %q: the path has . or .. segments", raw)
		}
		e := entry{scheme: u.Scheme, host: host(u), port: port(u), path: strings.TrimRight(u.Path, "/")}
		if e.host == "" {
			return nil, fmt.Errorf("http_allow entry %q: no host", raw)
		}
		l.entries = append(l.entries, e)
	}
	return l, nil
}

// MustParse is Parse for entries known to be valid; it panics otherwise.
func MustParse(entries ...string) *List {
	l, err := Parse(entries)
	if err != nil {
		panic(err)
	}
	return l
}

// Entries returns the entries as written.
func (l *List) Entries() []string {
	if l == nil {
		return nil
	}
	return append([]string(nil), l.raw...)
}

// ErrNotAllowed is what the errors of Check match with errors.Is.
var ErrNotAllowed = errors.New("URL not allowed")

// Error is a URL Check refuses, and why.
type Error struct {
	URL    string // the URL, its password (if any) masked
	Reason string
}

func (e *Error) Error() string { return e.URL + " " + e.Reason }

// Is makes errors.Is(err, ErrNotAllowed) true.
func (e *Error) Is(target error) bool { return target == ErrNotAllowed }

// Check returns nil if raw may be reached, else an *Error that says why.
func (l *List) Check(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return &Error{URL: fmt.Sprintf("%q", raw), Reason: "is not a valid URL: " + err.Error()}
	}
	return l.CheckURL(u)
}

// CheckURL is Check for a parsed URL.
func (l *List) CheckURL(u *url.URL) error {
	refuse := func(reason string) error { return &Error{URL: u.Redacted(), Reason: reason} }
	switch {
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.Opaque != "":
		return refuse("is not an absolute http or https URL")
	case u.User != nil:
		return refuse("has user info (user@host), which is never allowed: send credentials in a header")
	case !cleanPath(u.Path):
		return refuse("has . or .. segments in its path")
	}
	if l == nil || len(l.entries) == 0 {
		return nil
	}
	h, p := host(u), port(u)
	for _, e := range l.entries {
		if e.scheme == u.Scheme && e.host == h && e.port == p && underPath(u.Path, e.path) {
			return nil
		}
	}
	return refuse("is not in the allowed URL list (settings http_allow)")
}

// CheckRedirect returns an http.Client CheckRedirect function that checks
// every redirect hop against l and stops after max hops; max 0 follows no
// redirect (the client returns the redirect response itself).
func (l *List) CheckRedirect(max int) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if max == 0 {
			return http.ErrUseLastResponse
		}
		if len(via) > max {
			return fmt.Errorf("stopped after %d redirects", max)
		}
		if err := l.CheckURL(req.URL); err != nil {
			return fmt.Errorf("redirect: %w", err)
		}
		return nil
	}
}

// Client returns a copy of c (http.DefaultClient's settings when nil)
// whose redirects are checked against l: none is followed unless c
// already followed them, in which case each hop must pass l, as must any
// hop c's own CheckRedirect lets through.
func (l *List) Client(c *http.Client) *http.Client {
	if c == nil {
		return &http.Client{CheckRedirect: l.CheckRedirect(0)}
	}
	cc := *c
	inner := c.CheckRedirect
	cc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if inner != nil {
			if err := inner(req, via); err != nil {
				return err // http.ErrUseLastResponse: no hop is taken
			}
		} else if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		if err := l.CheckURL(req.URL); err != nil {
			return fmt.Errorf("redirect: %w", err)
		}
		return nil
	}
	return &cc
}

func host(u *url.URL) string {
	return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return strings.TrimLeft(p, "0")
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}

// underPath reports whether p is prefix or under it, segment-wise.
func underPath(p, prefix string) bool {
	if prefix == "" {
		return true
	}
	return p == prefix || strings.HasPrefix(p, prefix+"/")
}

// cleanPath reports whether p has no dot segments a server would resolve
// (an empty path and a trailing slash are fine).
func cleanPath(p string) bool {
	if p == "" || p == "/" {
		return true
	}
	c := path.Clean(p)
	return c == p || c+"/" == p
}
