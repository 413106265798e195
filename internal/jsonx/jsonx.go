// Package jsonx is the one JSON decoder of hook payloads (Decode: exact
// integers as int64, other numbers float64, the same under every
// transport) and the conversions every reader of hook JSON needs:
// json.Numbers turned into those int64 and float64 (Convert), and
// camelCase field names turned into snake_case.
package jsonx

import "strings"

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
