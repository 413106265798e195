// Package natsurl checks the NATS server lists hookctl takes for its
// shared state: `hookctl serve --nats URLS` and `settings { state = URLS }`.
//
// A list is one or more URLs separated by commas, as nats.go takes them:
// "nats://10.0.0.1:4222,nats://10.0.0.2:4222". Each is a nats:// or
// tls:// URL with a host, an optional port (4222 when not written) and
// optional user info (user:password@ or token@); a path, a query or a
// fragment is refused, since NATS would ignore it and it is most likely
// a typo.
package natsurl

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Parse checks a server list and returns its URLs, trimmed of spaces.
// The error says which URL is wrong and why.
func Parse(list string) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return nil, errors.New("no NATS server URL")
	}
	var out []string
	for _, raw := range strings.Split(list, ",") {
		s := strings.TrimSpace(raw)
		if s == "" {
			return nil, fmt.Errorf("an empty URL in the list %q", list)
		}
		if err := check(s); err != nil {
			return nil, fmt.Errorf("%q: %w", Redact(s), err)
		}
		out = append(out, s)
	}
	return out, nil
}

func check(s string) error {
	if !strings.Contains(s, "://") {
		return errors.New("not a URL: want nats://HOST[:PORT] or tls://HOST[:PORT]")
	}
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("not a URL: %v", err)
	}
	switch {
	case u.Scheme != "nats" && u.Scheme != "tls":
		return fmt.Errorf("scheme %q: want nats:// or tls://", u.Scheme)
	case u.Hostname() == "":
		return errors.New("no host")
	case u.Path != "" && u.Path != "/" || u.RawQuery != "" || u.Fragment != "":
		return errors.New("a NATS URL has no path, query or fragment")
	}
	if p := u.Port(); p != "" {
		// url.Parse lets only digits through.
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("port %s out of range", p)
		}
	}
	return nil
}

// Redact returns a URL list with the passwords and tokens of its URLs
// replaced by "xxxxx", for messages and status pages.
func Redact(list string) string {
	parts := strings.Split(list, ",")
	for i, p := range parts {
		s := strings.TrimSpace(p)
		if u, err := url.Parse(s); err == nil && u.User != nil {
			if _, has := u.User.Password(); has {
				u.User = url.UserPassword(u.User.Username(), "xxxxx")
			} else {
				u.User = url.User("xxxxx") // a token
			}
			s = u.String()
		}
		parts[i] = s
	}
	return strings.Join(parts, ",")
}
