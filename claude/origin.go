package claude

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
//     ("localhost", 127.0.0.0/8, ::1) nor one of AllowedHosts is refused
//     with 403, unless AnyHost. An empty Host (HTTP/1.0) is answered: a
//     browser always sends one.
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
	// name or address alone matches it on any port, "name:port" only on
	// that port. Compared without regard to case.
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
	if !p.AnyHost && !p.hostAllowed(r.Host) {
		return &ForbiddenError{Header: "Host", Value: r.Host,
			Hint: "serve answers loopback names and the names given with --allowed-host"}
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

// hostAllowed reports whether a Host header names a loopback address or
// an allowed host.
func (p *RequestPolicy) hostAllowed(hostport string) bool {
	if hostport == "" {
		return true
	}
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = unbracket(host)
	if strings.EqualFold(host, "localhost") {
		return true
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return true
	}
	for _, a := range p.AllowedHosts {
		if strings.EqualFold(a, hostport) {
			return true
		}
		if _, _, err := net.SplitHostPort(a); err != nil && strings.EqualFold(unbracket(a), host) {
			return true // no port in the allowed name: any port
		}
	}
	return false
}

// unbracket strips the brackets of an IPv6 address without a port.
func unbracket(h string) string {
	if len(h) >= 2 && h[0] == '[' && h[len(h)-1] == ']' {
		return h[1 : len(h)-1]
	}
	return h
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
