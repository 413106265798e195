package kv_test

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/hookctl/hookctl/state/kv"
)

func TestDecodeValue(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want any
	}{
		{"object", `{"a":[1,2.5,"x",null,true],"o":{}}`, map[string]any{"a": []any{int64(1), 2.5, "x", nil, true}, "o": map[string]any{}}},
		{"integral float", ` 1.0 `, int64(1)},
		{"exponent", `2e3`, int64(2000)},
		{"negative zero", `-0`, int64(0)},
		{"huge", `1e300`, 1e300},
		{"past int64", `9223372036854775808`, float64(1 << 63)},
		{"min int64", `-9223372036854775808`, int64(math.MinInt64)},
		{"string", `"<a&b>"`, "<a&b>"},
		{"null", "null\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := kv.DecodeValue([]byte(tt.in))
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("DecodeValue(%s) = %#v, %v; want %#v", tt.in, got, err, tt.want)
			}
		})
	}
	for _, in := range []string{"", " ", "hello", "1 2", `{"a":1}x`, `{"a":1}}`, "{", `"\xff`, "1e400", "[1e400]", `{"n":-1e999}`} {
		if got, err := kv.DecodeValue([]byte(in)); err == nil {
			t.Errorf("DecodeValue(%q) = %#v, want an error", in, got)
		}
	}
}

func TestNormalize(t *testing.T) {
	in := map[string]any{"l": []any{1, 2.0, float32(0.5)}, "s": "a\xffb"}
	got, err := kv.Normalize(in)
	want := map[string]any{"l": []any{int64(1), int64(2), 0.5}, "s": "a\uFFFDb"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Normalize = %#v, %v; want %#v", got, err, want)
	}
	in["l"].([]any)[0] = "changed"
	if !reflect.DeepEqual(got, want) {
		t.Error("the normalized value shares a slice with the caller's")
	}
	for _, v := range []any{math.NaN(), math.Inf(-1), []any{math.Inf(1)}, json.Number("1e400"), make(chan int), func() {}} {
		if got, err := kv.Normalize(v); err == nil {
			t.Errorf("Normalize(%T) = %#v, want an error", v, got)
		}
	}
}

func TestDescribe(t *testing.T) {
	tests := map[string]any{
		"null": nil, "a string": "", "a bool": false, "an integer": int64(1), "a non-integer number": 1.5,
		"an array": []any{}, "an object": map[string]any{}, "int": 1,
	}
	for want, v := range tests {
		if got := kv.Describe(v); got != want {
			t.Errorf("Describe(%#v) = %q, want %q", v, got, want)
		}
	}
}
