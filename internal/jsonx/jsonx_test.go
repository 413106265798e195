package jsonx_test

import (
	"encoding/json"
	"errors"
	"io"
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
		`1e6`:                   int64(1000000),
		`1.0`:                   int64(1),
		`-0.0`:                  int64(0),
		`1e17`:                  float64(1e17),
		`9007199254740993.0`:    float64(9007199254740992),
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
}

// TestDecodePathsAgree: a number decodes to the same value whether the
// document takes the fast path (float64s below 2^53) or, because a
// number of 2^53 or more is beside it, the json.Number path.
func TestDecodePathsAgree(t *testing.T) {
	for _, n := range []string{"0", "-0", "-0.0", "1", "1.0", "1.5", "1e6", "1E2", "-7", "0.1", "1e-7", "1e-400",
		"9007199254740991", "-9007199254740991", "4503599627370495.5", "123456789.000", "2.5e3", "1e15"} {
		fast, err := jsonx.Decode([]byte(`[` + n + `]`))
		if err != nil {
			t.Fatal(n, err)
		}
		slow, err := jsonx.Decode([]byte(`[` + n + `, 9007199254740993]`))
		if err != nil {
			t.Fatal(n, err)
		}
		alone, err := jsonx.Decode([]byte(n))
		if err != nil {
			t.Fatal(n, err)
		}
		obj, err := jsonx.DecodeObject([]byte(`{"n":` + n + `}`))
		if err != nil {
			t.Fatal(n, err)
		}
		f, s := fast.([]any)[0], slow.([]any)[0]
		if f != s || f != alone || f != obj["n"] {
			t.Errorf("%s: fast %#v, slow %#v, alone %#v, in an object %#v", n, f, s, alone, obj["n"])
		}
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
