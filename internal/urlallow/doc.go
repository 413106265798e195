// Package urlallow is the URL allowlist of settings http_allow, which
// bounds what http handlers and the hookctl/http script module may reach.
//
// An entry is an absolute http or https URL: a scheme, a host, an optional
// port and an optional path. A URL is allowed when it has the same scheme,
// the same host (compared case-insensitively, without a trailing dot), the
// same port (80 for http and 443 for https when not written) and a path
// under the entry's path on a segment boundary: "/api" allows "/api" and
// "/api/x" but not "/apix". Entries are parsed, never compared as strings,
// so "http://127.0.0.1:8088@evil/" (user info, host evil) and
// "http://127.0.0.1:18999/" are not under "http://127.0.0.1:1899".
//
// A URL with user info (user:password@host) is never allowed: credentials
// go in a header. Nor is a URL whose path has dot segments ("/api/../x"),
// which a server would resolve outside the path that was checked.
package urlallow
