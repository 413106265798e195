// Package jsonlimit bounds a JSON document before it is decoded: its
// bytes, its nesting and its number of values are counted as it is read,
// and a document past any of them is refused before it becomes Go
// values. Every transport reads hook input through it (the limits of one
// input), and so does a protocol decoding a JSON document carried in a
// string field.
package jsonlimit

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/hookctl/hookctl/internal/jsonx"
)

// Default bounds of one hook input.
const (
	// DefaultMaxBytes bounds the bytes of one document.
	DefaultMaxBytes = 64 << 20
	// DefaultMaxDepth bounds how deeply its objects and arrays nest.
	DefaultMaxDepth = 256
	// DefaultMaxValues bounds how many JSON values it holds (objects,
	// arrays, strings, numbers, booleans and nulls; object keys are not
	// counted).
	DefaultMaxValues = 1_000_000
)

// Limits bound one document; a zero field takes the default.
type Limits struct {
	MaxBytes  int64
	MaxDepth  int
	MaxValues int
}

// Names of the limits, as LimitError.Limit gives them.
const (
	LimitBytes  = "max-body"
	LimitDepth  = "max-depth"
	LimitValues = "max-values"
)

// LimitError is a document refused because it is past one of its
// limits: Limit names it (LimitBytes, LimitDepth or LimitValues) and Max
// is its value.
type LimitError struct {
	Limit string
	Max   int64
}

func (e *LimitError) Error() string {
	switch e.Limit {
	case LimitBytes:
		return fmt.Sprintf("larger than %d bytes (the %s limit)", e.Max, e.Limit)
	case LimitDepth:
		return fmt.Sprintf("nested deeper than %d levels (the %s limit)", e.Max, e.Limit)
	default:
		return fmt.Sprintf("more than %d JSON values (the %s limit)", e.Max, e.Limit)
	}
}

// ErrBudget is input that did not fit in the memory left: it may fit
// later.
var ErrBudget = errors.New("no memory left for more input")

// ValueCost estimates the memory one decoded JSON value takes beyond its
// bytes (an interface, a map or slice header, a map entry): a body of many
// tiny values decodes to far more memory than its size.
const ValueCost = 128

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxValues <= 0 {
		l.MaxValues = DefaultMaxValues
	}
	return l
}

// Read reads r to its end within lim and returns its bytes, which are
// then known to decode to at most lim.MaxValues values nested at most
// lim.MaxDepth deep. It stops reading at the first byte past a limit (a
// *LimitError). When reserve is not nil, the estimated decoded size of
// the input is reserved with it as it is read, and ErrBudget returned if
// it does not fit; the caller releases what was reserved (the reserved
// result), also on error.
func Read(r io.Reader, lim Limits, reserve func(n int64) bool) (data []byte, reserved int64, err error) {
	lim = lim.withDefaults()
	s := scanner{maxDepth: lim.MaxDepth, maxValues: lim.MaxValues}
	buf := make([]byte, 0, 512)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		// Never read past the limit by more than one byte.
		room := min(int64(cap(buf)-len(buf)), lim.MaxBytes+1-int64(len(buf)))
		n, rerr := r.Read(buf[len(buf) : len(buf)+int(room)])
		chunk := buf[len(buf) : len(buf)+n]
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > lim.MaxBytes {
			return nil, reserved, &LimitError{Limit: LimitBytes, Max: lim.MaxBytes}
		}
		before := s.values
		if err := s.feed(chunk); err != nil {
			return nil, reserved, err
		}
		if reserve != nil && n > 0 {
			cost := 2*int64(n) + ValueCost*int64(s.values-before)
			if !reserve(cost) {
				return nil, reserved, ErrBudget
			}
			reserved += cost
		}
		if rerr == io.EOF {
			return buf, reserved, nil
		}
		if rerr != nil {
			return nil, reserved, rerr
		}
	}
}

// Check checks a document read whole against the default limits before
// it is decoded: one past a limit is a *LimitError.
func Check(data []byte) error {
	lim := Limits{}.withDefaults()
	if int64(len(data)) > lim.MaxBytes {
		return &LimitError{Limit: LimitBytes, Max: lim.MaxBytes}
	}
	// Scanned where it is: a document read whole is not copied again.
	s := scanner{maxDepth: lim.MaxDepth, maxValues: lim.MaxValues}
	return s.feed(data)
}

// DecodeValue decodes a JSON document within the default limits, with
// the one payload decoder (jsonx.Decode): a document past a limit is a
// *LimitError, one that is not JSON the decoder's error.
func DecodeValue(data []byte) (any, error) {
	if err := Check(data); err != nil {
		return nil, err
	}
	return jsonx.Decode(data)
}

// scanner follows the structure of JSON text as it streams by, counting
// values and nesting without decoding anything. It is exact for valid
// JSON; invalid JSON is left to the decoder that runs afterwards (it
// checks the whole text before it builds anything).
type scanner struct {
	maxDepth, maxValues int
	values              int
	// stack holds, per open container, whether it is an object.
	stack     []bool
	inString  bool
	escaped   bool
	inScalar  bool // a number or a literal (true, false, null)
	expectKey bool // the next string in this object is a key
}

func (s *scanner) feed(p []byte) error {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if s.inString {
			if s.escaped {
				s.escaped = false
				continue
			}
			// Skip to the next quote or backslash.
			j := bytes.IndexAny(p[i:], `"\`)
			if j < 0 {
				return nil
			}
			i += j
			if p[i] == '\\' {
				s.escaped = true
			} else {
				s.inString = false
			}
			continue
		}
		if s.inScalar {
			if isScalarByte(c) {
				continue
			}
			s.inScalar = false
		}
		switch c {
		case ' ', '\t', '\n', '\r', ':':
		case '"':
			s.inString = true
			if s.expectKey && len(s.stack) > 0 && s.stack[len(s.stack)-1] {
				s.expectKey = false // a key, not a value
				continue
			}
			if err := s.value(); err != nil {
				return err
			}
		case '{', '[':
			if err := s.value(); err != nil {
				return err
			}
			if len(s.stack) >= s.maxDepth {
				return &LimitError{Limit: LimitDepth, Max: int64(s.maxDepth)}
			}
			s.stack = append(s.stack, c == '{')
			s.expectKey = c == '{'
		case '}', ']':
			if len(s.stack) > 0 {
				s.stack = s.stack[:len(s.stack)-1]
			}
			s.expectKey = false
		case ',':
			s.expectKey = len(s.stack) > 0 && s.stack[len(s.stack)-1]
		default:
			if isScalarByte(c) {
				s.inScalar = true
				if err := s.value(); err != nil {
					return err
				}
			}
			// Anything else is invalid JSON: the decoder says so.
		}
	}
	return nil
}

func (s *scanner) value() error {
	s.values++
	if s.values > s.maxValues {
		return &LimitError{Limit: LimitValues, Max: int64(s.maxValues)}
	}
	return nil
}

// isScalarByte reports whether c can be part of a number or a literal.
func isScalarByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '+' || c == '.'
}
