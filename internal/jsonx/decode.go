package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// ErrTrailing is the error of a document followed by more than white
// space: a second JSON value or stray bytes.
var ErrTrailing = errors.New("more than one JSON value")

// RangeError is a number that no float64 holds (1e400): it is refused,
// never turned into an infinity that no JSON output could carry.
type RangeError struct {
	Number string
}

func (e *RangeError) Error() string {
	n := e.Number
	if len(n) > 32 {
		n = n[:32] + "..."
	}
	return fmt.Sprintf("number %s out of range", n)
}

// KindError is a document that is valid JSON but not an object where
// one is wanted.
type KindError struct {
	Kind string // as encoding/json names it: "null", "array", "string", "bool", "number"
}

func (e *KindError) Error() string { return "want a JSON object, got " + e.Kind }

// Decode decodes one JSON document the way every hook payload is decoded,
// under every transport. Numbers follow one rule (Number): an integer
// written as one that fits an int64 is that int64, exactly
// (9007199254740993 stays itself, 1000000 is not 1e+06); any other number
// whose value is a whole number below 2^53 in magnitude is an int64 too
// (1e6, 1.0, -0 and -0.0 are 1000000, 1, 0 and 0); every other number is
// a float64, integers past int64 included (conditions, JavaScript and
// the outputs carry no wider exact integer). A number past float64 is a
// *RangeError. Duplicate keys keep the last value. A syntax error is
// encoding/json's *json.SyntaxError; an empty document io.EOF; anything
// after the value but white space ErrTrailing.
//
// Decode does not bound its input: callers check their limits (size,
// depth, values) before decoding.
func Decode(data []byte) (any, error) {
	// Fast path: encoding/json's float64s are exact below 2^53, so only a
	// document with a larger number, or an error, is decoded again with
	// json.Number (which copies the input into the decoder's buffer).
	var v any
	if json.Unmarshal(data, &v) == nil && wholeFloats(v) {
		if f, ok := v.(float64); ok && f == math.Trunc(f) {
			return int64(f), nil // a whole number alone
		}
		return v, nil
	}
	raw, err := decodeRaw(data)
	if err != nil {
		return nil, err
	}
	return Convert(raw)
}

// maxExactFloat is 2^53: below it, a float64 holds every integer exactly.
const maxExactFloat = 1 << 53

// wholeFloats turns the float64s of v holding whole numbers below 2^53
// into int64, in place, and reports false when v holds a number of 2^53
// or more, whose float64 may not be the number written.
func wholeFloats(v any) bool {
	switch x := v.(type) {
	case float64:
		return math.Abs(x) < maxExactFloat
	case map[string]any:
		for k, e := range x {
			n, changed, ok := whole(e)
			if !ok {
				return false
			}
			if changed {
				x[k] = n
			}
		}
	case []any:
		for i, e := range x {
			n, changed, ok := whole(e)
			if !ok {
				return false
			}
			if changed {
				x[i] = n
			}
		}
	}
	return true
}

// whole is wholeFloats for one element of a map or array: the int64 a
// whole float64 below 2^53 becomes (changed), containers converted in
// place, and false for a number of 2^53 or more.
func whole(e any) (n int64, changed, ok bool) {
	switch e := e.(type) {
	case float64:
		if math.Abs(e) >= maxExactFloat {
			return 0, false, false
		}
		if e == math.Trunc(e) {
			return int64(e), true, true
		}
	case map[string]any, []any:
		return 0, false, wholeFloats(e)
	}
	return 0, false, true
}

// decodeRaw decodes one document, numbers left as json.Number.
func decodeRaw(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if len(bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")) > 0 {
		return nil, ErrTrailing
	}
	return v, nil
}

// DecodeObject is Decode for a document that must be one JSON object:
// any other value is a *KindError.
func DecodeObject(data []byte) (map[string]any, error) {
	var m map[string]any
	if json.Unmarshal(data, &m) == nil && m != nil && wholeFloats(m) {
		return m, nil
	}
	v, err := decodeRaw(data)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, &KindError{Kind: Kind(v)}
	}
	if _, err := Convert(m); err != nil {
		return nil, err
	}
	return m, nil
}

// Kind names the JSON kind of a decoded value as encoding/json does in
// its errors: null, array, string, bool, number or object.
func Kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "bool"
	case json.Number, int64, float64:
		return "number"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// Number converts one json.Number as Decode does: an integer literal
// that fits int64 is that int64; another number is a float64, or an
// int64 when its value is a whole number below 2^53 in magnitude; a
// number past float64 is a *RangeError.
func Number(n json.Number) (any, error) {
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return i, nil
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) {
		return nil, &RangeError{Number: string(n)}
	}
	if math.Abs(f) < maxExactFloat && f == math.Trunc(f) {
		return int64(f), nil
	}
	return f, nil
}

// Convert turns the json.Numbers of a value decoded with UseNumber into
// int64 or float64 as Decode does, in place, and returns it.
func Convert(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		return Number(x)
	case map[string]any:
		for k, e := range x {
			if !needsConvert(e) {
				continue
			}
			c, err := Convert(e)
			if err != nil {
				return nil, err
			}
			x[k] = c
		}
	case []any:
		for i, e := range x {
			if !needsConvert(e) {
				continue
			}
			c, err := Convert(e)
			if err != nil {
				return nil, err
			}
			x[i] = c
		}
	}
	return v, nil
}

func needsConvert(v any) bool {
	switch v.(type) {
	case json.Number, map[string]any, []any:
		return true
	}
	return false
}
