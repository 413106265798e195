package natsstate

import (
	"errors"
	"strings"
)

// maxSubjectLen bounds the encoded subject of a key. NATS carries the
// subject in a protocol line whose default limit is 4096 bytes, which
// also holds the reply inbox and the sizes.
const maxSubjectLen = 3072

// ErrKeyTooLong is returned for a key whose encoded subject would not fit
// in a NATS protocol line.
var ErrKeyTooLong = errors.New("natsstate: key too long")

// A kv key is mapped onto NATS subject tokens, so that the key's
// "/"-separated hierarchy (scope/id/name) is the subject's hierarchy and a
// prefix that ends at a "/" is a subject filter:
//
//   - the key is split at every "/" into segments;
//   - in each segment, ASCII letters, digits, "-" and "_" stand for
//     themselves and every other byte b is written "=XX", XX being b in
//     upper-case hex (so "." becomes "=2E" and "=" becomes "=3D");
//   - an empty segment (from a leading, trailing or doubled "/") is
//     written "=", which no non-empty segment encodes to;
//   - the encoded segments are joined with ".".
//
// The mapping is a bijection between keys and the subjects it produces:
// decodeKey rejects any token that encodeSegment would not have written.
// Encoding a segment byte by byte maps a prefix of a segment to a prefix
// of its encoding, so "a/b/c" starts with "a/b/" exactly when its subject
// matches "a.b.>".

// plain reports whether b stands for itself in an encoded segment.
func plain(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '-' || b == '_'
}

const hexDigits = "0123456789ABCDEF"

// appendSegment appends the encoding of one segment (no "/" in it).
func appendSegment(dst []byte, seg string) []byte {
	if seg == "" {
		return append(dst, '=')
	}
	for i := 0; i < len(seg); i++ {
		b := seg[i]
		if plain(b) {
			dst = append(dst, b)
			continue
		}
		dst = append(dst, '=', hexDigits[b>>4], hexDigits[b&0xF])
	}
	return dst
}

// encodeKey returns the subject tokens of key, joined with ".".
func encodeKey(key string) string {
	dst := make([]byte, 0, len(key)+8)
	for i, seg := range strings.Split(key, "/") {
		if i > 0 {
			dst = append(dst, '.')
		}
		dst = appendSegment(dst, seg)
	}
	return string(dst)
}

// encodeSegment is the encoding of one segment, for subject tokens built
// from arbitrary text (the audit event name).
func encodeSegment(s string) string { return string(appendSegment(nil, s)) }

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// decodeKey reverses encodeKey. It reports false for a subject that
// encodeKey cannot have produced (a key some other client wrote to the
// bucket), which the store then ignores.
func decodeKey(subject string) (string, bool) {
	if subject == "" {
		return "", false
	}
	var out strings.Builder
	out.Grow(len(subject))
	for i, tok := range strings.Split(subject, ".") {
		if i > 0 {
			out.WriteByte('/')
		}
		if tok == "=" {
			continue
		}
		if tok == "" {
			return "", false
		}
		for j := 0; j < len(tok); j++ {
			c := tok[j]
			if plain(c) {
				out.WriteByte(c)
				continue
			}
			if c != '=' || j+2 >= len(tok) {
				return "", false
			}
			hi, ok1 := unhex(tok[j+1])
			lo, ok2 := unhex(tok[j+2])
			b := hi<<4 | lo
			if !ok1 || !ok2 || plain(b) || b == '/' {
				return "", false
			}
			out.WriteByte(b)
			j += 2
		}
	}
	return out.String(), true
}

// prefixFilter returns the subject filter, relative to the bucket, that
// every key starting with prefix matches: the encoded segments of prefix
// up to its last "/" followed by ">", or ">" alone when prefix has no
// "/". The keys the filter returns must still be checked against prefix,
// since a filter cannot match part of a token.
func prefixFilter(prefix string) string {
	i := strings.LastIndexByte(prefix, '/')
	if i < 0 {
		return ">"
	}
	return encodeKey(prefix[:i]) + ".>"
}
