package stateurl

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/hookctl/hookctl/internal/natsurl"
)

// Kind is the kind of backend a Backend names.
type Kind string

// The kinds of backend.
const (
	KindFile   Kind = "file"   // a file store (kv.File)
	KindMemory Kind = "memory" // the process's memory (kv.Memory)
	KindNATS   Kind = "nats"   // NATS JetStream (package natsstate)
)

// Memory is the state URL of the memory backend.
const Memory = "memory:"

// Backend says where the state is kept. At most one of NATS, Memory and
// File is set; none is the default file store.
type Backend struct {
	// NATS is the comma-separated nats:// or tls:// URLs of the servers
	// keeping the state in JetStream; empty for the other kinds.
	NATS string
	// Memory keeps the state in the process's memory: a long-running
	// process (serve, the daemon) keeps it while it runs; a one-shot
	// command forgets it when it exits.
	Memory bool
	// File is the file store's path; empty with neither NATS nor Memory:
	// the default path (kv.DefaultPath).
	File string
	// Source says what chose the backend, for messages: "--nats" or
	// "settings.state at FILE:LINE:COL".
	Source string
}

// URL is b as a state URL: what Parse reads back as b (Source aside);
// empty for the default file store.
func (b Backend) URL() string {
	switch {
	case b.NATS != "":
		return b.NATS
	case b.Memory:
		return Memory
	case b.File != "":
		p := filepath.ToSlash(b.File)
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	return ""
}

// Kind is the backend's kind.
func (b Backend) Kind() Kind {
	switch {
	case b.NATS != "":
		return KindNATS
	case b.Memory:
		return KindMemory
	}
	return KindFile
}

// IsDefault reports whether b is the default file store: no setting
// chose a backend.
func (b Backend) IsDefault() bool { return b.NATS == "" && !b.Memory && b.File == "" }

// String describes b for messages, passwords and tokens redacted.
func (b Backend) String() string {
	switch {
	case b.NATS != "":
		return fmt.Sprintf("NATS %s (%s)", natsurl.Redact(b.NATS), b.Source)
	case b.Memory:
		if b.Source != "" {
			return fmt.Sprintf("memory (%s)", b.Source)
		}
		return "memory"
	case b.File != "":
		return "file " + b.File
	}
	return "the default state file"
}

// Same reports whether b and o keep the state in the same place, wherever
// they were written.
func (b Backend) Same(o Backend) bool {
	return b.NATS == o.NATS && b.Memory == o.Memory && b.File == o.File
}

// Error is a state URL that cannot be used: one that does not parse, or
// names a scheme no backend has.
type Error struct {
	// Setting names what gave the URL: "settings.state", "--nats".
	Setting string
	// URL is the URL refused, passwords and tokens redacted; empty when
	// the error is about the whole value (an empty one, say).
	URL string
	// Err says why.
	Err error
}

func (e *Error) Error() string {
	var sb strings.Builder
	if e.Setting != "" {
		sb.WriteString(e.Setting + ": ")
	}
	if e.URL != "" {
		fmt.Fprintf(&sb, "%q: ", e.URL)
	}
	sb.WriteString(e.Err.Error())
	return sb.String()
}

func (e *Error) Unwrap() error { return e.Err }

// ErrUnknownScheme is the cause of an Error for a URL whose scheme no
// backend has.
var ErrUnknownScheme = errors.New("unknown state URL scheme")

// Want says what a state URL may be, for error messages.
const Want = "want memory:, file:///PATH, or nats:// or tls:// URLs"

// Parse parses a state URL (settings.state); setting names it in errors.
// The Backend's Source is left empty.
func Parse(setting, s string) (Backend, error) {
	v := strings.TrimSpace(s)
	fail := func(u string, err error) (Backend, error) {
		return Backend{}, &Error{Setting: setting, URL: natsurl.Redact(u), Err: err}
	}
	lower := strings.ToLower(v)
	switch {
	case v == "":
		return fail("", fmt.Errorf("empty (%s)", Want))
	case lower == Memory || lower == "memory://":
		return Backend{Memory: true}, nil
	case strings.HasPrefix(lower, "memory:"):
		return fail(v, errors.New("memory: takes nothing after the colon"))
	case strings.HasPrefix(lower, "file:"):
		p, err := filePath(v)
		if err != nil {
			return fail(v, err)
		}
		return Backend{File: p}, nil
	}
	if !strings.Contains(v, "://") {
		return fail(v, fmt.Errorf("not a URL (%s)", Want))
	}
	if !strings.Contains(v, ",") {
		// One URL: a scheme other than NATS's is one no backend has. (In
		// a list, natsurl names the URL that is not NATS.)
		if scheme, _, _ := strings.Cut(v, "://"); !natsScheme(scheme) {
			return fail(v, fmt.Errorf("%w %q (%s)", ErrUnknownScheme, scheme, Want))
		}
	}
	return ParseNATS(setting, v)
}

// ParseNATS parses a NATS server list (`hookctl serve --nats`, or
// settings.state naming NATS); setting names it in errors.
func ParseNATS(setting, list string) (Backend, error) {
	urls, err := natsurl.Parse(list)
	if err != nil {
		return Backend{}, &Error{Setting: setting, Err: err}
	}
	return Backend{NATS: strings.Join(urls, ",")}, nil
}

func natsScheme(s string) bool {
	s = strings.ToLower(s)
	return s == "nats" || s == "tls"
}

// filePath is the absolute path a file: URL names.
func filePath(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return "", fmt.Errorf("not a URL: %v", err)
	}
	switch {
	case u.Opaque != "" || !strings.HasPrefix(u.Path, "/"):
		return "", errors.New("a file: URL takes an absolute path, file:///PATH (state_file takes a path relative to the configuration)")
	case u.Host != "" && u.Host != "localhost":
		return "", fmt.Errorf("host %q: a file: URL names a file on this machine (file:///PATH)", u.Host)
	case u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return "", errors.New("a file: URL has no user, query or fragment")
	}
	p := u.Path
	if runtime.GOOS == "windows" && len(p) >= 3 && p[2] == ':' {
		p = p[1:] // file:///C:/dir/kv.json
	}
	if strings.HasSuffix(p, "/") {
		return "", errors.New("a file: URL names a file, not a directory")
	}
	if strings.ContainsRune(p, 0) {
		return "", errors.New("a file path has no NUL byte")
	}
	p = filepath.Clean(filepath.FromSlash(p))
	if !filepath.IsAbs(p) {
		return "", errors.New("a file: URL takes an absolute path, file:///PATH")
	}
	return p, nil
}

// Kinds lists every kind of backend, for tests that must cover them all.
func Kinds() []Kind { return []Kind{KindMemory, KindFile, KindNATS} }
