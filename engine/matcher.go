package engine

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"
)

// Matcher is a compiled hook matcher in Claude Code syntax. It is
// immutable and safe for concurrent use.
type Matcher struct {
	src   string
	all   bool
	names []string
	re    *regexp.Regexp
}

// exactMatcherRE is Claude Code's character class for exact matchers;
// narrowMatcherRE is the narrower one of StopFailure.
var (
	exactMatcherRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_ ,|\-]+$`) })
	narrowMatcherRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_|]+$`) })
)

// CompileMatcher compiles a matcher: "" or "*" match everything; a string
// of only letters, digits, '_', ' ', '-', ',' and '|' is an exact name or
// a list of exact names separated by '|' or ','; anything else is an
// unanchored regular expression (Go RE2 syntax, close to JavaScript's for
// the patterns matchers use). Matching is case-sensitive.
func CompileMatcher(src string) (*Matcher, error) {
	return CompileMatcherMode(src, MatcherClaude)
}

// CompileMatcherMode compiles a matcher in one of the syntaxes events use:
// Claude Code's usual one, StopFailure's narrower exact set (letters,
// digits, '_' and '|'), or FileChanged's literal names split on '|'.
func CompileMatcherMode(src string, mode MatcherMode) (*Matcher, error) {
	m := &Matcher{src: src}
	s := strings.TrimSpace(src)
	seps := func(r rune) bool { return r == '|' || r == ',' }
	exact := exactMatcherRE().MatchString(s)
	switch mode {
	case MatcherNarrow:
		seps = func(r rune) bool { return r == '|' }
		exact = narrowMatcherRE().MatchString(s)
	case MatcherLiteral:
		seps = func(r rune) bool { return r == '|' }
		exact = true
	}
	switch {
	case s == "" || s == "*":
		m.all = true
	case exact:
		for _, part := range strings.FieldsFunc(s, seps) {
			if p := strings.TrimSpace(part); p != "" {
				m.names = append(m.names, p)
			}
		}
		if len(m.names) == 0 {
			m.all = true
		}
	default:
		re, err := regexp.Compile(s)
		if err != nil {
			return nil, &MatcherError{Matcher: src, Err: err}
		}
		m.re = re
	}
	return m, nil
}

// String returns the matcher as written.
func (m *Matcher) String() string { return m.src }

// MatchesAll reports whether the matcher matches every value.
func (m *Matcher) MatchesAll() bool { return m == nil || m.all }

// IsRegexp reports whether the matcher is a regular expression.
func (m *Matcher) IsRegexp() bool { return m != nil && m.re != nil }

// Match tests one value.
func (m *Matcher) Match(v string) bool {
	switch {
	case m == nil || m.all:
		return true
	case m.re != nil:
		return m.re.MatchString(v)
	}
	for _, n := range m.names {
		if n == v {
			return true
		}
	}
	return false
}

// matchPayload tests the event's matcher field of payload.
func (m *Matcher) matchPayload(spec *EventSpec, payload map[string]any) bool {
	if m == nil || m.all || spec.MatcherField == "" {
		// Claude Code ignores a matcher on an event without a matcher
		// field; `hookctl validate` warns about it.
		return true
	}
	v, ok := payload[spec.MatcherField].(string)
	if !ok && spec.matcherAlt != "" {
		// OpenClaw payloads spell fields in camelCase (toolName).
		v, _ = payload[spec.matcherAlt].(string)
	}
	if spec.MatchBasename {
		v = path.Base(strings.ReplaceAll(v, `\`, "/"))
	}
	if spec.toolEvent {
		return m.matchTool(v)
	}
	return m.Match(v)
}

// MatcherError is a matcher that is not a valid regular expression.
type MatcherError struct {
	Matcher string
	Err     error
}

func (e *MatcherError) Error() string {
	return fmt.Sprintf("matcher %q is not a valid regular expression: %v", e.Matcher, e.Err)
}

// Unwrap returns the regexp error.
func (e *MatcherError) Unwrap() error { return e.Err }
