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
// under every transport: integers that fit an int64 become int64 (exact:
// 9007199254740993 stays itself, 1000000 is not 1e+06, -0 is 0), every
// other number becomes float64, integers past int64 included (documented:
// conditions, JavaScript and the outputs carry no wider exact integer).
// A number past float64 is a *RangeError. Duplicate keys keep the last
// value. A syntax error is encoding/json's *json.SyntaxError; an empty
// document io.EOF; anything after the value but white space ErrTrailing.
//
// Decode does not bound its input: callers check their limits (size,
// depth, values) before decoding.
func Decode(data []byte) (any, error) {
	v, err := decodeRaw(data)
	if err != nil {
		return nil, err
	}
	return Convert(v)
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

// Number converts one json.Number as Decode does.
func Number(n json.Number) (any, error) {
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return i, nil
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) {
		return nil, &RangeError{Number: string(n)}
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
