package jsonl_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lib/jsonl"
)

func benchRecord() map[string]any {
	return map[string]any{
		"event":      "PreToolUse",
		"session_id": "3f1c9a2e-7d4b-4a51-9d3e-0b8f6c2a1e77",
		"tool_name":  "Bash",
		"tool_input": map[string]any{"command": "go test ./...", "timeout": 120000},
		"decision":   "allow",
		"hooks":      []any{"guard", "audit"},
	}
}

func benchAppend(b *testing.B, opt jsonl.Options, parallel bool) {
	l, err := jsonl.Open(filepath.Join(b.TempDir(), "audit.jsonl"), opt)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	rec := benchRecord()
	if parallel {
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := l.Append(context.Background(), rec); err != nil {
					b.Fatal(err)
				}
			}
		})
		return
	}
	for b.Loop() {
		if err := l.Append(context.Background(), rec); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppend(b *testing.B) { benchAppend(b, jsonl.Options{}, false) }

func BenchmarkAppendRedact(b *testing.B) {
	benchAppend(b, jsonl.Options{Redact: func(s string) string { return strings.ReplaceAll(s, "sk-", "[REDACTED]") }}, false)
}

func BenchmarkAppendParallel(b *testing.B) { benchAppend(b, jsonl.Options{}, true) }

// BenchmarkAppendRotating rotates about every 40 appends.
func BenchmarkAppendRotating(b *testing.B) {
	benchAppend(b, jsonl.Options{MaxBytes: 8 << 10, MaxBackups: 3}, false)
}

// BenchmarkAppendOneShot is the cost a hook process pays: open, lock,
// append, close.
func BenchmarkAppendOneShot(b *testing.B) {
	path := filepath.Join(b.TempDir(), "audit.jsonl")
	rec := benchRecord()
	for b.Loop() {
		if err := jsonl.Append(context.Background(), path, rec, jsonl.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
