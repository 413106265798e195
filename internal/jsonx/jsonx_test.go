package jsonx_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/internal/jsonx"
)

func TestNumbers(t *testing.T) {
	dec := json.NewDecoder(strings.NewReader(`{"i": 3, "f": 1.5, "big": 1e300, "l": [2, {"n": -7}]}`))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"i": int64(3), "f": 1.5, "big": 1e300, "l": []any{int64(2), map[string]any{"n": int64(-7)}}}
	if got := jsonx.Numbers(v); !reflect.DeepEqual(got, want) {
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
