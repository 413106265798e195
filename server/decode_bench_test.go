package server_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/server"
)

// BenchmarkDecodeInputSizes decodes a small and a 1 MB hook input with
// an integer in it: the payload decoder every transport shares.
func BenchmarkDecodeInputSizes(b *testing.B) {
	for _, n := range []int{100, 1 << 20} {
		data := []byte(`{"hook_event_name":"PreToolUse","tool_input":{"n":1000000,"s":"` + strings.Repeat("x", n) + `"}}`)
		b.Run(map[int]string{100: "small", 1 << 20: "1MB"}[n], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := server.DecodeInput(bytes.NewReader(data)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
