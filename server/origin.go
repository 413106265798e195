package server

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"strings"
)

// RequestPolicy says which requests a Server answers, so that a web page
// in a browser cannot reach it: a page can POST a "simple" request
// (text/plain, no preflight) to 127.0.0.1, and after DNS rebinding (its
// own name resolving to 127.0.0.1) read the replies.
//
//   - Host: a request whose Host header names neither a loopback address
//     ("localhost", 127.0.0.0/8, [::1]) nor one of AllowedHosts is refused
//     with 403, unless AnyHost. The header is parsed strictly (see
//     splitHost): its port, if any, must be a number and the port the
//     connection came in on (or, for an allowed "name:port", that port).
//     An empty Host is refused on HTTP/1.1 and answered on HTTP/1.0 (no
//     browser sends that); a request target in absolute form
//     (http://host/path) is refused, since net/http then drops the Host
//     header.
//   - Origin: a request carrying an Origin header (browsers send it with
//     every POST, and with every cross-origin request) is refused with 403
//     unless the origin is one of AllowedOrigins.
//   - Content-Type: a POST to /claude or /v1/fire whose body is not
//     declared application/json (parameters such as charset aside) is
//     refused with 415: no browser sends that without a CORS preflight,
//     which the server never answers.
//
// Host and Origin are checked on every endpoint, before anything else.
type RequestPolicy struct {
	// AllowedHosts are Host values answered besides loopback names: a
	// name or address alone matches it with no port or the listening
	// port, "name:port" only on that port. Compared without regard to
	// case.
	AllowedHosts []string
	// AnyHost answers every Host (a server reached by names it cannot
	// know, behind a load balancer).
	AnyHost bool
	// AllowedOrigins are the Origin values (scheme://host[:port]) a
	// request may carry. Compared without regard to case.
	AllowedOrigins []string
}

// WithRequestPolicy sets the Host, Origin and Content-Type checks (see
// RequestPolicy). Without it a Server answers only loopback Host names,
// no request with an Origin, and only application/json bodies.
func WithRequestPolicy(p RequestPolicy) ServerOption {
	return func(s *Server) { s.policy = p }
}

// ForbiddenError is a request refused for its Host or Origin header (403).
type ForbiddenError struct {
	// Header is "Host" or "Origin"; Value is what the request sent.
	Header, Value string
	// Hint says which flag would allow it.
	Hint string
}

func (e *ForbiddenError) Error() string {
	return fmt.Sprintf("refused: %s %q is not allowed (requests from web browsers are refused; %s)", e.Header, e.Value, e.Hint)
}

// ContentTypeError is a body not declared application/json (415).
type ContentTypeError struct {
	// ContentType is the request's Content-Type header ("" when none).
	ContentType string
}

func (e *ContentTypeError) Error() string {
	if e.ContentType == "" {
		return "unsupported media type: no Content-Type; send the body as application/json"
	}
	return fmt.Sprintf("unsupported media type %q: send the body as application/json", e.ContentType)
}

// checkOrigin refuses a request whose Host or Origin the policy does not
// allow.
func (p *RequestPolicy) checkOrigin(r *http.Request) error {
	if !p.AnyHost {
		if err := p.checkHost(r); err != nil {
			return err
		}
	}
	if vs := r.Header.Values("Origin"); len(vs) > 0 {
		for _, v := range vs {
			if !containsFold(p.AllowedOrigins, v) {
				return &ForbiddenError{Header: "Origin", Value: v,
					Hint: "serve answers a request with an Origin only for an origin given with --allowed-origin"}
			}
		}
	}
	return nil
}

// checkHost refuses a request whose Host the policy does not allow, an
// HTTP/1.1 request with an empty Host, and a request target in absolute
// form (http://host/path, as sent to a proxy): net/http takes the host
// from the target and drops the Host header, which could then not be
// checked.
func (p *RequestPolicy) checkHost(r *http.Request) error {
	const hint = "serve answers loopback names and the names given with --allowed-host, with no port or the port it listens on"
	if t := r.RequestURI; t != "" && t[0] != '/' && t != "*" {
		return &ForbiddenError{Header: "Host", Value: r.Host,
			Hint: "a request target in absolute form (" + truncate(t, 64) + ") is refused: send the path alone"}
	}
	if r.Host == "" {
		if r.ProtoAtLeast(1, 1) {
			return &ForbiddenError{Header: "Host", Value: "",
				Hint: "an HTTP/1.1 request must name the host; " + hint}
		}
		return nil // HTTP/1.0 without a Host: no browser sends that
	}
	if !p.hostAllowed(r.Host, localPort(r)) {
		return &ForbiddenError{Header: "Host", Value: r.Host, Hint: hint}
	}
	return nil
}

// localPort is the port the request's connection was accepted on, 0 when
// unknown (a handler called without an http.Server).
func localPort(r *http.Request) int {
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr); ok {
		return a.Port
	}
	return 0
}

// hostAllowed reports whether a Host header names a loopback address or
// an allowed host, with no port or a port the policy accepts: the
// listening port (any port when it is unknown, listenPort 0) or, for an
// allowed "name:port", that port.
func (p *RequestPolicy) hostAllowed(hostport string, listenPort int) bool {
	host, port, ok := splitHost(hostport)
	if !ok {
		return false
	}
	onPort := port < 0 || listenPort == 0 || port == listenPort
	if onPort && isLoopbackName(host) {
		return true
	}
	for _, a := range p.AllowedHosts {
		ah, aport, ok := splitHost(a)
		if !ok || !strings.EqualFold(ah, host) {
			continue
		}
		if aport >= 0 {
			if port == aport {
				return true
			}
			continue
		}
		if onPort {
			return true
		}
	}
	return false
}

// isLoopbackName reports whether host is "localhost" or a loopback IP
// address.
func isLoopbackName(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// splitHost parses a Host header strictly: a name or IPv4 address, or an
// IPv6 address in brackets, optionally followed by ":port" where port is
// a decimal number from 1 to 65535. port is -1 when there is none. ok is
// false for anything else ("localhost:8765.evil.com", "::1", "[x]", "a:").
func splitHost(hostport string) (host string, port int, ok bool) {
	host, port = hostport, -1
	if strings.HasPrefix(hostport, "[") {
		i := strings.IndexByte(hostport, ']')
		if i < 0 {
			return "", 0, false
		}
		host = hostport[1:i]
		if ip := net.ParseIP(host); ip == nil || !strings.Contains(host, ":") {
			return "", 0, false
		}
		rest := hostport[i+1:]
		if rest == "" {
			return host, -1, true
		}
		if rest[0] != ':' {
			return "", 0, false
		}
		port, ok = parsePort(rest[1:])
		return host, port, ok
	}
	if i := strings.IndexByte(hostport, ':'); i >= 0 {
		host = hostport[:i]
		if port, ok = parsePort(hostport[i+1:]); !ok {
			return "", 0, false
		}
	}
	if host == "" || strings.ContainsAny(host, "[]:/@ \t") {
		return "", 0, false
	}
	return host, port, true
}

// parsePort parses a decimal port from 1 to 65535.
func parsePort(s string) (int, bool) {
	if s == "" || len(s) > 5 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, n >= 1 && n <= 65535
}

// truncate shortens s to at most n bytes for an error message.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func containsFold(list []string, v string) bool {
	for _, a := range list {
		if strings.EqualFold(a, v) {
			return true
		}
	}
	return false
}

// checkContentType refuses a body not declared application/json.
func checkContentType(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	if ct == "application/json" {
		return nil // the common case, without parsing's allocations
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return &ContentTypeError{ContentType: ct}
	}
	return nil
}

// ValidHost reports whether h is a Host value the server can match: a
// name or IPv4 address, or an IPv6 address in brackets, with an optional
// decimal ":port" (what --allowed-host takes).
func ValidHost(h string) bool {
	_, _, ok := splitHost(h)
	return ok
}
