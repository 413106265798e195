package jsonx_test

import (
	"encoding/json"
	"errors"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/jsonx"
)

func TestConvert(t *testing.T) {
	dec := json.NewDecoder(strings.NewReader(`{"i": 3, "f": 1.5, "big": 1e300, "l": [2, {"n": -7}]}`))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"i": int64(3), "f": 1.5, "big": 1e300, "l": []any{int64(2), map[string]any{"n": int64(-7)}}}
	if got, err := jsonx.Convert(v); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("%#v", got)
	}
}

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{"additionalContext": "additional_context", "stop_reason": "stop_reason", "updatedMCPToolOutput": "updated_m_c_p_tool_output", "Decision": "decision"} {
		if got := jsonx.SnakeCase(in); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

func TestDecode(t *testing.T) {
	for in, want := range map[string]any{
		`9007199254740993`:      int64(9007199254740993),
		`1000000`:               int64(1000000),
		`-0`:                    int64(0),
		`9223372036854775807`:   int64(9223372036854775807),
		`-9223372036854775808`:  int64(-9223372036854775808),
		`9223372036854775808`:   float64(9223372036854775808),
		`12345678901234567890`:  float64(12345678901234567890),
		`1e6`:                   float64(1e6),
		`1.5`:                   1.5,
		` {"a":[1,{"b":2.5}]} `: map[string]any{"a": []any{int64(1), map[string]any{"b": 2.5}}},
		`{"a":1,"a":2}`:         map[string]any{"a": int64(2)},
		`"\u00e9"`:              "é",
	} {
		got, err := jsonx.Decode([]byte(in))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %#v, %v; want %#v", in, got, err, want)
		}
	}
	if v, err := jsonx.Decode([]byte(`-0.0`)); err != nil || v != any(math.Copysign(0, -1)) || !math.Signbit(v.(float64)) {
		t.Errorf("-0.0: %#v, %v", v, err)
	}
}

func TestDecodeRefuses(t *testing.T) {
	var re *jsonx.RangeError
	for _, in := range []string{`1e400`, `{"a":[-1e400]}`} {
		if _, err := jsonx.Decode([]byte(in)); !errors.As(err, &re) {
			t.Errorf("%s: %v, want a *RangeError", in, err)
		}
	}
	for _, in := range []string{`{} ]`, `{} {}`, `1 2`, `{}x`} {
		if _, err := jsonx.Decode([]byte(in)); !errors.Is(err, jsonx.ErrTrailing) {
			t.Errorf("%s: %v, want ErrTrailing", in, err)
		}
	}
	var se *json.SyntaxError
	if _, err := jsonx.Decode([]byte(`{"a":}`)); !errors.As(err, &se) {
		t.Errorf("syntax: %v", err)
	}
	if _, err := jsonx.Decode([]byte(" \n")); !errors.Is(err, io.EOF) {
		t.Errorf("empty: %v", err)
	}
	var ke *jsonx.KindError
	for _, in := range []string{`null`, `[1]`, `"s"`, `true`, `1`} {
		if _, err := jsonx.DecodeObject([]byte(in)); !errors.As(err, &ke) {
			t.Errorf("%s: %v, want a *KindError", in, err)
		}
	}
}
