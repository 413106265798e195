package natsstate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// ErrBadValue is returned when the value stored under a key is not a
// JSON value (another client wrote it to the bucket).
var ErrBadValue = errors.New("natsstate: stored value is not JSON")

// encodeValue returns the JSON form a value is stored as. Whatever
// encoding/json accepts is accepted; NaN, infinities, channels and
// functions are errors, as they are for kv.Memory.
func encodeValue(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("natsstate: value is not JSON-encodable: %w", err)
	}
	return b, nil
}

// decodeValue turns stored JSON back into a value the way the kv package
// does: a number is an int64 when it is an integer within int64's range
// and a float64 otherwise, arrays are []any and objects map[string]any.
func decodeValue(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadValue, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: trailing data", ErrBadValue)
	}
	return numbers(v)
}

// normalizeValue is what a value reads back as once stored: the round
// trip through JSON. CompareAndSwap compares normalized values, so JSON-
// equal values compare equal (1 and 1.0, a struct and its map).
func normalizeValue(v any) (any, error) {
	b, err := encodeValue(v)
	if err != nil {
		return nil, err
	}
	return decodeValue(b)
}

// numbers converts the json.Numbers of a value decoded with UseNumber, in
// place.
func numbers(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		return number(string(x))
	case []any:
		for i, e := range x {
			n, err := numbers(e)
			if err != nil {
				return nil, err
			}
			x[i] = n
		}
	case map[string]any:
		for k, e := range x {
			n, err := numbers(e)
			if err != nil {
				return nil, err
			}
			x[k] = n
		}
	}
	return v, nil
}

func number(s string) (any, error) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, fmt.Errorf("%w: bad number %q", ErrBadValue, s)
	}
	if f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 {
		return int64(f), nil
	}
	return f, nil
}

// describe names the JSON type of a decoded value, for error messages.
func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a bool"
	case int64:
		return "an integer"
	case float64:
		return "a non-integer number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
