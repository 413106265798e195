// Package keypart escapes the parts a state key is built of (a session
// id, an agent id, an event name), so that a part holding a "/" cannot be
// read as two parts: session "a" key "b/x" and session "a/b" key "x" must
// be different keys.
package keypart

import "strings"

// Escape returns part with every "%" written "%25" and every "/" written
// "%2F", and is the identity on a part that has neither (a UUID, an event
// name). Escape is injective and its result has no "/", so that parts
// joined with "/" split back into the same parts.
func Escape(part string) string {
	if !strings.ContainsAny(part, "%/") {
		return part
	}
	var b strings.Builder
	b.Grow(len(part) + 8)
	for i := 0; i < len(part); i++ {
		switch c := part[i]; c {
		case '%':
			b.WriteString("%25")
		case '/':
			b.WriteString("%2F")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// None is the part that stands for an absent or empty id (a payload
// without a session_id). Escape never returns it: Escape writes every "%"
// as "%25", so a real id (the id "none" or "%none" included) cannot take
// its key.
const None = "%none"

// ID is Escape for an id that may be absent: None for "", else
// Escape(id).
func ID(id string) string {
	if id == "" {
		return None
	}
	return Escape(id)
}
