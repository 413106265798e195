package kv

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Store is a key-value store for hook state. Values are JSON values:
// strings, numbers, bools, nil, []any and map[string]any (anything else
// that encoding/json can encode is accepted and stored as its JSON form).
//
// Values come back the way they would from JSON: a number is an int64
// when it is an integer within int64's range and a float64 otherwise,
// arrays are []any and objects map[string]any. A returned value is the
// caller's own copy.
//
// A ttl of 0 means no expiry; a negative ttl is an error. An expired key
// behaves exactly like a missing one.
type Store interface {
	// Get returns the value of key; ok is false when the key is missing or
	// expired.
	Get(ctx context.Context, key string) (value any, ok bool, err error)
	// Set stores value under key, replacing any value and expiry it had.
	Set(ctx context.Context, key string, value any, ttl time.Duration) error
	// Delete removes key. Deleting a missing key is not an error.
	Delete(ctx context.Context, key string) error
	// Incr atomically adds delta to the integer under key and returns the
	// result. A missing or expired key counts as 0 and is created with
	// ttl (0 = no expiry); an existing key keeps its expiry whatever ttl
	// is. A value that is not an integer, or a result that would overflow
	// int64, is an error and leaves the value unchanged.
	Incr(ctx context.Context, key string, delta int64, ttl time.Duration) (int64, error)
	// CompareAndSwap atomically replaces the value of key with new, and
	// its expiry with ttl (0 = no expiry), if the current value is
	// JSON-equal to old. old == nil means "key absent": the swap happens
	// only if the key is missing or expired. It reports whether it
	// swapped.
	CompareAndSwap(ctx context.Context, key string, old, new any, ttl time.Duration) (bool, error)
	// Keys returns the unexpired keys that start with prefix, sorted.
	Keys(ctx context.Context, prefix string) ([]string, error)
}

// Errors reported by stores. Test for them with errors.Is.
var (
	// ErrNotInteger is returned by Incr when the value under the key is
	// not an integer.
	ErrNotInteger = errors.New("kv: value is not an integer")
	// ErrCorrupt is returned by a File whose manifest, or the file of the
	// key an operation needs, cannot be parsed. The message names the
	// file; the file is left untouched.
	ErrCorrupt = errors.New("kv: corrupt state file")
	// ErrEmptyKey is returned for an empty key.
	ErrEmptyKey = errors.New("kv: empty key")
)

// Option configures a store.
type Option func(*options)

type options struct {
	now      func() time.Time
	lockWait time.Duration
}

// WithClock makes the store read the time from now instead of time.Now.
// It is meant for tests of expiry.
func WithClock(now func() time.Time) Option {
	return func(o *options) {
		if now != nil {
			o.now = now
		}
	}
}

// WithLockWait bounds how long an operation of a File waits for a lock
// another process holds, whatever its context allows (DefaultLockWait when
// not given or not positive). Memory ignores it.
func WithLockWait(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.lockWait = d
		}
	}
}

func buildOptions(opts []Option) options {
	o := options{now: time.Now, lockWait: DefaultLockWait}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	return o
}

// entry is one stored value. exp is the zero time for "never expires".
type entry struct {
	value any
	exp   time.Time
}

func (e entry) expired(now time.Time) bool {
	return !e.exp.IsZero() && !now.Before(e.exp)
}

func expiry(now time.Time, ttl time.Duration) time.Time {
	if ttl <= 0 {
		return time.Time{}
	}
	return now.Add(ttl)
}

func checkKey(key string) error {
	if key == "" {
		return ErrEmptyKey
	}
	return nil
}

func checkTTL(ttl time.Duration) error {
	if ttl < 0 {
		return fmt.Errorf("kv: negative ttl %v", ttl)
	}
	return nil
}

// table holds the entries of a store. Memory keeps one for its lifetime;
// File builds one from the state file for every operation. The methods
// take the current time and never look at a clock themselves, so both
// stores share the exact same semantics.
type table map[string]entry

// lookup returns the live entry under key.
func (t table) lookup(key string, now time.Time) (entry, bool) {
	e, ok := t[key]
	if !ok || e.expired(now) {
		return entry{}, false
	}
	return e, true
}

// set stores an already normalized value.
func (t table) set(key string, value any, ttl time.Duration, now time.Time) {
	t[key] = entry{value: value, exp: expiry(now, ttl)}
}

// delete reports whether a live entry was removed; an expired entry is
// removed too but does not count as a change a caller must persist.
func (t table) delete(key string, now time.Time) bool {
	e, ok := t[key]
	if !ok {
		return false
	}
	delete(t, key)
	return !e.expired(now)
}

func (t table) incr(key string, delta int64, ttl time.Duration, now time.Time) (int64, error) {
	e, ok := t.lookup(key, now)
	var cur int64
	if ok {
		n, isInt := e.value.(int64)
		if !isInt {
			return 0, fmt.Errorf("kv: incr %q: %w (have %s)", key, ErrNotInteger, Describe(e.value))
		}
		cur = n
	} else {
		e = entry{exp: expiry(now, ttl)}
	}
	sum := cur + delta
	if (delta > 0 && sum < cur) || (delta < 0 && sum > cur) {
		return 0, fmt.Errorf("kv: incr %q: %d%+d overflows int64", key, cur, delta)
	}
	e.value = sum
	t[key] = e
	return sum, nil
}

// cas takes normalized old and new values.
func (t table) cas(key string, old, new any, ttl time.Duration, now time.Time) bool {
	e, ok := t.lookup(key, now)
	if old == nil {
		if ok {
			return false
		}
	} else if !ok || !reflect.DeepEqual(e.value, old) {
		return false
	}
	t.set(key, new, ttl, now)
	return true
}

func (t table) keys(prefix string, now time.Time) []string {
	ks := []string{}
	for k, e := range t {
		if strings.HasPrefix(k, prefix) && !e.expired(now) {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks
}

// purge drops expired entries and reports whether it dropped any.
func (t table) purge(now time.Time) bool {
	n := len(t)
	for k, e := range t {
		if e.expired(now) {
			delete(t, k)
		}
	}
	return len(t) != n
}

// Describe names the JSON type of a value as a Store returns it, with
// its article ("null", "a string", "a bool", "an integer", "a
// non-integer number", "an array", "an object"), for error messages. Any
// other value is named by its Go type.
func Describe(v any) string {
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

// Normalize returns v as a Store gives it back: the value a JSON round
// trip would give, one of nil, bool, string, int64, float64, []any or
// map[string]any, sharing nothing with v. A number is an int64 when it is
// an integer within int64's range and a float64 otherwise. Whatever
// encoding/json accepts is accepted; NaN, infinities, channels and
// functions are errors. Stores keep and compare normalized values, which
// is what makes CompareAndSwap compare JSON-equal values; an
// implementation of Store outside this package normalizes with it to
// keep the same semantics.
func Normalize(v any) (any, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case bool:
		return x, nil
	case string:
		if utf8.ValidString(x) {
			return x, nil
		}
	case int:
		return int64(x), nil
	case int64:
		return x, nil
	case int32:
		return int64(x), nil
	case float64:
		return floatNumber(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("kv: value is not JSON-encodable: %w", err)
	}
	return DecodeValue(b)
}

// DecodeValue decodes b, which must hold exactly one JSON value (white
// space around it aside), into a value of the form Normalize returns. It
// is an error if b is not JSON, holds more than one value, or holds a
// number that a float64 cannot represent. It is how a Store whose values
// live outside the process reads back what json.Marshal wrote.
func DecodeValue(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("kv: decoding value: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("kv: decoding value: unexpected data after the value")
	}
	return fromJSON(v)
}

// fromJSON converts the json.Numbers of a value decoded with UseNumber,
// in place.
func fromJSON(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		return jsonNumber(string(x))
	case []any:
		for i, e := range x {
			n, err := fromJSON(e)
			if err != nil {
				return nil, err
			}
			x[i] = n
		}
	case map[string]any:
		for k, e := range x {
			n, err := fromJSON(e)
			if err != nil {
				return nil, err
			}
			x[k] = n
		}
	}
	return v, nil
}

func jsonNumber(s string) (any, error) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, fmt.Errorf("kv: bad number %q: %w", s, err)
	}
	return floatNumber(f)
}

func floatNumber(f float64) (any, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("kv: value is not JSON-encodable: %v", f)
	}
	if f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63 {
		return int64(f), nil
	}
	return f, nil
}

// clone copies the containers of a normalized value so that a caller can
// never reach into a store's state.
func clone(v any) any {
	switch x := v.(type) {
	case []any:
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = clone(e)
		}
		return c
	case map[string]any:
		c := make(map[string]any, len(x))
		for k, e := range x {
			c[k] = clone(e)
		}
		return c
	}
	return v
}
