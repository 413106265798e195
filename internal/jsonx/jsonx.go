// Package jsonx holds the two conversions every reader of hook JSON needs:
// numbers decoded with json.Decoder.UseNumber turned into the int64 and
// float64 the engine works with, and camelCase field names turned into
// snake_case.
package jsonx

import (
	"encoding/json"
	"strings"
)

// Numbers turns the json.Numbers of a value decoded with UseNumber into
// int64 (whole numbers that fit) or float64, in place, and returns it.
func Numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = Numbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = Numbers(e)
		}
	}
	return v
}

// SnakeCase converts camelCase to snake_case: additionalContext becomes
// additional_context.
func SnakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r + ('a' - 'A'))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
